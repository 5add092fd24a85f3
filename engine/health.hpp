#pragma once
// The checks stage: a run that blows up stops with a message naming the particle and a likely
// cause, instead of crashing or silently continuing (NaN or infinite values, runaway overlap,
// a particle through a wall).

#include "engine/model.hpp"
#include "engine/state.hpp"
#include "engine/thread_team.hpp"

namespace lodestone {

// Overlap beyond this fraction of the smaller radius counts as a runaway; so does a particle that
// moves more than this fraction of its radius in one step (collisions are no longer resolved: two
// spheres can pass through each other between two force evaluations).
inline constexpr double kRunawayOverlapFraction = 0.5;

// Sets state.health (ok = false with a message) when something is wrong; leaves it alone otherwise.
// The scans are split between the team's threads; the particle named is the one a single thread would name.
void check_health(const Model& model, State& state, ThreadTeam& team = ThreadTeam::serial());

}  // namespace lodestone
