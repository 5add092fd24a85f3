// The Python bindings of what a scene gives back: observations, clusters, the field at points, the state hash, and the
// files it writes.

#include "engine/core/state_hash.hpp"
#include "engine/magnetic/field_evaluation.hpp"
#include "python/bindings.hpp"
#include "python/observations.hpp"
#include "python/particle_arrays.hpp"

#include <pybind11/numpy.h>

#include <string>
#include <vector>

namespace py = pybind11;
using namespace py::literals;

namespace lodestone::python {

void bind_outputs(py::class_<SessionHandle>& c) {
  c.def(
      "observe",
      [](SessionHandle& s) {
        SessionHandle::Access a = s.access();
        return lodestone::python::series_row_dict(a.session().model(), a.session().state());
      },
      "The time-series row of now as a dict, keyed by the columns of lodestone-run --series (docs/outputs.md): "
      "energies, alignment, magnetisation, contacts, clusters...");
  c.def(
      "clusters", [](SessionHandle& s) { return lodestone::python::cluster_dict(s.access().session().state()); },
      "Clusters of particles in contact, as a dict of numpy arrays, one row per cluster: label (its smallest "
      "particle id), size, contacts, moment (K, 3) [A m^2], chain, ring; and particle_cluster, the label of each "
      "particle's cluster in id order.");
  c.def(
      "field_at",
      [](SessionHandle& s, const py::array_t<double, py::array::c_style | py::array::forcecast>& points, bool exact,
         bool applied, bool moments) {
        const std::vector<lodestone::Vec3> at = lodestone::python::points_from(points);
        lodestone::FieldEvaluationSettings settings;
        settings.sum = exact ? lodestone::FieldSum::Exact : lodestone::FieldSum::AsForces;
        settings.applied = applied;
        settings.moments = moments;
        std::vector<lodestone::Vec3> field;
        {
          SessionHandle::Access a = s.access();
          field = lodestone::evaluate_field(a.session().model(), a.session().state(), at, settings);
        }
        return lodestone::python::vectors_like(field, points.ndim() == 1);
      },
      "points"_a, py::kw_only(), "exact"_a = false, "applied"_a = true, "moments"_a = true,
      "The total magnetic field B [T] at points [m] of shape (3,) or (M, 3): the applied field plus every moment "
      "summed as the forces do (magnetics.method), or all of them with exact=True; inside a sphere its own term "
      "is the uniform interior field (docs/physics.md, 'Field evaluation'). applied=False or moments=False leave "
      "that part out.");
  c.def(
      "state_hash",
      [](SessionHandle& s) { return lodestone::hash_hex(lodestone::state_hash(s.access().session().state())); },
      "A 64-bit hash of every particle's id, position, velocity and orientation in id order, as 16 hex digits: "
      "the app's `hash` remote command. Equal hashes mean bit-identical motion.");

  c.def(
      "save_preset", [](SessionHandle& s, py::handle path) { s.save_preset(path_text(path)); }, "path"_a,
      "Writes the preset with the timeline of set() changes (atomically): lodestone-run on it replays this run.");
  c.def(
      "save_checkpoint", [](SessionHandle& s, py::handle path) { s.save_checkpoint(path_text(path)); }, "path"_a,
      "Writes the whole state and its preset (atomically), bit for bit: Session.from_checkpoint and "
      "lodestone-run --restart continue it.");
  c.def(
      "export_frame",
      [](SessionHandle& s, py::handle path, const std::string& vtk_encoding) {
        s.export_frame(path_text(path), vtk_encoding);
      },
      "path"_a, "vtk_encoding"_a = "ascii",
      "Writes the particles now to a file whose extension picks the format: .vtp (ParaView), .xyz (OVITO), .dump "
      "or .lammpstrj (LAMMPS), .csv (docs/outputs.md); bonds included. vtk_encoding: a .vtp's arrays as ascii, "
      "base64 or raw (binary appended). Raises ExportError, or ValueError for an unknown encoding.");
  c.def_property_readonly("preset", &SessionHandle::document,
                          "The preset save_preset writes, as a dict: the one loaded, with its timeline of changes.");
}

}  // namespace lodestone::python
