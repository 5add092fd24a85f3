#pragma once
// Step 2 of the cutoff kernel (engine/magnetic/dipole_kernel.hpp) on its own: the pair formula over a block of
// gathered partners, branch-free. Shared with bench/cluster_pairs.cpp, which times the formula alone to bound what
// any arrangement of the pair loop can reach.

namespace lodestone::detail {

// Partners of one particle handled at a time (longer runs are cut into blocks).
constexpr int kBlock = 64;

// Structure of arrays for one block: inputs (separation, partner moment) and outputs per pair.
struct DipoleBlock {
  int j[kBlock];
  alignas(64) double dx[kBlock], dy[kBlock], dz[kBlock];
  alignas(64) double mx[kBlock], my[kBlock], mz[kBlock];
  alignas(64) double fx[kBlock], fy[kBlock], fz[kBlock];
  alignas(64) double tix[kBlock], tiy[kBlock], tiz[kBlock];
  alignas(64) double tjx[kBlock], tjy[kBlock], tjz[kBlock];
  alignas(64) double e[kBlock];
};

// The pair formula of engine/magnetic/dipole.hpp for `count` partners of moment mi within the cutoff (separations
// already reduced to the minimum image): forces on i, both torques and energies into the block's outputs.
void dipole_block(const double mi[3], DipoleBlock& b, int count, double cap);

}  // namespace lodestone::detail
