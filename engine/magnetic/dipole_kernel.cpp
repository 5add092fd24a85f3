#include "engine/magnetic/dipole_kernel.hpp"

#include "engine/core/simd.hpp"
#include "engine/magnetic/dipole_block.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace lodestone {
namespace detail {

// Step 2 of the kernel: the pair formula of engine/magnetic/dipole.hpp for `count` partners of moment mi within
// the cutoff (separations already reduced to the minimum image), branch-free. Compiled for AVX-512, FMA (AVX) and the
// baseline, the version chosen when the program loads; all give the same bits: the multiply-adds fused where written
// (std::fma, one rounding each) and nowhere else, no reordered sums. Fused, the formula takes about 70 operations a
// pair instead of 104, and its chains from the square root to the outputs are shorter (docs/performance.md).
LODESTONE_FMA_CLONES void dipole_block(const double mi[3], DipoleBlock& b, int count, double cap) {
  const double inv_cap = cap > 0.0 ? 1.0 / cap : 0.0;
  const double mix = mi[0], miy = mi[1], miz = mi[2];
  // The padding (dipole_block.hpp): a loop of constant length, one vector store an array; then whole vectors only.
#pragma omp simd
  for (int k = count; k < count + kLanes; ++k) {
    b.dx[k] = b.dy[k] = b.dz[k] = 1.0;
    b.mx[k] = b.my[k] = b.mz[k] = 0.0;
  }
  const int padded = (count + kLanes - 1) / kLanes * kLanes;
#pragma omp simd
  for (int k = 0; k < padded; ++k) {
    const double dx = b.dx[k], dy = b.dy[k], dz = b.dz[k];
    const double r = std::sqrt(fused_dot(dx, dy, dz, dx, dy, dz));
    const double inv_r_true = 1.0 / r;
    const double nx = dx * inv_r_true, ny = dy * inv_r_true, nz = dz * inv_r_true;
    const double inv_r = r < cap ? inv_cap : inv_r_true;
    const double inv_r3 = mu0_over_4pi * inv_r * inv_r * inv_r;
    const double inv_r4 = 3.0 * inv_r3 * inv_r;
    const double mjx = b.mx[k], mjy = b.my[k], mjz = b.mz[k];
    const double mi_n = fused_dot(mix, miy, miz, nx, ny, nz);
    const double mj_n = fused_dot(mjx, mjy, mjz, nx, ny, nz);
    const double mi_mj = fused_dot(mix, miy, miz, mjx, mjy, mjz);
    const double radial = std::fma(-5.0 * mi_n, mj_n, mi_mj);  // mi.mj - 5 (mi.n)(mj.n)
    b.fx[k] = inv_r4 * std::fma(radial, nx, std::fma(mj_n, mix, mi_n * mjx));
    b.fy[k] = inv_r4 * std::fma(radial, ny, std::fma(mj_n, miy, mi_n * mjy));
    b.fz[k] = inv_r4 * std::fma(radial, nz, std::fma(mj_n, miz, mi_n * mjz));
    const double cx = fused_mul_sub(miy, mjz, miz, mjy), cy = fused_mul_sub(miz, mjx, mix, mjz),
                 cz = fused_mul_sub(mix, mjy, miy, mjx);  // mi x mj
    const double ax = fused_mul_sub(miy, nz, miz, ny), ay = fused_mul_sub(miz, nx, mix, nz),
                 az = fused_mul_sub(mix, ny, miy, nx);  // mi x n
    const double bx = fused_mul_sub(mjy, nz, mjz, ny), by = fused_mul_sub(mjz, nx, mjx, nz),
                 bz = fused_mul_sub(mjx, ny, mjy, nx);  // mj x n
    const double three_mj_n = 3.0 * mj_n, three_mi_n = 3.0 * mi_n;
    b.tix[k] = inv_r3 * std::fma(three_mj_n, ax, -cx);
    b.tiy[k] = inv_r3 * std::fma(three_mj_n, ay, -cy);
    b.tiz[k] = inv_r3 * std::fma(three_mj_n, az, -cz);
    b.tjx[k] = inv_r3 * std::fma(three_mi_n, bx, cx);
    b.tjy[k] = inv_r3 * std::fma(three_mi_n, by, cy);
    b.tjz[k] = inv_r3 * std::fma(three_mi_n, bz, cz);
    b.e[k] = -inv_r3 * std::fma(three_mi_n, mj_n, -mi_mj);
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

#if defined(__x86_64__)
// Step 1 four partners at a time, with AVX2, for the partners of particle i (at xi) from pairs[k] on, as long as
// four more before `last` (at most kBlock after the first) are all partners of i; k ends at the first not taken. The
// same subtractions, minimum images and cutoff test as gather_partner, lane by lane, so the block holds the same bits;
// the partners within the cutoff are then moved together (a permutation looked up by the four lanes' verdicts) and
// stored at once. One partner at a time took some 40 instructions, most of them moving single numbers; this takes about
// 16 a partner. Returns how many were kept.
struct Compaction {
  // For each set of kept lanes (bit l: lane l), the 32-bit elements that bring them to the front: for doubles
  // (2l, 2l + 1), for the j of four interleaved (i, j) pairs 2l + 1.
  // The slots after the kept lanes take element 0 (whatever lands there is overwritten or never read).
  alignas(32) std::int32_t doubles[16][8] = {};
  alignas(32) std::int32_t js[16][8] = {};
  Compaction() {
    for (int mask = 0; mask < 16; ++mask)
      for (int lane = 0, slot = 0; lane < 4; ++lane)
        if ((mask >> lane) & 1) {
          doubles[mask][2 * slot] = 2 * lane;
          doubles[mask][2 * slot + 1] = 2 * lane + 1;
          js[mask][slot++] = 2 * lane + 1;
        }
  }
};
const Compaction kCompaction;

// Four Vec3 (x, y, z packed) at base + 3 j[l], as x, y and z across the lanes (no read past the last z).
[[gnu::target("avx2")]] inline void load_four(const double* base, const int j[4], __m256d& x, __m256d& y, __m256d& z) {
  const double* a0 = base + 3 * static_cast<std::ptrdiff_t>(j[0]);
  const double* a1 = base + 3 * static_cast<std::ptrdiff_t>(j[1]);
  const double* a2 = base + 3 * static_cast<std::ptrdiff_t>(j[2]);
  const double* a3 = base + 3 * static_cast<std::ptrdiff_t>(j[3]);
  const __m256d xy02 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(a0)), _mm_loadu_pd(a2), 1);
  const __m256d xy13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(a1)), _mm_loadu_pd(a3), 1);
  x = _mm256_unpacklo_pd(xy02, xy13);
  y = _mm256_unpackhi_pd(xy02, xy13);
  const __m128d z01 = _mm_loadh_pd(_mm_load_sd(a0 + 2), a1 + 2);
  const __m128d z23 = _mm_loadh_pd(_mm_load_sd(a2 + 2), a3 + 2);
  z = _mm256_insertf128_pd(_mm256_castpd128_pd256(z01), z23, 1);
}

// d - L round(d / L) as gather_partner computes it: (t + 1.5 2^52) - 1.5 2^52 rounds t to an integer.
[[gnu::target("avx2")]] inline __m256d minimum_image_lanes(__m256d d, double length, double inverse) {
  const __m256d shift = _mm256_set1_pd(6755399441055744.0);
  const __m256d rounded = _mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(d, _mm256_set1_pd(inverse)), shift), shift);
  return _mm256_sub_pd(d, _mm256_mul_pd(_mm256_set1_pd(length), rounded));
}

[[gnu::target("avx2")]] inline void store_kept(double* out, __m256d v, __m256i permutation) {
  _mm256_storeu_pd(out, _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(v), permutation)));
}

template <int ImageAxes>
[[gnu::target("avx2")]] int gather_four_at_a_time(detail::DipoleBlock& b, const IndexPair* pairs, size_t& k,
                                                  size_t last, int i, const double xi[3], const Vec3* position,
                                                  const Vec3* moment, const Images& im, double cutoff_sq) {
  static_assert(sizeof(IndexPair) == 2 * sizeof(std::int32_t) && sizeof(Vec3) == 3 * sizeof(double));
  const __m256d xi_x = _mm256_set1_pd(xi[0]), xi_y = _mm256_set1_pd(xi[1]), xi_z = _mm256_set1_pd(xi[2]);
  const __m256d limit = _mm256_set1_pd(cutoff_sq), zero = _mm256_setzero_pd();
  const __m256i first_of_pair = _mm256_set1_epi32(i);
  int kept = 0;
  for (; k + 4 <= last; k += 4) {
    // Four more partners of i, or stop (the pairs' first members are their even 32-bit elements).
    const __m256i four_pairs = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pairs + k));
    const int same_i = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(four_pairs, first_of_pair)));
    if ((same_i & 0x55) != 0x55) break;
    const int j[4] = {pairs[k].j, pairs[k + 1].j, pairs[k + 2].j, pairs[k + 3].j};
    __m256d x, y, z, mx, my, mz;
    load_four(position->data(), j, x, y, z);
    __m256d dx = _mm256_sub_pd(xi_x, x), dy = _mm256_sub_pd(xi_y, y), dz = _mm256_sub_pd(xi_z, z);
    if constexpr ((ImageAxes & 1) != 0) dx = minimum_image_lanes(dx, im.length[0], im.inverse[0]);
    if constexpr ((ImageAxes & 2) != 0) dy = minimum_image_lanes(dy, im.length[1], im.inverse[1]);
    if constexpr ((ImageAxes & 4) != 0) dz = minimum_image_lanes(dz, im.length[2], im.inverse[2]);
    const __m256d rsq =
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), _mm256_mul_pd(dz, dz));
    const __m256d inside = _mm256_and_pd(_mm256_cmp_pd(rsq, limit, _CMP_LE_OQ), _mm256_cmp_pd(rsq, zero, _CMP_GT_OQ));
    const int mask = _mm256_movemask_pd(inside);
    load_four(moment->data(), j, mx, my, mz);
    const __m256i permutation = _mm256_load_si256(reinterpret_cast<const __m256i*>(kCompaction.doubles[mask]));
    store_kept(b.dx + kept, dx, permutation);
    store_kept(b.dy + kept, dy, permutation);
    store_kept(b.dz + kept, dz, permutation);
    store_kept(b.mx + kept, mx, permutation);
    store_kept(b.my + kept, my, permutation);
    store_kept(b.mz + kept, mz, permutation);
    const __m256i js = _mm256_permutevar8x32_epi32(
        four_pairs, _mm256_load_si256(reinterpret_cast<const __m256i*>(kCompaction.js[mask])));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(b.j + kept), _mm256_castsi256_si128(js));
    kept += __builtin_popcount(static_cast<unsigned>(mask));
  }
  return kept;
}

// __builtin_cpu_init first: this initialiser may run before the one that fills in what the processor supports.
const bool kHaveAvx2 = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
#endif

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
#if defined(__x86_64__)
      if (in.four_at_a_time && kHaveAvx2)
        kept = gather_four_at_a_time<axes()>(b, in.pairs, k, last, i, xi, in.position, in.moment, im, cutoff_sq);
#endif
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
