#pragma once
// The contact stage: for every pair in the contact list and every particle near a wall,
// geometry first, then the selected law on the contact's history record, then the force at the
// contact point (giving torques on both bodies). Counts contact and slip events.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

namespace lodestone {

// Adds contact forces and torques. `dt` advances the shear springs and the dissipation ledger;
// pass 0 to evaluate the current configuration without advancing history (initial force pass).
// The pairs (and, per wall, the particles) are split between the team's threads (engine/core/thread_team.hpp).
void compute_contact_forces(const Model& model, State& state, double dt, ThreadTeam& team = ThreadTeam::serial());

}  // namespace lodestone
