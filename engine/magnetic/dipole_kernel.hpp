#pragma once
// The hot loop of dipolar scenes: the cutoff pass over the dipole Verlet list for rigid (or
// Stoner-Wohlfarth) moments without clumps or an activity distance (engine/magnetic/magnetics.cpp takes this
// path when it applies). The same pair formula as engine/magnetic/dipole.hpp, arranged for SIMD:
//   1. for one particle i, its partners j (consecutive in the list, which is ordered by (i, j)) within
//      the cutoff are gathered, without a branch, into short arrays: separation (minimum image), moment
//      (with AVX2 four partners at a time, those within the cutoff then moved together);
//      along an axis where particle i lies farther than the cutoff from both periodic faces (or that is open) the
//      minimum image is skipped, bit for bit the same (its partners within the cutoff are beside it in the box):
//      the image was about a fifth of the pass;
//   2. a branch-free loop over them computes force, both torques and energy per pair (the compiler
//      vectorises it: #pragma omp simd), padded to whole vectors of eight (no remainder loops);
//   3. a scalar loop adds the results in list order, to i and to each j.
// Step 3 fixes the order of every sum, so the result does not depend on the vector width the machine
// offers (the loop is compiled for AVX-512, FMA and the baseline, chosen at load time).

#include "engine/core/math.hpp"
#include "engine/core/state.hpp"

#include <cstddef>

namespace lodestone {

struct DipoleKernelInput {
  const IndexPair* pairs = nullptr;     // ordered by (i, j)
  const Vec3* position = nullptr;       // [m]
  const Vec3* moment = nullptr;         // [A m^2]
  double cutoff = 0.0;                  // [m] centre distance
  double cap = 0.0;                     // [m] dipole_cap (0: none)
  Vec3 periodic_length = Vec3::Zero();  // [m] 0 on open axes
  Vec3 box_min = Vec3::Zero();          // [m] the periodic box is [box_min, box_min + periodic_length)
  // True when every position lies in the periodic box (positions_in_periodic_box): only then can a particle far
  // from the faces skip the minimum image.
  bool positions_in_box = false;
  // Gather the partners four at a time where the processor has AVX2 (the same bits as one at a time, which
  // other processors and `false` take: the tests compare the two).
  bool four_at_a_time = true;
};

// True when every position lies in [box_min, box_min + periodic_length) on each periodic axis (as the step
// leaves them; a preset or an edit may not); always true without periodic axes. For a part of the particles, so that
// a thread team can split the sweep.
bool positions_in_periodic_box(const Vec3* position, size_t n, const Vec3& box_min, const Vec3& periodic_length);

// Adds the pairs [begin, end) to force and torque; returns their energy [J].
double dipole_cutoff_kernel(const DipoleKernelInput& in, size_t begin, size_t end, Vec3* force, Vec3* torque);

// The `direct` method's pass for the same common case: every pair (i, j > i) of the n particles for i in
// [i_begin, i_end), each at its minimum image, no cutoff (in.pairs and in.cutoff are not used). The same
// steps, the partners read in index order instead of from a list.
double dipole_all_pairs_kernel(const DipoleKernelInput& in, size_t n, size_t i_begin, size_t i_end, Vec3* force,
                               Vec3* torque);

}  // namespace lodestone
