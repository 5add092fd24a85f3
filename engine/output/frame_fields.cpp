#include "engine/output/frame_fields.hpp"

#include "engine/analysis/observables.hpp"
#include "engine/magnetic/field.hpp"

#include <charconv>
#include <optional>
#include <unordered_map>

namespace lodestone {

FrameFields frame_fields(const Model& model, const State& state) {
  return frame_fields(model, state, find_clusters(state));
}

FrameFields frame_fields(const Model& model, const State& state, const Clusters& clusters) {
  const Particles& p = state.particles;
  const size_t n = p.size();
  FrameFields f;
  f.step = state.step;
  f.time = state.time;
  f.field_direction = field_direction(model.field, state.time);
  f.box_min = model.box.min;
  f.box_max = model.box.max;
  for (int axis = 0; axis < 3; ++axis)
    for (int upper = 0; upper < 2; ++upper)
      f.sides[static_cast<size_t>(axis)][static_cast<size_t>(upper)] = model.box.side(axis, upper);
  f.material_count = static_cast<int>(model.materials.size());

  f.id = p.id;
  f.material = p.material;
  f.radius = p.radius;
  f.position = p.position;
  f.velocity = p.velocity;
  f.orientation = p.orientation;
  f.angular_velocity = p.angular_velocity;
  f.moment = p.moment;
  f.force = p.force;
  f.torque = p.torque;
  f.image = p.image;
  f.easy_axis.resize(n);
  f.alignment.resize(n);
  f.cluster.resize(n);
  for (size_t i = 0; i < n; ++i) {
    f.easy_axis[i] = p.easy_axis(i);
    f.alignment[i] = axis_alignment(f.easy_axis[i], f.field_direction);
    f.cluster[i] = clusters.label_of(i);
  }
  // Bonds by their particles' ids: the dense indices are refreshed when the bond stage runs, so look the ids
  // up when an index does not match (a bond whose particle was deleted is left out of the frame).
  std::unordered_map<std::uint64_t, size_t> index;
  auto find = [&](int hint, std::uint64_t id) -> std::optional<size_t> {
    if (hint >= 0 && static_cast<size_t>(hint) < n && p.id[static_cast<size_t>(hint)] == id)
      return static_cast<size_t>(hint);
    if (index.empty())
      for (size_t i = 0; i < n; ++i) index.emplace(p.id[i], i);
    const auto it = index.find(id);
    return it == index.end() ? std::nullopt : std::optional<size_t>(it->second);
  };
  f.bonds.reserve(state.bonds.size());
  for (const Bond& bond : state.bonds) {
    const std::optional<size_t> a = find(bond.a, bond.id_a), b = find(bond.b, bond.id_b);
    if (!a || !b) continue;
    FrameBond fb;
    fb.id_a = bond.id_a;
    fb.id_b = bond.id_b;
    fb.a = *a;
    fb.b = *b;
    fb.intact = !bond.broken;
    const double length = minimum_image(model, p.position[*b] - p.position[*a]).norm();
    fb.stretch = bond.rest_length > 0.0 ? (length - bond.rest_length) / bond.rest_length : 0.0;
    f.bonds.push_back(fb);
  }
  return f;
}

void append_vector(std::string& out, const Vec3& v, char separator) {
  append_number(out, v.x());
  out += separator;
  append_number(out, v.y());
  out += separator;
  append_number(out, v.z());
}

void append_radius_and_motion(std::string& out, const FrameFields& f, size_t i, char separator) {
  append_number(out, f.radius[i]);
  out += separator;
  append_vector(out, f.position[i], separator);
  out += separator;
  append_vector(out, f.velocity[i], separator);
  const Quat& q = f.orientation[i];
  for (double c : {q.x(), q.y(), q.z(), q.w()}) {
    out += separator;
    append_number(out, c);
  }
}

}  // namespace lodestone
