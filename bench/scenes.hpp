#pragma once
// The benches' random scenes of magnetized spheres (bench/p3m.cpp, bench/p3m_anchor.cpp, bench/dipole_tree.cpp).

#include "engine/core/math.hpp"
#include "engine/core/random.hpp"
#include "engine/core/state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace lodestone::bench {

// Random sequential addition in the cube [0, side)^3: sphere i (radius radii[i]) is placed at uniform random points
// drawn from rng until it overlaps none placed before, the cube periodic (minimum image) or not. A grid of cells at
// least max_diameter wide finds the spheres near a trial point. Moments 8e5 A/m x V in uniformly random directions
// (moment_body the same: the bodies start unrotated).
inline Particles random_sequential_addition(const std::vector<double>& radii, double side, double max_diameter,
                                            bool periodic, Random& rng) {
  const size_t n = radii.size();
  const long cells = std::max(1L, static_cast<long>(side / max_diameter));
  const double cell = side / static_cast<double>(cells);
  std::vector<std::vector<size_t>> grid(static_cast<size_t>(cells * cells * cells));
  auto cell_of = [&](double x) { return std::min(cells - 1, static_cast<long>(x / cell)); };
  auto wrap = [&](long c) { return ((c % cells) + cells) % cells; };
  Particles p;
  p.resize(n);
  for (size_t i = 0; i < n; ++i) {
    for (;;) {
      const Vec3 x(rng.uniform(0, side), rng.uniform(0, side), rng.uniform(0, side));
      const long cx = cell_of(x.x()), cy = cell_of(x.y()), cz = cell_of(x.z());
      bool free = true;
      // The 3 x 3 x 3 cells around the trial point (fewer at an open cube's faces; with fewer than 3 cells a side a
      // periodic cube's cells are met more than once, which changes nothing).
      for (long a = cx - 1; a <= cx + 1 && free; ++a)
        for (long b = cy - 1; b <= cy + 1 && free; ++b)
          for (long c = cz - 1; c <= cz + 1 && free; ++c) {
            if (!periodic && (a < 0 || b < 0 || c < 0 || a >= cells || b >= cells || c >= cells)) continue;
            for (size_t j : grid[static_cast<size_t>((wrap(a) * cells + wrap(b)) * cells + wrap(c))]) {
              Vec3 d = x - p.position[j];
              if (periodic)
                for (int k = 0; k < 3; ++k) d[k] -= side * std::round(d[k] / side);
              const double contact = radii[i] + p.radius[j];
              if (d.squaredNorm() < contact * contact) free = false;
            }
          }
      if (!free) continue;
      p.position[i] = x;
      p.radius[i] = radii[i];
      p.moment[i] = 8e5 * sphere_volume(radii[i]) * (rng.orientation() * Vec3::UnitZ());
      p.moment_body[i] = p.moment[i];
      grid[static_cast<size_t>((cx * cells + cy) * cells + cz)].push_back(i);
      break;
    }
  }
  return p;
}

// Equal spheres of radius `radius` on a face-centred cubic lattice of k x k x k cubic cells (4 k^3 spheres) at volume
// fraction phi in a periodic cube, each moved by a random offset of up to `jitter` of the free gap per axis so that
// no two overlap, with moments 8e5 A/m x V in random directions: dense packings (phi above 0.38), which random
// sequential addition cannot reach. Returns the cube's side through `side`.
inline Particles jittered_fcc(int k, double radius, double phi, double jitter, Random& rng, double& side) {
  const double diameter = 2.0 * radius;
  const double cell = std::cbrt(4.0 * sphere_volume(radius) / phi);  // 4 spheres per cubic cell
  side = cell * k;
  // Largest offset per axis that keeps nearest neighbours (cell / sqrt 2 apart) from touching: each may move by
  // (gap / 2) / sqrt 3 along its diagonal at worst.
  const double gap = cell / std::sqrt(2.0) - diameter;
  const double reach = jitter * 0.5 * gap / std::sqrt(3.0);
  const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  Particles p;
  p.resize(static_cast<size_t>(4) * k * k * k);
  size_t i = 0;
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b)
      for (int c = 0; c < k; ++c)
        for (const auto& o : basis) {
          const Vec3 jitter_offset(rng.uniform(-reach, reach), rng.uniform(-reach, reach), rng.uniform(-reach, reach));
          p.position[i] = (Vec3(a + o[0] + 0.25, b + o[1] + 0.25, c + o[2] + 0.25) * cell) + jitter_offset;
          p.radius[i] = radius;
          p.moment[i] = 8e5 * sphere_volume(radius) * (rng.orientation() * Vec3::UnitZ());
          p.moment_body[i] = p.moment[i];
          ++i;
        }
  return p;
}

// About n spheres of diameter `diameter` in a periodic cube at volume fraction phi: random sequential addition up to
// phi 0.35 (it jams near 0.38), a jittered face-centred cubic lattice above (n rounded to the nearest 4 k^3). Returns
// the cube's side through `side`.
inline Particles periodic_scene(size_t n, double phi, double diameter, std::uint64_t seed, double& side) {
  Random rng(seed);
  if (phi <= 0.35) {
    side = std::cbrt(static_cast<double>(n) * sphere_volume(0.5 * diameter) / phi);
    return random_sequential_addition(std::vector<double>(n, 0.5 * diameter), side, diameter, true, rng);
  }
  const int k = std::max(1, static_cast<int>(std::lround(std::cbrt(static_cast<double>(n) / 4.0))));
  return jittered_fcc(k, 0.5 * diameter, phi, 0.9, rng, side);
}

}  // namespace lodestone::bench
