#include "python/particle_arrays.hpp"

#include "engine/core/image_flags.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace py = pybind11;

namespace lodestone::python {
namespace {

// A fresh (N, columns) float64 array filled row by row in id order.
template <typename Row>
py::array_t<double> rows(const std::vector<int>& order, py::ssize_t columns, Row&& row) {
  py::array_t<double> out({static_cast<py::ssize_t>(order.size()), columns});
  auto view = out.mutable_unchecked<2>();
  for (size_t k = 0; k < order.size(); ++k) row(static_cast<size_t>(order[k]), &view(static_cast<py::ssize_t>(k), 0));
  return out;
}

py::array_t<double> vectors(const std::vector<int>& order, const std::vector<Vec3>& values) {
  return rows(order, 3, [&](size_t i, double* out) {
    for (int a = 0; a < 3; ++a) out[a] = values[i][a];
  });
}

}  // namespace

std::vector<int> id_order(const Particles& particles) {
  std::vector<int> order(particles.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return particles.id[static_cast<size_t>(a)] < particles.id[static_cast<size_t>(b)]; });
  return order;
}

py::array_t<double> particle_array(const Particles& p, ParticleArray which) {
  const std::vector<int> order = id_order(p);
  switch (which) {
    case ParticleArray::Positions: return vectors(order, p.position);
    case ParticleArray::Velocities: return vectors(order, p.velocity);
    case ParticleArray::AngularVelocities: return vectors(order, p.angular_velocity);
    case ParticleArray::Moments: return vectors(order, p.moment);
    case ParticleArray::Forces: return vectors(order, p.force);
    case ParticleArray::Torques: return vectors(order, p.torque);
    case ParticleArray::EasyAxes:
      return rows(order, 3, [&](size_t i, double* out) {
        const Vec3 n = p.easy_axis(i);
        for (int a = 0; a < 3; ++a) out[a] = n[a];
      });
    case ParticleArray::Orientations:
      return rows(order, 4, [&](size_t i, double* out) {
        const Quat& q = p.orientation[i];
        out[0] = q.x();
        out[1] = q.y();
        out[2] = q.z();
        out[3] = q.w();
      });
  }
  throw std::logic_error("particle_array: unknown array");
}

py::array_t<double> radii(const Particles& p) {
  const std::vector<int> order = id_order(p);
  py::array_t<double> out(static_cast<py::ssize_t>(order.size()));
  auto view = out.mutable_unchecked<1>();
  for (size_t k = 0; k < order.size(); ++k) view(static_cast<py::ssize_t>(k)) = p.radius[static_cast<size_t>(order[k])];
  return out;
}

py::array_t<std::uint64_t> ids(const Particles& p) {
  std::vector<std::uint64_t> sorted = p.id;
  std::sort(sorted.begin(), sorted.end());
  py::array_t<std::uint64_t> out(static_cast<py::ssize_t>(sorted.size()));
  std::copy(sorted.begin(), sorted.end(), out.mutable_data());
  return out;
}

py::array_t<std::int32_t> images(const Particles& p) {
  const std::vector<int> order = id_order(p);
  py::array_t<std::int32_t> out({static_cast<py::ssize_t>(order.size()), py::ssize_t{3}});
  auto view = out.mutable_unchecked<2>();
  for (size_t k = 0; k < order.size(); ++k)
    for (size_t a = 0; a < 3; ++a)
      view(static_cast<py::ssize_t>(k), static_cast<py::ssize_t>(a)) = p.image[static_cast<size_t>(order[k])][a];
  return out;
}

py::array_t<double> unwrapped_positions(const Model& model, const Particles& p) {
  return rows(id_order(p), 3, [&](size_t i, double* out) {
    const Vec3 x = unwrapped_position(p.position[i], p.image[i], model.periodic_length);
    for (int a = 0; a < 3; ++a) out[a] = x[a];
  });
}

std::vector<Vec3> points_from(const py::array_t<double, py::array::c_style | py::array::forcecast>& points) {
  const bool single = points.ndim() == 1 && points.shape(0) == 3;
  if (!single && !(points.ndim() == 2 && points.shape(1) == 3)) {
    std::string shape = "(";
    for (py::ssize_t d = 0; d < points.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(points.shape(d));
    throw py::value_error("points: one point of shape (3,) or an array of shape (M, 3) in metres, not " + shape +
                          (points.ndim() == 1 ? ",)" : ")"));
  }
  const py::ssize_t count = single ? 1 : points.shape(0);
  std::vector<Vec3> out(static_cast<size_t>(count));
  const double* data = points.data();
  for (py::ssize_t k = 0; k < count; ++k)
    out[static_cast<size_t>(k)] = Vec3(data[3 * k], data[3 * k + 1], data[3 * k + 2]);
  return out;
}

py::array_t<double> vectors_like(std::span<const Vec3> values, bool single) {
  if (single) return py::array_t<double>(3, values[0].data());
  py::array_t<double> out({static_cast<py::ssize_t>(values.size()), py::ssize_t{3}});
  auto view = out.mutable_unchecked<2>();
  for (size_t k = 0; k < values.size(); ++k)
    for (int a = 0; a < 3; ++a) view(static_cast<py::ssize_t>(k), a) = values[k][a];
  return out;
}

}  // namespace lodestone::python
