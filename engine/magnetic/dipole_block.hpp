#pragma once
// Step 2 of the cutoff kernel (engine/magnetic/dipole_kernel.hpp) on its own: the pair formula over a block of
// gathered partners, branch-free. Shared with bench/cluster_pairs.cpp, which times the formula alone to bound what
// any arrangement of the pair loop can reach.

#include "engine/core/simd.hpp"

namespace lodestone::detail {

// Partners of one particle handled at a time (longer runs are cut into blocks).
constexpr int kBlock = 64;
// The formula pads a block's pairs to a whole number of the widest vectors, so its slots run that far past the last.
constexpr int kLanes = kWidestLanes;
constexpr int kSlots = kBlock + kLanes;

// Structure of arrays for one block: inputs (separation, partner moment) and outputs per pair.
struct DipoleBlock {
  int j[kBlock];
  alignas(64) double dx[kSlots], dy[kSlots], dz[kSlots];
  alignas(64) double mx[kSlots], my[kSlots], mz[kSlots];
  alignas(64) double fx[kSlots], fy[kSlots], fz[kSlots];
  alignas(64) double tix[kSlots], tiy[kSlots], tiz[kSlots];
  alignas(64) double tjx[kSlots], tjy[kSlots], tjz[kSlots];
  alignas(64) double e[kSlots];
};

// The pair formula of engine/magnetic/dipole.hpp for `count` partners of moment mi within the cutoff (separations
// already reduced to the minimum image): forces on i, both torques and energies into the block's outputs. The slots
// from count to the next multiple of kLanes get a harmless pair (unit separation, zero moment) and are computed with
// the others, their outputs never read: a remainder loop of four lanes and one of single pairs took 37 % of the
// formula's time at 25 pairs a particle.
void dipole_block(const double mi[3], DipoleBlock& b, int count, double cap);

}  // namespace lodestone::detail
