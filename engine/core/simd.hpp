#pragma once
// LODESTONE_SIMD_CLONES before a function compiles it for AVX-512, AVX2 and the baseline x86-64 (SSE2);
// the loader picks the best the machine has (GCC target_clones, an ifunc). Only for functions whose
// versions give the same bits: no fused multiply-add (not enabled by these targets), no reordered sums.
//
// Sanitizer builds compile the baseline only: an ifunc resolver runs while the program is being
// relocated, before the sanitizer's runtime starts, and an instrumented resolver crashes there.
//
// LODESTONE_FMA_CLONES is for functions that fuse multiply-adds themselves (std::fma, written out: the compiler still
// fuses nothing on its own): AVX-512, FMA (with AVX's 256-bit vectors) and the baseline, which calls the C library's
// fma, exactly rounded as the instruction is: the same bits everywhere, but slow on a processor without FMA (Intel
// before 2013, AMD before 2012).
#if defined(LODESTONE_NO_TARGET_CLONES) || !defined(__x86_64__)
#define LODESTONE_SIMD_CLONES
#define LODESTONE_FMA_CLONES
#else
#define LODESTONE_SIMD_CLONES [[gnu::target_clones("avx512f", "avx2", "default")]]
#define LODESTONE_FMA_CLONES [[gnu::target_clones("avx512f", "fma", "default")]]
#endif

#include <cmath>

namespace lodestone {

// For the LODESTONE_FMA_CLONES kernels: a.b of two 3-vectors with its multiply-adds fused (a_z b_z + (a_y b_y +
// a_x b_x), each step rounded once), and a b - c d with c d rounded first.
inline double fused_dot(double ax, double ay, double az, double bx, double by, double bz) {
  return std::fma(az, bz, std::fma(ay, by, ax * bx));
}
inline double fused_mul_sub(double a, double b, double c, double d) {
  return std::fma(a, b, -(c * d));
}

// Doubles in the widest vector a clone computes on (AVX-512). Pair kernels pad their blocks to a whole number of them,
// so that no pair falls to a remainder loop (engine/magnetic/dipole_kernel.cpp, p3m.cpp).
inline constexpr int kWidestLanes = 8;

// Sum of v[0..n) in a fixed order whatever the vector width: four running sums over k mod 4, then the tail. The
// kernels' per-lane results are added with it, so that every SIMD version gives the same bits.
inline double lane_sum(const double* v, int n) {
  double acc[4] = {0.0, 0.0, 0.0, 0.0};
  int k = 0;
  for (; k + 4 <= n; k += 4)
    for (int l = 0; l < 4; ++l) acc[l] += v[k + l];
  double sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  for (; k < n; ++k) sum += v[k];
  return sum;
}

}  // namespace lodestone
