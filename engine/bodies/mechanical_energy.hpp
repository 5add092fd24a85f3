#pragma once
// The energies the force pass does not book (State::energy holds the rest): kinetic and gravitational, of
// free spheres and of clumps as rigid bodies. The energy check (engine/step/health.hpp) and the
// observables read them.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

namespace lodestone {

// Kinetic and gravitational energies [J] (clumps counted as rigid bodies, their pebbles not again):
// the part of the energies not booked by the force pass (State::energy).
struct MechanicalEnergy {
  double translational = 0.0, rotational = 0.0, gravitational = 0.0;
};
// The particles' sums split over the team's parts and added in part order (one thread: one part, the serial sums).
MechanicalEnergy mechanical_energy(const Model& model, const State& state, ThreadTeam& team = ThreadTeam::serial());

}  // namespace lodestone
