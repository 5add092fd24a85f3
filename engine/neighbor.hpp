#pragma once
// Neighbour search: a cell grid sorts particles into cells no smaller than the largest
// interaction range plus the Verlet skin; pairs found in neighbouring cells go into two Verlet
// lists (contacts, dipoles) that stay valid until some particle has moved half the skin
// (seed 002 App. A.7, eq. 50 with the per-particle criterion). Cost is linear in N.

#include "engine/model.hpp"
#include "engine/state.hpp"

namespace lodestone {

// Rebuilds the lists when they are invalid or a particle moved more than half the skin.
// Returns true when it rebuilt. Contact history is carried over by (id, id).
bool refresh_neighbor_lists(const Model& model, State& state);

// Unconditional rebuild (used by refresh, and after edits that change ranges).
void build_neighbor_lists(const Model& model, State& state);

}  // namespace lodestone
