#pragma once
// The contact stage: for every pair in the contact list and every particle near a wall,
// geometry first, then the selected law on the contact's history record, then the force at the
// contact point (giving torques on both bodies). Counts contact and slip events.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

#include <vector>

namespace lodestone {

// Velocities and angular velocities of the particles predicted for the end of the step, one per particle
// (velocity Verlet: v_{n+1/2} + dt/(2m) F_n, engine/step/integrator.hpp predict_and_clear_forces). The
// dashpots see them, which makes the velocity-dependent contact forces second-order accurate in dt
// (docs/physics.md "Integration").
struct PredictedVelocities {
  std::vector<Vec3> velocity;          // [m/s]
  std::vector<Vec3> angular_velocity;  // [rad/s]
};

// The checks stage's runaway-overlap test (engine/step/health.hpp), made by the pair pass, which computes the
// separation of every listed pair anyway: `first_pair` is set to the first listed pair, in list order, whose centres
// are closer than Ri + Rj - fraction min(Ri, Rj) (the same bits as the checks' own scan), or to the number of listed
// pairs when none is.
struct RunawayOverlapWatch {
  double fraction = 0.0;
  size_t first_pair = 0;
};

// Adds contact forces and torques. `dt` advances the shear springs and the dissipation ledger;
// pass 0 to evaluate the current configuration without advancing history (initial force pass).
// The pairs (and, per wall, the particles) are split between the team's threads (engine/core/thread_team.hpp).
// `predicted` (one entry per particle) gives the dashpots their velocities; without it they see the
// particles' current ones. `watch`, when given, is filled in (see RunawayOverlapWatch). A `trial` pass (Heun's
// predictor) evaluates each contact on a copy of its history and leaves the histories, their law states and their
// flags as they were: only its forces and books count, and the caller puts the books back. Copying every history
// before such a pass and putting them back after was a tenth of an overdamped powder step (docs/performance.md,
// "A trial pass on copies").
void compute_contact_forces(const Model& model, State& state, double dt, ThreadTeam& team = ThreadTeam::serial(),
                            const PredictedVelocities* predicted = nullptr, RunawayOverlapWatch* watch = nullptr,
                            bool trial = false);

}  // namespace lodestone
