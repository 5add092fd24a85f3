#include "engine/io/frame_fields.hpp"

#include "engine/analysis/observables.hpp"
#include "engine/magnetic/field.hpp"

#include <charconv>

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
  f.easy_axis.resize(n);
  f.alignment.resize(n);
  f.cluster.resize(n);
  for (size_t i = 0; i < n; ++i) {
    f.easy_axis[i] = p.easy_axis(i);
    f.alignment[i] = axis_alignment(f.easy_axis[i], f.field_direction);
    f.cluster[i] = clusters.label_of(i);
  }
  return f;
}

void append_number(std::string& out, double value) {
  char buffer[32];  // the longest shortest form, -2.2250738585072014e-308, has 24 characters
  const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, r.ptr);
}

void append_vector(std::string& out, const Vec3& v, char separator) {
  append_number(out, v.x());
  out += separator;
  append_number(out, v.y());
  out += separator;
  append_number(out, v.z());
}

}  // namespace lodestone
