#include "python/observations.hpp"

#include "engine/analysis/clusters.hpp"
#include "engine/analysis/observables.hpp"
#include "engine/output/series.hpp"
#include "python/particle_arrays.hpp"

#include <pybind11/numpy.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace py = pybind11;

namespace lodestone::python {
namespace {

std::vector<std::string> split_csv_line(std::string line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  std::vector<std::string> cells;
  std::istringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();  // a trailing empty cell
  return cells;
}

// A cell as the series writes it: an integer count, or a double in its shortest round-trip form (strtod
// reads back the same bits), or empty.
py::object cell_value(const std::string& cell) {
  if (cell.empty()) return py::float_(std::numeric_limits<double>::quiet_NaN());
  if (cell.find_first_not_of("-0123456789") == std::string::npos) return py::int_(std::stoll(cell));
  return py::float_(std::strtod(cell.c_str(), nullptr));
}

}  // namespace

py::dict series_row_dict(const Model& model, const State& state) {
  const std::vector<std::string> names = split_csv_line(series_header());
  const std::vector<std::string> cells = split_csv_line(series_row(observe(model, state)));
  if (names.size() != cells.size())
    throw std::logic_error("series row has " + std::to_string(cells.size()) + " cells for " +
                           std::to_string(names.size()) + " columns");
  py::dict row;
  for (size_t k = 0; k < names.size(); ++k) row[py::str(names[k])] = cell_value(cells[k]);
  return row;
}

py::dict cluster_dict(const State& state) {
  const Clusters found = find_clusters(state);
  const auto count = static_cast<py::ssize_t>(found.clusters.size());
  py::array_t<std::uint64_t> label(count);
  py::array_t<std::int64_t> size(count), contacts(count);
  py::array_t<double> moment({count, py::ssize_t{3}});
  py::array_t<bool> chain(count), ring(count);
  auto moment_view = moment.mutable_unchecked<2>();
  for (py::ssize_t k = 0; k < count; ++k) {
    const Cluster& c = found.clusters[static_cast<size_t>(k)];
    label.mutable_at(k) = c.label;
    size.mutable_at(k) = c.size;
    contacts.mutable_at(k) = c.contacts;
    for (int a = 0; a < 3; ++a) moment_view(k, a) = c.moment[a];
    chain.mutable_at(k) = c.chain;
    ring.mutable_at(k) = c.ring;
  }
  const std::vector<int> order = id_order(state.particles);
  py::array_t<std::uint64_t> particle_cluster(static_cast<py::ssize_t>(order.size()));
  for (size_t k = 0; k < order.size(); ++k)
    particle_cluster.mutable_at(static_cast<py::ssize_t>(k)) = found.label_of(static_cast<size_t>(order[k]));
  py::dict out;
  out["label"] = label;
  out["size"] = size;
  out["contacts"] = contacts;
  out["moment"] = moment;
  out["chain"] = chain;
  out["ring"] = ring;
  out["particle_cluster"] = particle_cluster;
  return out;
}

}  // namespace lodestone::python
