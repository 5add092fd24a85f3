#include "render/scene_builder.hpp"

#include "render/line_vertices.hpp"

#include <cmath>

namespace lodestone::render {
namespace {

constexpr Rgb kSelectionColor{1.0f, 1.0f, 1.0f};  // the rings around the selected sphere
constexpr float kSelectionRingRadii = 1.35f;      // their radius, in the sphere's radii
constexpr Rgb kAxisColor{0.55f, 0.95f, 1.0f};     // easy axes
constexpr Rgb kBoxColor{0.55f, 0.58f, 0.62f};
constexpr Rgb kBondColor{0.3f, 1.0f, 0.45f};
constexpr Rgb kFieldLineColor{0.85f, 0.92f, 1.0f};  // field lines (the field view)
constexpr Rgb kLidColor{0.95f, 0.6f, 0.25f};        // the pressing lid (pressure.method lid)

glm::vec3 vec(const Vec3& v) {
  return {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
}

// The twelve edges of the box from `lo` to `hi`: for each axis a, the four edges along a.
void push_box(std::vector<float>& out, const glm::vec3& lo, const glm::vec3& hi) {
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    for (int corner = 0; corner < 4; ++corner) {
      glm::vec3 start = lo, end = lo;
      start[b] = end[b] = (corner & 1) ? hi[b] : lo[b];
      start[c] = end[c] = (corner & 2) ? hi[c] : lo[c];
      end[a] = hi[a];
      push_line(out, start, end, kBoxColor);
    }
  }
}

// The lid at `height` across the box: its outline and a grid of lines across it, so that it reads as a plate.
void push_lid(std::vector<float>& out, const glm::vec3& lo, const glm::vec3& hi, float height) {
  constexpr int kBars = 6;
  for (int k = 0; k <= kBars; ++k) {
    const float t = static_cast<float>(k) / kBars;
    const float x = lo.x + t * (hi.x - lo.x), y = lo.y + t * (hi.y - lo.y);
    push_line(out, glm::vec3(x, lo.y, height), glm::vec3(x, hi.y, height), kLidColor);
    push_line(out, glm::vec3(lo.x, y, height), glm::vec3(hi.x, y, height), kLidColor);
  }
}

// The selection: three rings around the sphere (across x, y and z), so that it keeps its colour (a colour of its
// own would read as one more cluster or alignment) and is seen from any direction.
void push_selection_rings(std::vector<float>& out, const glm::vec3& centre, float radius) {
  constexpr int kSegments = 32;
  const float r = kSelectionRingRadii * radius;
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    auto point = [&](int k) {
      const float a = 2.0f * static_cast<float>(pi) * static_cast<float>(k) / kSegments;
      glm::vec3 p = centre;
      p[u] += r * std::cos(a);
      p[v] += r * std::sin(a);
      return p;
    };
    for (int k = 0; k < kSegments; ++k) push_line(out, point(k), point(k + 1), kSelectionColor);
  }
}

// Moment arrows (the half vector from the centre, arrow_length radii long) and the easy axes, drawn apart as lines
// only where they differ visibly from the moment's direction.
void add_moments_and_axes(const ParticleSnapshot& p, const ViewOptions& options, VisualScene& scene) {
  const size_t n = p.size();
  if (options.show_moments) scene.arrows.assign(3 * n, 0.0f);
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3 m = xyz(p.moment, i);
    const float r = p.radius[i], m_norm = glm::length(m);
    if (options.show_moments && m_norm > 0.0f) {
      const glm::vec3 half = (options.arrow_length * r / m_norm) * m;
      std::copy(&half.x, &half.x + 3, &scene.arrows[3 * i]);
    }
    const glm::vec3 axis = xyz(p.easy_axis, i), c = xyz(p.position, i);
    if (options.show_easy_axes && (m_norm == 0.0f || glm::dot(axis, m / m_norm) < 0.9995f || !options.show_moments)) {
      const float half_length = 1.15f * options.arrow_length * r;
      push_line(scene.lines, c - half_length * axis, c + half_length * axis, kAxisColor);
    }
  }
}

// |B| on the slice: two triangles per grid cell with the colour of each node; points inside particles take the top
// of the scale. Field lines: pale segments, depth-tested, so the spheres hide what is behind them.
void add_field_view(const FieldView& field, const ViewOptions& options, VisualScene& scene) {
  const FieldSlice& slice = field.slice;
  const bool held = options.field_high > 0.0f;
  const float low = held ? options.field_low : field.low, high = held ? options.field_high : field.high;
  const int nu = slice.count[0], nv = slice.count[1];
  if (options.show_field_slice && field.magnitude.size() == slice.size()) {
    auto node = [&](int i, int j) {
      const size_t k = static_cast<size_t>(i) + static_cast<size_t>(nu) * static_cast<size_t>(j);
      const float t =
          field.inside[k] ? 1.0f : field_map_position(field.magnitude[k], low, high, options.field_log_scale);
      push_vertex(scene.slice, vec(slice.point(i, j)), field_map_color(t));
    };
    for (int j = 0; j + 1 < nv; ++j)
      for (int i = 0; i + 1 < nu; ++i) {
        node(i, j);
        node(i + 1, j);
        node(i + 1, j + 1);
        node(i, j);
        node(i + 1, j + 1);
        node(i, j + 1);
      }
  }
  if (options.show_field_lines)
    for (const std::vector<float>& line : field.lines)
      for (size_t k = 0; k + 5 < line.size(); k += 3)
        push_line(scene.lines, glm::vec3(line[k], line[k + 1], line[k + 2]),
                  glm::vec3(line[k + 3], line[k + 4], line[k + 5]), kFieldLineColor);
}

}  // namespace

void VisualScene::clear() {
  centers.clear();
  radii.clear();
  colors.clear();
  arrows.clear();
  lines.clear();
  slice.clear();
  overlay_lines.clear();
  has_spring = false;
}

const VisualScene& SceneBuilder::update(const Snapshot& s, const ViewOptions& options) {
  const ParticleSnapshot& p = s.particles;
  VisualScene& scene = scene_;
  scene.clear();
  scene.legend = color_particles(s, options.color_mode, scene.colors, &cluster_palette_);
  scene.centers = p.position;
  scene.radii = p.radius;
  if (options.selected) {
    const long selected = p.index_of(*options.selected);
    if (selected >= 0)
      push_selection_rings(scene.overlay_lines, xyz(p.position, static_cast<size_t>(selected)),
                           p.radius[static_cast<size_t>(selected)]);
  }
  add_moments_and_axes(p, options, scene);
  if (options.show_box && s.scene) push_box(scene.lines, vec(s.scene->box.min), vec(s.scene->box.max));
  if (s.in_force && s.in_force->pressure.method == PressureMethod::Lid)
    push_lid(scene.lines, vec(s.in_force->box.min), vec(s.in_force->box.max),
             static_cast<float>(s.observables.lid_height));
  if (s.field_view) add_field_view(*s.field_view, options, scene);
  if (options.show_bonds)
    for (size_t k = 0; k + 1 < p.bonds.size(); k += 2) {
      const size_t a = p.bonds[k], b = p.bonds[k + 1];
      if (a < p.size() && b < p.size())
        push_line(scene.overlay_lines, xyz(p.position, a), xyz(p.position, b), kBondColor);
    }
  if (s.drag.active) {
    const long i = p.index_of(s.drag.particle_id);
    scene.has_spring = true;
    scene.spring.anchor = i >= 0 ? xyz(p.position, static_cast<size_t>(i)) : vec(s.drag.anchor);
    scene.spring.radius = i >= 0 ? p.radius[static_cast<size_t>(i)] : 1e-4f;
    scene.spring.target = vec(s.drag.target);
  }
  scene.show_gizmo = options.show_gizmo;
  scene.gizmo_left = options.gizmo_left;
  scene.field_direction = glm::normalize(vec(s.field_direction));
  return scene;
}

std::optional<std::uint64_t> pick_particle(const Snapshot& s, const Ray& ray) {
  const ParticleSnapshot& p = s.particles;
  double best = INFINITY;
  std::optional<std::uint64_t> hit;
  const Vec3 origin(ray.origin.x, ray.origin.y, ray.origin.z);
  const Vec3 direction = Vec3(ray.direction.x, ray.direction.y, ray.direction.z).normalized();
  for (size_t i = 0; i < p.size(); ++i) {
    const Vec3 center(p.position[3 * i], p.position[3 * i + 1], p.position[3 * i + 2]);
    const Vec3 to_center = center - origin;
    const double b = to_center.dot(direction);
    const double perpendicular_sq = (to_center - b * direction).squaredNorm();
    const double r = p.radius[i];
    if (perpendicular_sq > r * r) continue;
    const double t = b - std::sqrt(r * r - perpendicular_sq);
    if (t > 0.0 && t < best) {
      best = t;
      hit = p.id[i];
    }
  }
  return hit;
}

}  // namespace lodestone::render
