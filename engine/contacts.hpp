#pragma once
// The contact stage: for every pair in the contact list and every particle near a wall,
// geometry first, then the selected law on the contact's history record, then the force at the
// contact point (giving torques on both bodies). Counts contact and slip events.

#include "engine/model.hpp"
#include "engine/state.hpp"

namespace lodestone {

// Adds contact forces and torques. `dt` advances the shear springs and the dissipation ledger;
// pass 0 to evaluate the current configuration without advancing history (initial force pass).
void compute_contact_forces(const Model& model, State& state, double dt);

}  // namespace lodestone
