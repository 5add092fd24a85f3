#pragma once
// LODESTONE_SIMD_CLONES before a function compiles it for AVX-512, AVX2 and the baseline x86-64 (SSE2);
// the loader picks the best the machine has (GCC target_clones, an ifunc). Only for functions whose
// versions give the same bits: no fused multiply-add (not enabled by these targets), no reordered sums.
//
// Sanitizer builds compile the baseline only: an ifunc resolver runs while the program is being
// relocated, before the sanitizer's runtime starts, and an instrumented resolver crashes there.
#if defined(LODESTONE_NO_TARGET_CLONES) || !defined(__x86_64__)
#define LODESTONE_SIMD_CLONES
#else
#define LODESTONE_SIMD_CLONES [[gnu::target_clones("avx512f", "avx2", "default")]]
#endif
