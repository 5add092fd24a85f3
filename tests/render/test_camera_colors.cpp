#include <catch2/catch.hpp>
// The CPU side of render/: the orbit camera (projection, picking rays, framing, mouse gestures),
// the sphere colours and their legend, and picking. No OpenGL context, no display.

#include "render/camera.hpp"
#include "render/colors.hpp"
#include "render/scene_builder.hpp"

#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace lodestone;
using namespace lodestone::render;

namespace {

// A camera on a 1000 x 700 view with the 380-px side bar, framed on a 6 mm box round the origin
// (the numbers of the desktop screenshot test).
OrbitCamera framed_camera(float inset = 380.0f) {
  OrbitCamera camera;
  camera.set_viewport(1000, 700);
  camera.set_left_inset(inset);
  camera.frame_box(glm::vec3(-0.003f), glm::vec3(0.003f));
  return camera;
}

// Distance from the point p to the (infinite forward) ray.
float distance_to_ray(const Ray& ray, const glm::vec3& p) {
  const glm::vec3 d = glm::normalize(ray.direction);
  const glm::vec3 to_p = p - ray.origin;
  return glm::length(to_p - glm::dot(to_p, d) * d);
}

// A snapshot with spheres at the given centres and radii, easy axes along +z, field along +z.
Snapshot spheres(const std::vector<glm::vec3>& centres, const std::vector<float>& radii) {
  Snapshot s;
  ParticleSnapshot& p = s.particles;
  for (size_t i = 0; i < centres.size(); ++i) {
    p.id.push_back(100 + i);
    p.position.insert(p.position.end(), {centres[i].x, centres[i].y, centres[i].z});
    p.radius.push_back(radii[i]);
    p.velocity.insert(p.velocity.end(), {0.0f, 0.0f, 0.0f});
    p.angular_velocity.insert(p.angular_velocity.end(), {0.0f, 0.0f, 0.0f});
    p.easy_axis.insert(p.easy_axis.end(), {0.0f, 0.0f, 1.0f});
    p.moment.insert(p.moment.end(), {0.0f, 0.0f, 0.0f});
    p.contacts.push_back(0);
    p.cluster.push_back(100 + i);  // every sphere on its own
    p.cluster_size.push_back(1);
  }
  s.field_direction = Vec3::UnitZ();
  s.field = Vec3(0.0, 0.0, 0.01);  // an applied field (10 mT): the field colour modes have something to compare with
  return s;
}

Rgb color_of(const std::vector<float>& rgb, size_t i) {
  return {rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]};
}

// Colours are interpolated in float; 1e-5 is float rounding, far below any visible difference.
void check_rgb(const Rgb& got, const Rgb& want) {
  INFO("got (" << got[0] << ", " << got[1] << ", " << got[2] << "), want (" << want[0] << ", " << want[1] << ", "
               << want[2] << ")");
  for (size_t c = 0; c < 3; ++c) CHECK(got[c] == Approx(want[c]).margin(1e-5));
}

const Rgb kBlue{0.16f, 0.32f, 0.85f}, kGrey{0.86f, 0.86f, 0.86f}, kDarkRed{0.55f, 0.02f, 0.02f};

}  // namespace

// [SECTION] camera

TEST_CASE("camera: the target projects to the centre of the free area right of the side bar", "[camera]") {
  for (const float inset : {0.0f, 380.0f}) {
    OrbitCamera camera = framed_camera(inset);
    for (const auto& [yaw, pitch] : {std::pair{-70.0f, 22.0f}, {-90.0f, 0.0f}, {30.0f, -60.0f}}) {
      camera.set_angles(yaw, pitch);
      const glm::vec3 p = camera.project(camera.target());
      INFO("inset " << inset << " yaw " << yaw << " pitch " << pitch << ": (" << p.x << ", " << p.y << ")");
      // 0.01 px: float rounding of a 1000-px projection.
      CHECK(p.x == Approx(inset + (1000.0f - inset) / 2.0f).margin(0.01));
      CHECK(p.y == Approx(350.0f).margin(0.01));
      CHECK(p.z > 0.0f);
      CHECK(p.z < 1.0f);  // between the near and far planes: drawn
    }
  }
}

TEST_CASE("camera: looking along +y (yaw -90, pitch 0), +x is right and +z is up on the screen", "[camera]") {
  OrbitCamera camera = framed_camera();
  camera.set_angles(-90.0f, 0.0f);
  const glm::vec3 centre = camera.project(glm::vec3(0.0f));
  const glm::vec3 right = camera.project(glm::vec3(0.002f, 0.0f, 0.0f));
  const glm::vec3 up = camera.project(glm::vec3(0.0f, 0.0f, 0.002f));
  const glm::vec3 far = camera.project(glm::vec3(0.0f, 0.002f, 0.0f));
  CHECK(right.x > centre.x + 10.0f);
  CHECK(right.y == Approx(centre.y).margin(0.01));
  CHECK(up.y < centre.y - 10.0f);  // pixel y grows downwards
  CHECK(up.x == Approx(centre.x).margin(0.01));
  // +y goes away from the eye: same pixel, larger depth.
  CHECK(far.x == Approx(centre.x).margin(0.01));
  CHECK(far.z > centre.z);
  CHECK(camera.eye().y < -0.003f);  // the eye is outside the box on the -y side
}

TEST_CASE("camera: the ray through a point's projection passes through the point", "[camera]") {
  OrbitCamera camera = framed_camera();
  const float scene = std::sqrt(3.0f) * 0.006f;  // box diagonal
  for (const auto& [yaw, pitch] : {std::pair{-70.0f, 22.0f}, {-90.0f, 0.0f}, {135.0f, 60.0f}}) {
    camera.set_angles(yaw, pitch);
    for (const glm::vec3 point : {glm::vec3(0.0f), glm::vec3(0.003f, -0.002f, 0.001f),
                                  glm::vec3(-0.003f, 0.003f, -0.003f), glm::vec3(0.0025f, 0.0f, 0.0028f)}) {
      const glm::vec3 pixel = camera.project(point);
      const Ray ray = camera.ray_through(pixel.x, pixel.y);
      INFO("yaw " << yaw << " pitch " << pitch << " point (" << point.x << ", " << point.y << ", " << point.z << ")");
      CHECK(glm::length(ray.direction) == Approx(1.0f).margin(1e-5));
      CHECK(ray.origin == camera.eye());
      // 1e-4 of the scene: float precision of an inverted matrix product, far below a pixel
      // (a pixel at the target is ~1e-3 of the scene here).
      CHECK(distance_to_ray(ray, point) < 1e-4f * scene);
      CHECK(glm::dot(point - ray.origin, ray.direction) > 0.0f);  // in front of the eye
    }
  }
}

TEST_CASE("camera: with the Plots window open at the right, the box is framed and centred between the two",
          "[camera]") {
  // Issue 39: the open Plots window covered a quarter of the scene and the framing ignored it.
  OrbitCamera camera;
  camera.set_viewport(1280, 800);
  camera.set_left_inset(380.0f);
  camera.set_right_inset(390.0f);
  const glm::vec3 lo(-0.004f, -0.002f, 0.0f), hi(0.004f, 0.002f, 0.01f);
  camera.frame_box(lo, hi);
  float min_x = 1e9f, max_x = -1e9f;
  for (int corner = 0; corner < 8; ++corner) {
    const glm::vec3 c((corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y, (corner & 4) ? hi.z : lo.z);
    const float x = camera.project(c).x;
    min_x = std::min(min_x, x);
    max_x = std::max(max_x, x);
  }
  CHECK(min_x >= 380.0f);
  CHECK(max_x <= 1280.0f - 390.0f);
  // The target, the box's centre, at the middle of the free strip (380 .. 890).
  CHECK(camera.project(0.5f * (lo + hi)).x == Approx(0.5f * (380.0f + 890.0f)).margin(0.5));
}

TEST_CASE("camera: after frame_box all 8 box corners project inside the free area", "[camera]") {
  for (const auto& [width, height] : {std::pair{1000, 700}, {1280, 800}, {800, 1200}, {600, 400}}) {
    OrbitCamera camera;
    camera.set_viewport(width, height);
    camera.set_left_inset(380.0f);
    const glm::vec3 lo(-0.004f, -0.002f, 0.0f), hi(0.004f, 0.002f, 0.01f);  // not a cube, not at the origin
    camera.frame_box(lo, hi);
    CHECK(camera.yaw() == OrbitCamera::kDefaultYaw);
    CHECK(camera.pitch() == OrbitCamera::kDefaultPitch);
    CHECK(camera.target() == 0.5f * (lo + hi));
    const float free_left = std::min(380.0f, 0.75f * static_cast<float>(width));
    float min_x = 1e9f, max_x = -1e9f, min_y = 1e9f, max_y = -1e9f;
    for (int corner = 0; corner < 8; ++corner) {
      const glm::vec3 c((corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y, (corner & 4) ? hi.z : lo.z);
      const glm::vec3 p = camera.project(c);
      INFO(width << "x" << height << " corner " << corner << " at (" << p.x << ", " << p.y << ", " << p.z << ")");
      CHECK(p.x >= free_left);
      CHECK(p.x <= static_cast<float>(width));
      CHECK(p.y >= 0.0f);
      CHECK(p.y <= static_cast<float>(height));
      CHECK(p.z > 0.0f);
      CHECK(p.z < 1.0f);
      min_x = std::min(min_x, p.x);
      max_x = std::max(max_x, p.x);
      min_y = std::min(min_y, p.y);
      max_y = std::max(max_y, p.y);
    }
    // And it is not framed absurdly small: the box spans over a third of the free area in its
    // tighter direction (the bounding-sphere rule with 5 % margin gives about half or more).
    const float free_width = static_cast<float>(width) - free_left;
    INFO(width << "x" << height << ": box spans " << (max_x - min_x) << " x " << (max_y - min_y) << " px");
    CHECK(std::max((max_x - min_x) / free_width, (max_y - min_y) / static_cast<float>(height)) > 0.33f);
  }
}

TEST_CASE("camera: zoom, rotate and pan", "[camera]") {
  OrbitCamera camera = framed_camera();
  const float d0 = camera.distance();
  const glm::vec3 target0 = camera.target();

  SECTION("one wheel step in brings the eye 15 % closer, one out undoes it") {
    camera.zoom(1.0f);
    CHECK(camera.distance() == Approx(0.85f * d0).epsilon(1e-5));
    CHECK(glm::length(camera.eye() - camera.target()) == Approx(0.85f * d0).epsilon(1e-4));
    camera.zoom(2.0f);
    CHECK(camera.distance() == Approx(0.85f * 0.85f * 0.85f * d0).epsilon(1e-5));
    camera.zoom(-3.0f);
    CHECK(camera.distance() == Approx(d0).epsilon(1e-5));
    CHECK(camera.target() == target0);  // zoom never moves the target
  }

  SECTION("zoom stops at 1/1000 and 1000 times the scene size") {
    const float scene = std::sqrt(3.0f) * 0.006f;
    camera.zoom(1000.0f);
    CHECK(camera.distance() == Approx(1e-3f * scene).epsilon(1e-4));
    camera.zoom(-2000.0f);
    CHECK(camera.distance() == Approx(1e3f * scene).epsilon(1e-4));
  }

  SECTION("a drag across the whole width turns the yaw by 180 degrees; pitch stays within +-89") {
    camera.set_angles(-90.0f, 0.0f);
    camera.rotate(1000.0f, 0.0f);
    CHECK(camera.yaw() == Approx(-270.0f));
    CHECK(camera.pitch() == Approx(0.0f));
    CHECK(camera.distance() == d0);
    CHECK(camera.target() == target0);
    camera.rotate(0.0f, 350.0f);  // half the height: 90 degrees, clamped
    CHECK(camera.pitch() == Approx(89.0f));
    camera.rotate(0.0f, -2000.0f);
    CHECK(camera.pitch() == Approx(-89.0f));
  }

  SECTION("pan moves the target in the view plane, and the scene follows the cursor") {
    camera.set_angles(-90.0f, 0.0f);
    const glm::vec3 eye0 = camera.eye();
    const glm::vec3 forward = glm::normalize(target0 - eye0);
    const glm::vec3 world_point(0.001f, 0.0f, 0.0005f);
    const glm::vec3 before = camera.project(world_point);
    camera.pan(40.0f, -25.0f);
    const glm::vec3 moved = camera.target() - target0;
    CHECK(glm::length(moved) > 0.0f);
    // Perpendicular to the view direction (1e-4 of the move: float rounding).
    CHECK(std::abs(glm::dot(moved, forward)) < 1e-4f * glm::length(moved));
    // The camera translates with the target: same distance and direction.
    CHECK(glm::length((camera.eye() - eye0) - moved) < 1e-4f * glm::length(moved));
    CHECK(camera.distance() == d0);
    // Dragging right by 40 px and up by 25 px moves a point at the target's depth with the cursor.
    const glm::vec3 after = camera.project(world_point);
    CHECK(after.x - before.x == Approx(40.0f).margin(0.05));
    CHECK(after.y - before.y == Approx(-25.0f).margin(0.05));
  }
}

// [SECTION] colours

TEST_CASE("colors: the colour scale interpolates evenly between its stops and clamps outside", "[colors]") {
  const ColorScale scale{"t", "lo", "hi", {kBlue, kGrey, kDarkRed}};
  check_rgb(scale.at(0.0f), kBlue);
  check_rgb(scale.at(0.5f), kGrey);
  check_rgb(scale.at(1.0f), kDarkRed);
  check_rgb(scale.at(0.25f), {(0.16f + 0.86f) / 2, (0.32f + 0.86f) / 2, (0.85f + 0.86f) / 2});
  check_rgb(scale.at(0.75f), {(0.86f + 0.55f) / 2, (0.86f + 0.02f) / 2, (0.86f + 0.02f) / 2});
  check_rgb(scale.at(-1.0f), kBlue);
  check_rgb(scale.at(2.0f), kDarkRed);
  const ColorScale two{"t", "lo", "hi", {{0.0f, 0.0f, 0.0f}, {1.0f, 0.5f, 0.25f}}};
  check_rgb(two.at(0.5f), {0.5f, 0.25f, 0.125f});
}

TEST_CASE("colors: easy axis vs field is blue across, grey at 60 degrees, dark red along either way", "[colors]") {
  Snapshot s =
      spheres({glm::vec3(0.0f), glm::vec3(1.0f), glm::vec3(2.0f), glm::vec3(3.0f), glm::vec3(4.0f)}, {1, 1, 1, 1, 1});
  s.field_direction = Vec3(1.0, 0.0, 0.0);  // field along x
  const std::vector<float> axes = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0.5f, 0.8660254f, 0, 0, 0, 1};
  s.particles.easy_axis = axes;
  std::vector<float> rgb;
  const ColorScale legend = color_particles(s, ColorMode::FieldAlignment, rgb);
  REQUIRE(rgb.size() == 15);
  check_rgb(color_of(rgb, 0), kDarkRed);  // along the field
  check_rgb(color_of(rgb, 1), kDarkRed);  // against it: the easy axis has no sign
  check_rgb(color_of(rgb, 2), kBlue);     // across
  check_rgb(color_of(rgb, 3), kGrey);     // |cos 60| = 0.5
  check_rgb(color_of(rgb, 4), kBlue);     // across (along z)
  // The legend runs from blue (0, across) to dark red (1, along).
  check_rgb(legend.at(0.0f), kBlue);
  check_rgb(legend.at(1.0f), kDarkRed);
  CHECK(legend.low_label.find("across") != std::string::npos);
  CHECK(legend.high_label.find("along") != std::string::npos);
}

TEST_CASE("colors: moment vs field runs from blue against through grey across to red along", "[colors]") {
  Snapshot s = spheres({glm::vec3(0.0f), glm::vec3(1.0f), glm::vec3(2.0f), glm::vec3(3.0f)}, {1, 1, 1, 1});
  s.particles.moment = {0, 0, 2e-3f, 0, 0, -5e-4f, 3e-3f, 0, 0, 0, 0, 0};  // field along +z
  std::vector<float> rgb;
  const ColorScale legend = color_particles(s, ColorMode::MomentAlignment, rgb);
  check_rgb(color_of(rgb, 0), legend.at(1.0f));
  check_rgb(color_of(rgb, 1), legend.at(0.0f));
  check_rgb(color_of(rgb, 2), legend.at(0.5f));
  check_rgb(color_of(rgb, 3), legend.at(0.5f));           // no moment: neutral
  CHECK(legend.at(1.0f)[0] > legend.at(1.0f)[2] + 0.5f);  // red end
  CHECK(legend.at(0.0f)[2] > legend.at(0.0f)[0] + 0.5f);  // blue end
}

TEST_CASE("colors: speed is normalised to the largest speed in the snapshot", "[colors]") {
  Snapshot s = spheres({glm::vec3(0.0f), glm::vec3(1.0f), glm::vec3(2.0f)}, {1, 1, 1});
  s.particles.velocity = {0, 0, 0, 0.03f, 0, -0.04f, 0, 0.1f, 0};  // speeds 0, 0.05, 0.1 m/s
  std::vector<float> rgb;
  const ColorScale legend = color_particles(s, ColorMode::Speed, rgb);
  check_rgb(color_of(rgb, 0), legend.at(0.0f));
  check_rgb(color_of(rgb, 1), legend.at(0.5f));
  check_rgb(color_of(rgb, 2), legend.at(1.0f));
  CHECK(legend.high_label == "0.1 m/s");
  CHECK(legend.low_label == "0");
  // Twice as fast everywhere: the same colours, only the label changes.
  for (float& v : s.particles.velocity) v *= 2.0f;
  std::vector<float> faster;
  const ColorScale legend2 = color_particles(s, ColorMode::Speed, faster);
  for (size_t i = 0; i < rgb.size(); ++i) CHECK(faster[i] == Approx(rgb[i]).margin(1e-5));
  CHECK(legend2.high_label == "0.2 m/s");
  // All at rest: no division by zero, every sphere gets the low end.
  for (float& v : s.particles.velocity) v = 0.0f;
  std::vector<float> rest;
  color_particles(s, ColorMode::Speed, rest);
  for (size_t i = 0; i < 3; ++i) check_rgb(color_of(rest, i), legend.at(0.0f));
}

TEST_CASE("colors: contacts map 0..6 evenly and cap at 6", "[colors]") {
  Snapshot s = spheres({glm::vec3(0.0f), glm::vec3(1.0f), glm::vec3(2.0f), glm::vec3(3.0f)}, {1, 1, 1, 1});
  s.particles.contacts = {0, 3, 6, 11};
  std::vector<float> rgb;
  const ColorScale legend = color_particles(s, ColorMode::Contacts, rgb);
  check_rgb(color_of(rgb, 0), legend.at(0.0f));
  check_rgb(color_of(rgb, 1), legend.at(0.5f));
  check_rgb(color_of(rgb, 2), legend.at(1.0f));
  check_rgb(color_of(rgb, 3), legend.at(1.0f));  // 11 contacts look like 6
  CHECK(legend.high_label == "6+");
  // Seven evenly spaced stops: each count has its own stop colour, and neighbours differ.
  REQUIRE(legend.stops.size() == 7);
  for (size_t k = 0; k + 1 < legend.stops.size(); ++k) {
    const Rgb& a = legend.stops[k];
    const Rgb& b = legend.stops[k + 1];
    CHECK(std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]) > 0.1f);
  }
}

TEST_CASE("colors: cluster mode gives each cluster one colour and single particles grey", "[colors]") {
  // Clusters 100 (3 spheres) and 103 (2), and a single sphere 105, as capture_snapshot labels them.
  Snapshot s =
      spheres({glm::vec3(0.0f), glm::vec3(1.0f), glm::vec3(2.0f), glm::vec3(3.0f), glm::vec3(4.0f), glm::vec3(5.0f)},
              {1, 1, 1, 1, 1, 1});
  s.particles.cluster = {100, 100, 100, 103, 103, 105};
  s.particles.cluster_size = {3, 3, 3, 2, 2, 1};
  s.observables.clusters.clusters = 3;
  s.observables.clusters.largest_cluster = 3;
  std::vector<float> rgb;
  const ColorScale legend = color_particles(s, ColorMode::Cluster, rgb);
  REQUIRE(rgb.size() == 18);
  for (size_t i = 0; i < 3; ++i) check_rgb(color_of(rgb, i), cluster_color(100));
  for (size_t i = 3; i < 5; ++i) check_rgb(color_of(rgb, i), cluster_color(103));
  check_rgb(color_of(rgb, 5), kSingleParticleGrey);
  // The two clusters are told apart, and neither looks like a single particle: cluster colours are
  // saturated (channels spread by more than 0.5), the grey is not (0.02).
  const Rgb a = color_of(rgb, 0), b = color_of(rgb, 3);
  CHECK(std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]) > 0.2f);
  for (const Rgb& c : {a, b}) CHECK(std::max({c[0], c[1], c[2]}) - std::min({c[0], c[1], c[2]}) > 0.5f);
  // The legend shows what is drawn (issue 39, bug 5): the grey of single particles, then one swatch per cluster
  // colour on screen, the larger cluster's first; its title counts the clusters drawn.
  CHECK(legend.categorical);
  REQUIRE(legend.stops.size() == 3);
  check_rgb(legend.stops[0], kSingleParticleGrey);
  check_rgb(legend.stops[1], cluster_color(100));
  check_rgb(legend.stops[2], cluster_color(103));
  CHECK(legend.title == "clusters of 2 or more: 2, the largest of 3 beads");
  CHECK(legend.low_label == "grey: single");

  // Without cluster data (an older snapshot) every sphere is grey rather than a wrong colour.
  s.particles.cluster.clear();
  s.particles.cluster_size.clear();
  color_particles(s, ColorMode::Cluster, rgb);
  for (size_t i = 0; i < 6; ++i) check_rgb(color_of(rgb, i), kSingleParticleGrey);
}

TEST_CASE("colors: the cluster legend has as many colours as the clusters drawn, from the palette too", "[colors]") {
  // Four clusters apart from each other and no single particle; the palette colours them (the app's path).
  std::vector<glm::vec3> at;
  for (int k = 0; k < 8; ++k) at.push_back(glm::vec3(10.0f * static_cast<float>(k / 2), 0.0f, 0.0f));
  Snapshot s = spheres(at, std::vector<float>(8, 1.0f));
  s.particles.cluster = {100, 100, 102, 102, 104, 104, 106, 106};
  s.particles.cluster_size = {2, 2, 2, 2, 2, 2, 2, 2};
  ClusterPalette palette;
  std::vector<float> rgb;
  ColorScale legend = color_particles(s, ColorMode::Cluster, rgb, &palette);
  std::vector<Rgb> drawn;
  for (size_t i = 0; i < 8; ++i)
    if (std::find(drawn.begin(), drawn.end(), color_of(rgb, i)) == drawn.end()) drawn.push_back(color_of(rgb, i));
  CHECK(drawn.size() == 4);
  CHECK(legend.stops.size() == drawn.size());  // no grey: nothing is single
  for (const Rgb& c : legend.stops) CHECK(std::find(drawn.begin(), drawn.end(), c) != drawn.end());
  CHECK(legend.low_label.empty());
  CHECK(legend.title == "clusters of 2 or more: 4, the largest of 2 beads");

  // Nothing touches: the legend says so, with the grey alone.
  s.particles.cluster = {100, 101, 102, 103, 104, 105, 106, 107};
  s.particles.cluster_size = std::vector<std::uint32_t>(8, 1);
  legend = color_particles(s, ColorMode::Cluster, rgb, &palette);
  REQUIRE(legend.stops.size() == 1);
  check_rgb(legend.stops[0], kSingleParticleGrey);
  CHECK(legend.title == "clusters: none yet (no two beads touch)");
}

TEST_CASE("colors: cluster colours are saturated and any of the first eight labels far apart", "[colors]") {
  // HSV(hue, 0.75, 0.92): the largest channel is 0.92 and the smallest 0.92 x 0.25 = 0.23 for every
  // hue. Hues step by the golden ratio, so the first 8 labels leave gaps of at least 0.09 turn
  // (three-gap theorem); across a 60-degree sector one channel moves by 0.69, so 0.09 turn (32
  // degrees) moves it by at least 0.69 x 32/60 = 0.37 (0.3 allows for the sector boundaries).
  for (std::uint64_t label = 0; label < 200; ++label) {
    const Rgb c = cluster_color(label);
    CHECK(std::max({c[0], c[1], c[2]}) == Approx(0.92f).margin(1e-5));
    CHECK(std::min({c[0], c[1], c[2]}) == Approx(0.23f).margin(1e-5));
  }
  for (std::uint64_t i = 0; i < 8; ++i)
    for (std::uint64_t j = i + 1; j < 8; ++j) {
      const Rgb a = cluster_color(i), b = cluster_color(j);
      INFO("labels " << i << " and " << j);
      CHECK(std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]) > 0.3f);
    }
  // Label 0 is hue 0: pure red at this saturation and value.
  check_rgb(cluster_color(0), {0.92f, 0.23f, 0.23f});
}

TEST_CASE("colors: an empty snapshot gives no colours and still a legend", "[colors]") {
  const Snapshot s;
  std::vector<float> rgb(9, 1.0f);
  const ColorScale legend = color_particles(s, ColorMode::FieldAlignment, rgb);
  CHECK(rgb.empty());
  CHECK_FALSE(legend.stops.empty());
  CHECK_FALSE(legend.title.empty());
}

// [SECTION] picking

TEST_CASE("pick: the nearest sphere along the ray wins, a miss gives nothing, spheres behind are ignored", "[pick]") {
  // Three spheres on the x axis; the ray starts at x = -10 and looks along +x.
  const Snapshot s = spheres({glm::vec3(-20.0f, 0, 0), glm::vec3(5.0f, 0, 0), glm::vec3(2.0f, 0.5f, 0)}, {1, 1, 1});
  Ray ray;
  ray.origin = glm::vec3(-10.0f, 0.0f, 0.0f);
  ray.direction = glm::vec3(1.0f, 0.0f, 0.0f);
  SECTION("nearest in front") {
    CHECK(pick_particle(s, ray) == std::optional<std::uint64_t>(102));
  }
  SECTION("the order in the snapshot does not matter") {
    Snapshot reversed = spheres({glm::vec3(2.0f, 0.5f, 0), glm::vec3(5.0f, 0, 0), glm::vec3(-20.0f, 0, 0)}, {1, 1, 1});
    CHECK(pick_particle(reversed, ray) == std::optional<std::uint64_t>(100));  // the one at x = 2
  }
  SECTION("a ray just outside a sphere misses it and hits the next") {
    ray.origin.y = 1.6f;  // 1.1 from the sphere at y = 0.5, 1.6 from the one at y = 0: misses both
    CHECK_FALSE(pick_particle(s, ray).has_value());
    ray.origin.y = 0.9f;  // 0.4 from the sphere at y = 0.5 (hit first), 0.9 from the one at x = 5
    CHECK(pick_particle(s, ray) == std::optional<std::uint64_t>(102));
    ray.origin.y = -0.9f;  // 1.4 from the sphere at y = 0.5: only the one at x = 5
    CHECK(pick_particle(s, ray) == std::optional<std::uint64_t>(101));
  }
  SECTION("looking the other way, the sphere behind the origin is the only one in front") {
    ray.direction = glm::vec3(-1.0f, 0.0f, 0.0f);
    CHECK(pick_particle(s, ray) == std::optional<std::uint64_t>(100));
    ray.origin = glm::vec3(-30.0f, 0.0f, 0.0f);  // now every sphere is behind
    CHECK_FALSE(pick_particle(s, ray).has_value());
  }
  SECTION("an unnormalised direction picks the same sphere") {
    ray.direction = glm::vec3(7.0f, 0.0f, 0.0f);
    CHECK(pick_particle(s, ray) == std::optional<std::uint64_t>(102));
  }
  SECTION("no particles: nothing") {
    CHECK_FALSE(pick_particle(Snapshot{}, ray).has_value());
  }
}

TEST_CASE("pick: a click through the camera on a sphere's projected centre selects it", "[pick]") {
  OrbitCamera camera = framed_camera();
  camera.set_angles(-70.0f, 22.0f);
  const Snapshot s =
      spheres({glm::vec3(-0.002f, 0, 0), glm::vec3(0.0f), glm::vec3(0.002f, 0, 0)}, {0.0007f, 0.0007f, 0.0007f});
  for (size_t i = 0; i < 3; ++i) {
    const glm::vec3 centre(s.particles.position[3 * i], 0.0f, 0.0f);
    const glm::vec3 pixel = camera.project(centre);
    CHECK(pick_particle(s, camera.ray_through(pixel.x, pixel.y)) == std::optional<std::uint64_t>(100 + i));
  }
  // A pixel in the empty corner of the free area picks nothing.
  CHECK_FALSE(pick_particle(s, camera.ray_through(990.0f, 10.0f)).has_value());
}

// [SECTION] honest colours, cluster palette, camera framing (issue 23)

TEST_CASE("colors: with no applied field the field modes show the moment direction, and the legend says so",
          "[colors]") {
  Snapshot s = spheres({glm::vec3(0.0f), glm::vec3(1.0f), glm::vec3(2.0f)}, {1, 1, 1});
  s.field = Vec3::Zero();
  s.particles.moment = {1e-3f, 0, 0, -1e-3f, 0, 0, 0, 0, 1e-3f};  // +x, -x, +z
  for (const ColorMode wanted : {ColorMode::FieldAlignment, ColorMode::MomentAlignment}) {
    std::vector<float> rgb;
    const ColorScale legend = color_particles(s, wanted, rgb);
    CHECK(honest_color_mode(s, wanted) == ColorMode::MomentDirection);
    CHECK_THAT(legend.title, Catch::StartsWith("no applied field"));
    CHECK_THAT(legend.title, Catch::Contains("moment direction"));
    CHECK(legend.title.find("vs field") == std::string::npos);  // not the field-alignment legend
    check_rgb(color_of(rgb, 0), direction_color(1, 0, 0));
    check_rgb(color_of(rgb, 1), direction_color(-1, 0, 0));
    check_rgb(color_of(rgb, 2), direction_color(0, 0, 1));
    CHECK(legend.ticks.size() == 5);
    CHECK_FALSE(legend.note.empty());
  }
  // Nothing carries a moment (a non-magnetic scene): speed instead.
  s.particles.moment.assign(9, 0.0f);
  CHECK(honest_color_mode(s, ColorMode::FieldAlignment) == ColorMode::Speed);
  // With a field the mode asked for stays.
  s.field = Vec3(0.0, 0.0, 1e-3);
  bool fell_back = true;
  CHECK(honest_color_mode(s, ColorMode::FieldAlignment, &fell_back) == ColorMode::FieldAlignment);
  CHECK_FALSE(fell_back);
}

TEST_CASE("colors: the direction wheel tells opposite directions apart, lighter up and darker down", "[colors]") {
  auto distance = [](const Rgb& a, const Rgb& b) {
    return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
  };
  CHECK(distance(direction_color(1, 0, 0), direction_color(-1, 0, 0)) > 0.6f);
  CHECK(distance(direction_color(0, 1, 0), direction_color(0, -1, 0)) > 0.6f);
  auto brightness = [](const Rgb& c) { return c[0] + c[1] + c[2]; };
  CHECK(brightness(direction_color(0.6f, 0, 0.8f)) > brightness(direction_color(1, 0, 0)) + 0.3f);
  CHECK(brightness(direction_color(0.6f, 0, -0.8f)) < brightness(direction_color(1, 0, 0)) - 0.3f);
  // Nearly straight up, tilted a little toward +x or -x: the same white, not two pale hues (their sideways parts,
  // 0.02, are a fiftieth of the wheel's); straight down a dark grey with equal channels.
  const float z = std::sqrt(1.0f - 0.02f * 0.02f);
  CHECK(distance(direction_color(0.02f, 0, z), direction_color(-0.02f, 0, z)) < 0.03f);
  const Rgb down = direction_color(0, 0, -1);
  CHECK(down[0] == Approx(down[1]));
  CHECK(down[1] == Approx(down[2]));
  CHECK(brightness(down) < 1.2f);
}

TEST_CASE("colors: neighbouring clusters never share a palette colour, and a cluster keeps its colour", "[colors]") {
  // Twelve clusters of two touching spheres in a row, each 1.5 diameters from the next: more clusters than
  // colours, but each has at most two neighbours.
  std::vector<glm::vec3> centres;
  for (int k = 0; k < 12; ++k) {
    centres.emplace_back(5.0f * static_cast<float>(k), 0.0f, 0.0f);
    centres.emplace_back(5.0f * static_cast<float>(k) + 2.0f, 0.0f, 0.0f);
  }
  Snapshot s = spheres(centres, std::vector<float>(24, 1.0f));
  for (size_t i = 0; i < 24; ++i) {
    s.particles.cluster[i] = 500 + i / 2 * 2;
    s.particles.cluster_size[i] = 2;
  }
  ClusterPalette palette;
  std::vector<float> rgb;
  CHECK(palette.assign(s.particles, rgb) == 0);
  auto same = [](const Rgb& a, const Rgb& b) { return a == b; };
  for (size_t k = 0; k + 1 < 12; ++k) {
    INFO("clusters " << k << " and " << k + 1);
    CHECK(same(color_of(rgb, 2 * k), color_of(rgb, 2 * k + 1)));            // one cluster, one colour
    CHECK_FALSE(same(color_of(rgb, 2 * k + 1), color_of(rgb, 2 * k + 2)));  // neighbours differ
  }
  // The palette's colours are far apart and none is the singles' grey.
  for (int a = 0; a < ClusterPalette::kSize; ++a) {
    const Rgb ca = ClusterPalette::color(a);
    CHECK(std::max({ca[0], ca[1], ca[2]}) - std::min({ca[0], ca[1], ca[2]}) > 0.35f);
    for (int b = a + 1; b < ClusterPalette::kSize; ++b) {
      const Rgb cb = ClusterPalette::color(b);
      INFO("palette " << a << " and " << b);
      CHECK(std::abs(ca[0] - cb[0]) + std::abs(ca[1] - cb[1]) + std::abs(ca[2] - cb[2]) > 0.35f);
    }
  }
  // The next frame, one cluster gone far away: the others keep their colours.
  const std::vector<float> before = rgb;
  s.particles.position[0] = s.particles.position[3] = 1000.0f;
  palette.assign(s.particles, rgb);
  for (size_t i = 4; i < 24; ++i) check_rgb(color_of(rgb, i), color_of(before, i));
}

TEST_CASE("camera: fit_spheres shows every sphere whole in the free area and fills it", "[camera]") {
  OrbitCamera camera;
  camera.set_viewport(1280, 800);
  camera.set_left_inset(380.0f);
  camera.set_scene_extent(0.05f);
  // An upright chain of ten 1 mm spheres, tilted 20 degrees, as in presets/chain-falls.json.
  std::vector<glm::vec4> chain;
  for (int k = 0; k < 10; ++k)
    chain.emplace_back(-1.539f + 0.342f * static_cast<float>(k), 0.0f, 25.77f + 0.9397f * static_cast<float>(k), 0.5f);
  for (glm::vec4& s : chain) s = glm::vec4(glm::vec3(s) * 1e-3f, s.w * 1e-3f);
  REQUIRE(camera.fit_spheres(chain));
  float top = 1e9f, bottom = -1e9f;
  for (const glm::vec4& s : chain) {
    const glm::vec3 p = camera.project(glm::vec3(s));
    const glm::vec3 edge = camera.project(glm::vec3(s) + glm::vec3(0.0f, 0.0f, s.w));
    const float r = glm::length(glm::vec2(edge - p));
    CHECK(p.x - r >= 380.0f);
    CHECK(p.x + r <= 1280.0f);
    CHECK(p.y - r >= 0.0f);
    CHECK(p.y + r <= 800.0f);
    top = std::min(top, p.y - r);
    bottom = std::max(bottom, p.y + r);
  }
  CHECK(bottom - top > 0.8f * 800.0f);  // the chain fills the height (less the 5 % margins), not a few pixels
  CHECK_FALSE(camera.fit_spheres({}));
}

TEST_CASE("camera: the wheel zooms toward the point under the cursor", "[camera]") {
  OrbitCamera camera;
  camera.set_viewport(1280, 800);
  camera.set_left_inset(380.0f);
  camera.frame_box(glm::vec3(-0.01f), glm::vec3(0.01f));
  // A point on the plane through the target facing the camera, under pixel (1000, 250).
  const Ray ray = camera.ray_through(1000.0f, 250.0f);
  const glm::vec3 forward = glm::normalize(camera.target() - camera.eye());
  const float t = glm::dot(camera.target() - ray.origin, forward) / glm::dot(ray.direction, forward);
  const glm::vec3 point = ray.origin + t * ray.direction;
  const float before = camera.distance();
  camera.zoom_toward(2.0f, 1000.0f, 250.0f);
  CHECK(camera.distance() == Approx(before * 0.85f * 0.85f));
  const glm::vec3 seen = camera.project(point);
  CHECK(seen.x == Approx(1000.0f).margin(0.5));
  CHECK(seen.y == Approx(250.0f).margin(0.5));
}
