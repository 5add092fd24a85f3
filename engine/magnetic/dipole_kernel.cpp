#include "engine/magnetic/dipole_kernel.hpp"

#include "engine/core/simd.hpp"
#include "engine/magnetic/dipole_block.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace lodestone {
namespace detail {

// Step 2 of the kernel: the pair formula of engine/magnetic/dipole.hpp for `count` partners of moment mi within
// the cutoff (separations already reduced to the minimum image), branch-free. Compiled for AVX-512, AVX2
// and the baseline (SSE2), the version chosen when the program loads; all give the same bits (no fused
// multiply-add, every operation rounded once, no reordered sums).
LODESTONE_SIMD_CLONES void dipole_block(const double mi[3], DipoleBlock& b, int count, double cap) {
  const double inv_cap = cap > 0.0 ? 1.0 / cap : 0.0;
  const double mix = mi[0], miy = mi[1], miz = mi[2];
#pragma omp simd
  for (int k = 0; k < count; ++k) {
    const double dx = b.dx[k], dy = b.dy[k], dz = b.dz[k];
    const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
    const double inv_r_true = 1.0 / r;
    const double nx = dx * inv_r_true, ny = dy * inv_r_true, nz = dz * inv_r_true;
    const double inv_r = r < cap ? inv_cap : inv_r_true;
    const double inv_r3 = mu0_over_4pi * inv_r * inv_r * inv_r;
    const double inv_r4 = 3.0 * inv_r3 * inv_r;
    const double mjx = b.mx[k], mjy = b.my[k], mjz = b.mz[k];
    const double mi_n = mix * nx + miy * ny + miz * nz;
    const double mj_n = mjx * nx + mjy * ny + mjz * nz;
    const double mi_mj = mix * mjx + miy * mjy + miz * mjz;
    const double radial = mi_mj - 5.0 * mi_n * mj_n;
    b.fx[k] = inv_r4 * (radial * nx + mj_n * mix + mi_n * mjx);
    b.fy[k] = inv_r4 * (radial * ny + mj_n * miy + mi_n * mjy);
    b.fz[k] = inv_r4 * (radial * nz + mj_n * miz + mi_n * mjz);
    const double cx = miy * mjz - miz * mjy, cy = miz * mjx - mix * mjz, cz = mix * mjy - miy * mjx;  // mi x mj
    const double ax = miy * nz - miz * ny, ay = miz * nx - mix * nz, az = mix * ny - miy * nx;        // mi x n
    const double bx = mjy * nz - mjz * ny, by = mjz * nx - mjx * nz, bz = mjx * ny - mjy * nx;        // mj x n
    b.tix[k] = inv_r3 * (3.0 * mj_n * ax - cx);
    b.tiy[k] = inv_r3 * (3.0 * mj_n * ay - cy);
    b.tiz[k] = inv_r3 * (3.0 * mj_n * az - cz);
    b.tjx[k] = inv_r3 * (3.0 * mi_n * bx + cx);
    b.tjy[k] = inv_r3 * (3.0 * mi_n * by + cy);
    b.tjz[k] = inv_r3 * (3.0 * mi_n * bz + cz);
    b.e[k] = -inv_r3 * (3.0 * mi_n * mj_n - mi_mj);
  }
}

}  // namespace detail

namespace {

// The box lengths of the minimum image (0: open axis) and their inverses, and on each axis the band inside the box of
// the particles whose partners within the cutoff need no image along it.
struct Images {
  double length[3], inverse[3];
  double inner_min[3], inner_max[3];
  explicit Images(const DipoleKernelInput& in) {
    // A little more than the cutoff, so that rounding in a separation cannot bring an image inside it.
    const double margin = in.cutoff * (1.0 + 1e-9);
    for (int a = 0; a < 3; ++a) {
      length[a] = in.periodic_length[a];
      inverse[a] = length[a] > 0.0 ? 1.0 / length[a] : 0.0;
      const bool periodic = length[a] > 0.0;
      inner_min[a] = !periodic ? -INFINITY : in.positions_in_box ? in.box_min[a] + margin : INFINITY;
      inner_max[a] = !periodic ? INFINITY : in.positions_in_box ? in.box_min[a] + length[a] - margin : -INFINITY;
    }
  }
  // The axes (bit a) along which the partners of a particle at x need the minimum image: the periodic axes where x
  // lies within the cutoff of a face. Along the others a partner within the cutoff is its own nearest image (an
  // image within the cutoff of x lies inside the box, where only the partner's position is), and the minimum image
  // would leave its separation unchanged to the bit (round(d / L) = 0): skipping it changes nothing.
  int axes_to_image(const double x[3]) const {
    return static_cast<int>(!((x[0] > inner_min[0]) & (x[0] < inner_max[0]))) |
           static_cast<int>(!((x[1] > inner_min[1]) & (x[1] < inner_max[1]))) << 1 |
           static_cast<int>(!((x[2] > inner_min[2]) & (x[2] < inner_max[2]))) << 2;
  }
  int periodic_axes() const {
    return static_cast<int>(length[0] > 0.0) | static_cast<int>(length[1] > 0.0) << 1 |
           static_cast<int>(length[2] > 0.0) << 2;
  }
};

// Step 1 for one partner j of the particle at xi: its separation (minimum image along the axes in ImageAxes) and
// moment go into slot `count` of the block; returns 1 when it lies within the cutoff (the slot is kept), 0
// otherwise (the next partner overwrites it). No branch: a fifth of a Verlet list lies in the skin, at random.
template <int ImageAxes>
inline int gather_partner(detail::DipoleBlock& b, int count, int j, const double xi[3], const Vec3* position,
                          const Vec3* moment, const Images& im, double cutoff_sq) {
  const double* xj = position[j].data();
  const double* mj = moment[j].data();
  // Written out per axis (not a loop over a): at -O2 g++ kept the loop, with d[] on the stack.
  double dx = xi[0] - xj[0], dy = xi[1] - xj[1], dz = xi[2] - xj[2];
  if constexpr ((ImageAxes & 1) != 0) dx -= im.length[0] * round_to_integer(dx * im.inverse[0]);
  if constexpr ((ImageAxes & 2) != 0) dy -= im.length[1] * round_to_integer(dy * im.inverse[1]);
  if constexpr ((ImageAxes & 4) != 0) dz -= im.length[2] * round_to_integer(dz * im.inverse[2]);
  const double rsq = dx * dx + dy * dy + dz * dz;
  b.j[count] = j;
  b.dx[count] = dx;
  b.dy[count] = dy;
  b.dz[count] = dz;
  b.mx[count] = mj[0];
  b.my[count] = mj[1];
  b.mz[count] = mj[2];
  return static_cast<int>((rsq <= cutoff_sq) & (rsq > 0.0));
}

// Calls step(std::integral_constant<int, A>) for A = image_axes, so that each set of image axes gets its own loop.
template <class Step>
int with_image_axes(int image_axes, Step step) {
  switch (image_axes) {
    case 0: return step(std::integral_constant<int, 0>{});
    case 1: return step(std::integral_constant<int, 1>{});
    case 2: return step(std::integral_constant<int, 2>{});
    case 3: return step(std::integral_constant<int, 3>{});
    case 4: return step(std::integral_constant<int, 4>{});
    case 5: return step(std::integral_constant<int, 5>{});
    case 6: return step(std::integral_constant<int, 6>{});
    default: return step(std::integral_constant<int, 7>{});
  }
}

// Steps 2 and 3 for the `count` partners of i gathered in the block: the pair formula, then the sums in
// partner order, to i and to each j, and to the running energy (one sum over all pairs, in order).
void pairs_of_block(detail::DipoleBlock& b, int count, int i, const Vec3* moment, double cap, Vec3* force, Vec3* torque,
                    double& energy) {
  const double mi[3] = {moment[i].x(), moment[i].y(), moment[i].z()};
  detail::dipole_block(mi, b, count, cap);
  Vec3 fi = Vec3::Zero(), ti = Vec3::Zero();
  // The running energy in a register: through the reference, which may alias the force arrays for all the compiler
  // knows, every pair loaded and stored it, a chain of store-to-load forwarding through the whole loop.
  double e = energy;
  for (int c = 0; c < count; ++c) {
    const auto j = static_cast<size_t>(b.j[c]);
    const Vec3 f(b.fx[c], b.fy[c], b.fz[c]);
    fi += f;
    force[j] -= f;
    ti += Vec3(b.tix[c], b.tiy[c], b.tiz[c]);
    torque[j] += Vec3(b.tjx[c], b.tjy[c], b.tjz[c]);
    e += b.e[c];
  }
  energy = e;
  force[i] += fi;
  torque[i] += ti;
}

}  // namespace

LODESTONE_SIMD_CLONES bool positions_in_periodic_box(const Vec3* position, size_t n, const Vec3& box_min,
                                                     const Vec3& periodic_length) {
  // Bounds of +-infinity on open axes; every coordinate tested, without a branch, so that the loop vectorises (a
  // NaN coordinate counts as outside).
  double lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    const bool periodic = periodic_length[a] > 0.0;
    lo[a] = periodic ? box_min[a] : -INFINITY;
    hi[a] = periodic ? box_min[a] + periodic_length[a] : INFINITY;
  }
  const double lo0 = lo[0], lo1 = lo[1], lo2 = lo[2], hi0 = hi[0], hi1 = hi[1], hi2 = hi[2];
  static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 is three packed doubles");
  const double* x = position->data();
  unsigned outside = 0;
#pragma omp simd reduction(| : outside)
  for (size_t i = 0; i < n; ++i) {
    const double cx = x[3 * i], cy = x[3 * i + 1], cz = x[3 * i + 2];
    outside |= static_cast<unsigned>(!(cx >= lo0)) | static_cast<unsigned>(!(cx < hi0)) |
               static_cast<unsigned>(!(cy >= lo1)) | static_cast<unsigned>(!(cy < hi1)) |
               static_cast<unsigned>(!(cz >= lo2)) | static_cast<unsigned>(!(cz < hi2));
  }
  return outside == 0;
}

double dipole_cutoff_kernel(const DipoleKernelInput& in, size_t begin, size_t end, Vec3* force, Vec3* torque) {
  detail::DipoleBlock b;  // 8 KiB of scratch on the stack: no allocation, nothing shared between threads
  const double cutoff_sq = in.cutoff * in.cutoff;
  const Images im(in);
  double energy = 0.0;
  size_t k = begin;
  while (k < end) {
    // The partners of i that follow in the list (at most one block).
    const int i = in.pairs[k].i;
    const double xi[3] = {in.position[i].x(), in.position[i].y(), in.position[i].z()};
    const size_t last = std::min(end, k + static_cast<size_t>(detail::kBlock));
    const int count = with_image_axes(im.axes_to_image(xi), [&](auto axes) {
      int kept = 0;
      for (; k < last && in.pairs[k].i == i; ++k)
        kept += gather_partner<axes()>(b, kept, in.pairs[k].j, xi, in.position, in.moment, im, cutoff_sq);
      return kept;
    });
    pairs_of_block(b, count, i, in.moment, in.cap, force, torque, energy);
  }
  return energy;
}

double dipole_all_pairs_kernel(const DipoleKernelInput& in, size_t n, size_t i_begin, size_t i_end, Vec3* force,
                               Vec3* torque) {
  detail::DipoleBlock b;
  const Images im(in);
  const int periodic_axes = im.periodic_axes();
  double energy = 0.0;
  for (size_t i = i_begin; i < i_end; ++i) {
    const double xi[3] = {in.position[i].x(), in.position[i].y(), in.position[i].z()};
    // The partners j > i in index order, a block at a time (read one after the other: no list to load).
    for (size_t j0 = i + 1; j0 < n; j0 += detail::kBlock) {
      const size_t j1 = std::min(n, j0 + static_cast<size_t>(detail::kBlock));
      const int count = with_image_axes(periodic_axes, [&](auto axes) {
        int kept = 0;
        for (size_t j = j0; j < j1; ++j)
          kept += gather_partner<axes()>(b, kept, static_cast<int>(j), xi, in.position, in.moment, im, INFINITY);
        return kept;
      });
      pairs_of_block(b, count, static_cast<int>(i), in.moment, in.cap, force, torque, energy);
    }
  }
  return energy;
}

}  // namespace lodestone
