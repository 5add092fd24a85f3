#pragma once
// Neighbour search: a cell grid sorts particles into cells no smaller than the largest
// interaction range plus the Verlet skin; pairs found in neighbouring cells go into two Verlet
// lists (contacts; dipoles: the cutoff method's pairs, or P3M's real-space pairs when its box is large enough,
// engine/magnetic/periodic_systems.hpp) that stay valid until some particle has moved half the skin
// ([Dominik-Nubold] App. A.7, eq. 50 with the per-particle criterion). Cost is linear in N.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

namespace lodestone {

// Scenes with at least this many particles are reordered by cell at every rebuild, so neighbours
// sit close in memory: with random order the pair loops miss the cache once the arrays outgrow it
// (measured: 1.6 us per particle-step at 10k particles, 3.0 at 100k; 0.95-1.06 in cell order from
// 8k to 125k). Smaller scenes fit in cache and keep their order. Ids never change.
inline constexpr size_t kSpatialSortMinParticles = 4096;

// Rebuilds the lists when they are invalid or a particle moved more than half the skin.
// Returns true when it rebuilt. Contact history is carried over by (id, id).
// Particles are split between the team's threads; the lists do not depend on the split.
bool refresh_neighbor_lists(const Model& model, State& state, ThreadTeam& team = ThreadTeam::serial());

// Unconditional rebuild (used by refresh, and after edits that change ranges).
void build_neighbor_lists(const Model& model, State& state, ThreadTeam& team = ThreadTeam::serial());

// True when lists built for model `a` are the lists `b` would build: the same skin, contact reach, largest
// radius, dipole list cutoff and box.
bool same_list_ranges(const Model& a, const Model& b);

}  // namespace lodestone
