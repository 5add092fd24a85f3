#include <catch2/catch.hpp>
// What the renderer is given (render/scene_builder.hpp): a snapshot turned into spheres, arrows and lines as the view
// options ask. Each case sets up a snapshot small enough to know every number by hand.

#include "render/scene_builder.hpp"

#include <glm/glm.hpp>

#include <algorithm>
#include <memory>
#include <vector>

using namespace lodestone;
using namespace lodestone::render;

namespace {

// Two spheres of radius 1 and 2 at x = 0 and x = 5, moments along +z (of 3 A m^2) and along +x (of 0.5), easy axes
// along +z; a 10 mT field along +z.
Snapshot two_spheres() {
  Snapshot s;
  ParticleSnapshot& p = s.particles;
  p.id = {7, 9};
  p.position = {0, 0, 0, 5, 0, 0};
  p.radius = {1, 2};
  p.velocity.assign(6, 0.0f);
  p.angular_velocity.assign(6, 0.0f);
  p.easy_axis = {0, 0, 1, 0, 0, 1};
  p.moment = {0, 0, 3, 0.5f, 0, 0};
  p.contacts = {0, 0};
  p.cluster = {7, 9};
  p.cluster_size = {1, 1};
  s.field_direction = Vec3::UnitZ();
  s.field = Vec3(0.0, 0.0, 0.01);
  return s;
}

glm::vec3 triple(const std::vector<float>& values, size_t i) {
  return {values[3 * i], values[3 * i + 1], values[3 * i + 2]};
}

// The vertices (kLineVertexFloats each) of a line array.
size_t vertex_count(const std::vector<float>& lines) {
  return lines.size() / kLineVertexFloats;
}

}  // namespace

TEST_CASE("scene builder: spheres where the particles are, arrows arrow_length radii long along the moment",
          "[scene]") {
  ViewOptions options;
  options.arrow_length = 2.0f;
  options.show_box = false;
  SceneBuilder builder;
  const VisualScene& scene = builder.update(two_spheres(), options);
  REQUIRE(scene.sphere_count() == 2);
  CHECK(triple(scene.centers, 1) == glm::vec3(5, 0, 0));
  CHECK(scene.radii[1] == 2.0f);
  REQUIRE(scene.arrows.size() == 6);
  CHECK(triple(scene.arrows, 0) == glm::vec3(0, 0, 2));  // 2 radii of 1, along +z, whatever |m|
  CHECK(triple(scene.arrows, 1) == glm::vec3(4, 0, 0));  // 2 radii of 2, along +x
  CHECK(scene.lines.empty());                            // no box, no easy axes asked for
  CHECK(scene.field_direction == glm::vec3(0, 0, 1));
  CHECK_FALSE(scene.legend.title.empty());

  options.show_moments = false;
  CHECK(builder.update(two_spheres(), options).arrows.empty());
}

TEST_CASE("scene builder: the selected sphere keeps its colour and gets three rings around it", "[scene]") {
  // Issue 39, bug 5: the selected bead turned yellow, one of the cluster colours.
  ViewOptions options;
  const Snapshot s = two_spheres();
  std::vector<float> rgb;
  color_particles(s, options.color_mode, rgb);
  options.selected = 9;
  SceneBuilder builder;
  const VisualScene& scene = builder.update(s, options);
  CHECK(scene.colors == rgb);
  // Three rings of 32 segments over everything, each point 1.35 radii from the centre, in a plane through it.
  const size_t floats = scene.overlay_lines.size();
  REQUIRE(floats == 3 * 32 * 2 * kLineVertexFloats);
  const glm::vec3 centre = triple(s.particles.position, 1);
  const float radius = s.particles.radius[1];
  for (size_t v = 0; v < floats / kLineVertexFloats; ++v) {
    const glm::vec3 p = triple(scene.overlay_lines, 2 * v);  // triple(values, i) reads floats 3i..3i+2
    CHECK(glm::length(p - centre) == Approx(1.35f * radius).epsilon(1e-5));
  }
  options.selected = 12345;  // not in the snapshot: nothing drawn
  CHECK(builder.update(s, options).overlay_lines.empty());
}

TEST_CASE("scene builder: easy axes only where they differ from the moment, the box's 12 edges, bonds on top",
          "[scene]") {
  ViewOptions options;
  options.show_easy_axes = true;
  options.show_box = false;
  Snapshot s = two_spheres();
  SceneBuilder builder;
  // Sphere 0's moment lies along its easy axis: one line, sphere 1's, from -2.3 to +2.3 radii along z.
  const VisualScene& axes = builder.update(s, options);
  REQUIRE(vertex_count(axes.lines) == 2);
  const glm::vec3 a(axes.lines[0], axes.lines[1], axes.lines[2]), b(axes.lines[6], axes.lines[7], axes.lines[8]);
  CHECK(a.z == Approx(-4.6f));
  CHECK(b.z == Approx(4.6f));
  CHECK(a.x == 5.0f);

  options.show_easy_axes = false;
  options.show_box = true;
  auto preset = std::make_shared<Preset>();
  preset->box.min = Vec3(-1, -2, -3);
  preset->box.max = Vec3(1, 2, 3);
  s.scene = preset;
  s.particles.bonds = {0, 1};
  const VisualScene& boxed = builder.update(s, options);
  CHECK(vertex_count(boxed.lines) == 24);
  float longest = 0.0f;  // the box's longest edge, along z
  for (size_t k = 0; k < 24; k += 2)
    longest = std::max(longest, glm::distance(triple(boxed.lines, 2 * k), triple(boxed.lines, 2 * k + 2)));
  CHECK(longest == 6.0f);
  REQUIRE(vertex_count(boxed.overlay_lines) == 2);
  CHECK(triple(boxed.overlay_lines, 2) == glm::vec3(5, 0, 0));  // the bond's second end: sphere 1's centre
  options.show_bonds = false;
  CHECK(builder.update(s, options).overlay_lines.empty());
}

TEST_CASE("scene builder: a pressing lid is drawn as a plate of lines at its height across the box", "[scene]") {
  Snapshot s = two_spheres();
  auto parameters = std::make_shared<Preset>();
  parameters->box.min = Vec3(-1, -2, -3);
  parameters->box.max = Vec3(1, 2, 3);
  parameters->pressure.method = PressureMethod::Lid;
  s.in_force = parameters;
  s.observables.lid_height = 2.5;
  ViewOptions options;
  options.show_box = false;
  SceneBuilder builder;
  const VisualScene& scene = builder.update(s, options);
  REQUIRE(vertex_count(scene.lines) == 28);  // 7 bars each way
  for (size_t v = 0; v < vertex_count(scene.lines); ++v) {
    const glm::vec3 p = triple(scene.lines, 2 * v);
    CHECK(p.z == 2.5f);
    CHECK(std::abs(p.x) <= 1.0f);
    CHECK(std::abs(p.y) <= 2.0f);
  }
  parameters->pressure.method = PressureMethod::None;
  CHECK(builder.update(s, options).lines.empty());
}

TEST_CASE("scene builder: the drag spring runs from the dragged particle's centre to the target", "[scene]") {
  Snapshot s = two_spheres();
  SceneBuilder builder;
  CHECK_FALSE(builder.update(s, ViewOptions{}).has_spring);
  s.drag.active = true;
  s.drag.particle_id = 9;
  s.drag.target = Vec3(5, 3, 0);
  const VisualScene& scene = builder.update(s, ViewOptions{});
  REQUIRE(scene.has_spring);
  CHECK(scene.spring.anchor == glm::vec3(5, 0, 0));
  CHECK(scene.spring.target == glm::vec3(5, 3, 0));
  CHECK(scene.spring.radius == 2.0f);
}
