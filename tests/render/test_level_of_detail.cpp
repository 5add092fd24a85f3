// Level of detail and occlusion culling for big scenes (render/level_of_detail.hpp, render/occlusion.hpp):
// the decisions against projections computed by hand and by the camera, and the occlusion grid against a
// brute-force check that nothing it hides could be seen.
#include "render/camera.hpp"
#include "render/level_of_detail.hpp"
#include "render/occlusion.hpp"

#include <catch2/catch.hpp>
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

// [SECTION] occlusion

TEST_CASE("occlusion: a disc hides what lies wholly behind it, not what is in front or sticks out", "[occlusion]") {
  OcclusionGrid grid;
  grid.reset(200, 100);
  CHECK_FALSE(grid.hidden(40.0f, 40.0f, 60.0f, 60.0f, 5.0f));  // nothing drawn yet
  grid.add_occluder(50.0f, 50.0f, 30.0f, 10.0f);               // disc from 20 to 80, no farther than depth 10
  // The square inscribed in the disc (half side 30 / sqrt 2 = 21.2) less the 4-pixel tiles' rounding: 32..64.
  CHECK(grid.hidden(33.0f, 33.0f, 63.0f, 63.0f, 10.5f));
  CHECK_FALSE(grid.hidden(33.0f, 33.0f, 63.0f, 63.0f, 9.5f));     // its nearest point is in front of the disc
  CHECK_FALSE(grid.hidden(15.0f, 45.0f, 30.0f, 55.0f, 50.0f));    // sticks out to the left of the disc (x < 20)
  CHECK_FALSE(grid.hidden(120.0f, 40.0f, 130.0f, 50.0f, 50.0f));  // elsewhere on screen
}

TEST_CASE("occlusion: the union of two discs hides what neither hides alone, the nearer depth counts", "[occlusion]") {
  OcclusionGrid grid;
  grid.reset(200, 100);
  // Two discs of radius 20 side by side at x = 40 and 70, overlapping between 50 and 60; depths 10 and 20.
  grid.add_occluder(40.0f, 50.0f, 20.0f, 10.0f);
  grid.add_occluder(70.0f, 50.0f, 20.0f, 20.0f);
  const float x0 = 40.0f, x1 = 70.0f, y0 = 46.0f, y1 = 54.0f;  // a band from one centre to the other
  CHECK(grid.hidden(x0, y0, x1, y1, 20.5f));
  CHECK_FALSE(grid.hidden(x0, y0, x1, y1, 15.0f));  // behind the first disc but in front of the second
  // A second disc behind the first does not make its cells farther: still hidden at 10.5 where only the first is.
  grid.add_occluder(40.0f, 50.0f, 20.0f, 30.0f);
  CHECK(grid.hidden(32.0f, 46.0f, 47.0f, 54.0f, 10.5f));
}

TEST_CASE("occlusion: off screen is hidden, the part on screen must be covered", "[occlusion]") {
  OcclusionGrid grid;
  grid.reset(101, 61);  // not a whole number of tiles: the cells past the edge show nothing
  CHECK(grid.hidden(120.0f, 10.0f, 130.0f, 20.0f, 1.0f));       // right of the screen
  CHECK(grid.hidden(-30.0f, -20.0f, -1.0f, -5.0f, 1.0f));       // above and left
  CHECK_FALSE(grid.hidden(95.0f, 10.0f, 130.0f, 20.0f, 1.0f));  // partly on screen, nothing drawn there
  grid.add_occluder(100.0f, 15.0f, 20.0f, 2.0f);                // a disc over the right edge
  CHECK(grid.hidden(95.0f, 10.0f, 130.0f, 20.0f, 3.0f));
}

TEST_CASE("occlusion: a disc too small to cover a whole pixel hides nothing", "[occlusion]") {
  OcclusionGrid grid;
  grid.reset(50, 50);
  grid.add_occluder(10.5f, 10.5f, 0.7f, 1.0f);  // the pixel [10, 11]^2 has corners 0.707 from the centre
  CHECK_FALSE(grid.hidden(10.2f, 10.2f, 10.8f, 10.8f, 5.0f));
}

TEST_CASE("occlusion: never hides a point that no nearer disc covers (random discs, brute force)", "[occlusion]") {
  std::mt19937 rng(26);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  struct Disc {
    float x, y, radius, depth;
  };
  for (int trial = 0; trial < 20; ++trial) {
    const int width = 60 + static_cast<int>(100 * u(rng)), height = 40 + static_cast<int>(80 * u(rng));
    OcclusionGrid grid;
    grid.reset(width, height);
    std::vector<Disc> discs;
    for (int k = 0; k < 300; ++k) {
      const Disc disc{width * u(rng), height * u(rng), 2.0f + 10.0f * u(rng), 1.0f + 9.0f * u(rng)};
      grid.add_occluder(disc.x, disc.y, disc.radius, disc.depth);
      discs.push_back(disc);
    }
    int hidden = 0, uncovered = 0;
    for (int q = 0; q < 400; ++q) {
      const float x0 = -10.0f + (width + 10.0f) * u(rng), y0 = -10.0f + (height + 10.0f) * u(rng);
      const float x1 = x0 + 12.0f * u(rng), y1 = y0 + 12.0f * u(rng), near = 1.0f + 12.0f * u(rng);
      if (!grid.hidden(x0, y0, x1, y1, near)) continue;
      ++hidden;
      // Every on-screen point of the rectangle (sampled every 0.25 px) is inside a disc nearer than `near`.
      for (float y = std::max(y0, 0.0f); y <= std::min(y1, static_cast<float>(height)); y += 0.25f)
        for (float x = std::max(x0, 0.0f); x <= std::min(x1, static_cast<float>(width)); x += 0.25f) {
          bool covered = false;
          for (const Disc& d : discs)
            covered =
                covered || ((x - d.x) * (x - d.x) + (y - d.y) * (y - d.y) <= d.radius * d.radius && d.depth < near);
          uncovered += !covered;
        }
    }
    INFO("trial " << trial << ": " << hidden << " rectangles hidden");
    CHECK(uncovered == 0);
    CHECK(hidden > 0);  // the check has something to check
  }
}
