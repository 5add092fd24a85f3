// Level of detail and occlusion culling for big scenes (render/level_of_detail.hpp, render/occlusion.hpp):
// the decisions against projections computed by hand and by the camera, and the occlusion grid against a
// brute-force check that nothing it hides could be seen.
#include <catch2/catch.hpp>

#include "render/camera.hpp"
#include "render/level_of_detail.hpp"
#include "render/occlusion.hpp"

#include <glm/glm.hpp>

#include <cmath>
#include <random>
#include <vector>

using namespace lodestone::render;

namespace {

// Pixels per metre at unit depth of an 800-pixel-high view with the camera's 35 degree field of view:
// 400 / tan(17.5 deg) = 400 / 0.3152988 = 1268.64.
constexpr float kPixelsPerUnit = 1268.64f;

}  // namespace

// [SECTION] level of detail

TEST_CASE("lod: projected size is size times pixels per unit over depth, matching the camera", "[lod]") {
  const float ppu = 400.0f / std::tan(glm::radians(0.5f * OrbitCamera::kFieldOfView));
  CHECK(ppu == Approx(kPixelsPerUnit).epsilon(1e-5));
  // A sphere of radius 0.5 m at 100 m: 0.5 * 1268.64 / 100 = 6.343 px.
  CHECK(projected_pixels(0.5f, 100.0f, ppu) == Approx(6.3432f).epsilon(1e-4));
  // The camera agrees: a point 0.5 m to the side of the target, seen from 100 m, lands 6.34 px from it.
  OrbitCamera camera;
  camera.set_viewport(1280, 800);
  camera.set_scene_extent(200.0f);
  camera.set_angles(-90.0f, 0.0f);  // looking along +y: +x is to the right on the screen
  camera.set_distance(100.0f);
  const glm::vec3 centre = camera.project(glm::vec3(0.0f)), side = camera.project(glm::vec3(0.5f, 0.0f, 0.0f));
  CHECK(side.x - centre.x == Approx(projected_pixels(0.5f, 100.0f, ppu)).epsilon(1e-3));
  CHECK(std::isinf(projected_pixels(0.5f, 0.0f, ppu)));   // at the eye
  CHECK(std::isinf(projected_pixels(0.5f, -3.0f, ppu)));  // behind it
}

TEST_CASE("lod: spheres under 8 px in radius are points, larger ones ray-cast", "[lod]") {
  // Radius 0.5 m: 6.34 px at 100 m, 12.69 px at 50 m; 8 px exactly at 0.5 * 1268.64 / 8 = 79.29 m.
  CHECK(sphere_detail(projected_pixels(0.5f, 100.0f, kPixelsPerUnit)) == SphereDetail::Point);
  CHECK(sphere_detail(projected_pixels(0.5f, 50.0f, kPixelsPerUnit)) == SphereDetail::RayCast);
  CHECK(sphere_detail(projected_pixels(0.5f, 79.0f, kPixelsPerUnit)) == SphereDetail::RayCast);
  CHECK(sphere_detail(projected_pixels(0.5f, 79.6f, kPixelsPerUnit)) == SphereDetail::Point);
  CHECK(sphere_detail(projected_pixels(0.5f, -1.0f, kPixelsPerUnit)) == SphereDetail::RayCast);  // behind the eye
}

TEST_CASE("lod: arrows get the cone from 40 px, are flat from 3 px and left out below", "[lod]") {
  // A 2 m arrow (radius 0.5 m, half length 2 radii): 25.37 px at 100 m, 50.7 px at 50 m, 2.54 px at 1000 m.
  CHECK(arrow_detail(projected_pixels(2.0f, 100.0f, kPixelsPerUnit)) == ArrowDetail::Flat);
  CHECK(arrow_detail(projected_pixels(2.0f, 50.0f, kPixelsPerUnit)) == ArrowDetail::Cone);
  CHECK(arrow_detail(projected_pixels(2.0f, 1000.0f, kPixelsPerUnit)) == ArrowDetail::Hidden);
  // The thresholds: 40 px at 2 * 1268.64 / 40 = 63.43 m, 3 px at 845.8 m.
  CHECK(arrow_detail(projected_pixels(2.0f, 63.0f, kPixelsPerUnit)) == ArrowDetail::Cone);
  CHECK(arrow_detail(projected_pixels(2.0f, 64.0f, kPixelsPerUnit)) == ArrowDetail::Flat);
  CHECK(arrow_detail(projected_pixels(2.0f, 845.0f, kPixelsPerUnit)) == ArrowDetail::Flat);
  CHECK(arrow_detail(projected_pixels(2.0f, 847.0f, kPixelsPerUnit)) == ArrowDetail::Hidden);
  CHECK(arrow_detail(projected_pixels(2.0f, 0.0f, kPixelsPerUnit)) == ArrowDetail::Cone);
}
