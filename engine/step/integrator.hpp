#pragma once
// Two schemes (per preset, integrator.scheme):
//  - velocity Verlet for translation; rotation of spheres by the exact quaternion update for the
//    half-step angular velocity, renormalised every step ([Dominik-Nubold] App. A.3, [Erokhin-Berkov] App. A).
//    For a configuration-dependent pair interaction whose forces and torques balance (sum of
//    x x F + T = 0) this scheme conserves total angular momentum to round-off.
//  - overdamped ([Erokhin-Berkov] Sec. 2.3): inertia neglected in eqs. 5-6, so v = F / gamma and
//    omega = T / (R^2 gamma*), where F and T leave out the damping terms; advanced with Heun's
//    method (explicit trapezoid: Euler predictor, then the mean of the two slopes). Simulation
//    drives the two force passes; the helpers here do the arithmetic.
// Held particles (Particles::hold, engine/core/hold.hpp) keep their held position or orientation bit for bit and
// the matching velocity zero in both schemes; the forces and torques on them are still computed.

#include "engine/contact/contacts.hpp"
#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

#include <vector>

namespace lodestone {

// Half kick with the current forces, drift, rotation, periodic wrap; advances time and step. Clumps
// (engine/bodies/clumps.hpp) move as rigid bodies in the same stage. With `predicted`, each particle's velocities
// predicted for the end of the step (as predict_and_clear_forces predicts them, the same bits) are written in the same
// sweep, from the values it has at hand: the force pass then only clears the forces (clear_forces_after_prediction),
// one memory-bound sweep over seven arrays less (issue 38). The predictions hold while the particles keep their order
// (a list rebuild may sort them: then predict_and_clear_forces).
void integrate_first_half(const Model& model, State& state, double dt, ThreadTeam& team = ThreadTeam::serial(),
                          PredictedVelocities* predicted = nullptr);
// Second half kick with the new forces (clumps too).
void integrate_second_half(const Model& model, State& state, double dt, ThreadTeam& team = ThreadTeam::serial());

// Velocities predicted for the end of the step, for the dashpots of the force pass between the two half
// kicks: v_{n+1/2} + dt/(2m) F_n and w_{n+1/2} + dt/(2I) T_n, F_n and T_n the forces of the last pass (still
// in the particles when the pass starts, and kept in checkpoints, so a continued run predicts the same). A
// clump's pebbles get their clump's predicted rigid motion: V + dt/(2M) F and w = R I^-1 R^T (L + dt/2 T)
// at the pebble's offset. Derivation and accuracy: docs/physics.md "Integration". The particles' forces and torques
// are then set to zero in the same sweep, as the force pass begins: one pass over those arrays instead of two (both
// memory-bound, issue 38).
void predict_and_clear_forces(State& state, double dt, PredictedVelocities& out,
                              ThreadTeam& team = ThreadTeam::serial());
// Sets the particles' forces and torques to zero (a force pass without predictions begins with it).
void clear_forces(State& state, ThreadTeam& team = ThreadTeam::serial());
// The rest of predict_and_clear_forces after integrate_first_half predicted the particles: the forces and torques set
// to zero, and the clumps' pebbles predicted.
void clear_forces_after_prediction(State& state, double dt, PredictedVelocities& out,
                                   ThreadTeam& team = ThreadTeam::serial());

// Overdamped slopes from the current forces: velocity F / gamma, angular velocity T / (R^2 gamma*).
struct OverdampedSlopes {
  std::vector<Vec3> velocity, angular_velocity;
  double lid_velocity = 0.0;
  double max_speed = 0.0;  // [m/s] largest |v|
};
// On the team: each particle's slopes written on their own; the largest speed is exact whatever the split.
void overdamped_slopes(const Model& model, const State& state, OverdampedSlopes& out,
                       ThreadTeam& team = ThreadTeam::serial());
// Heun's corrector slope, (k0 + k1) / 2 per particle, into k1 (the lid's too).
void mean_slopes(const OverdampedSlopes& k0, OverdampedSlopes& k1, ThreadTeam& team = ThreadTeam::serial());

// Start of a step (positions, orientations, lid height) that Heun's two stages go from.
struct StepOrigin {
  std::vector<Vec3> position;
  std::vector<Quat> orientation;
  std::vector<ImageFlags> image;
  double lid_height = 0.0;
};
void save_origin(const State& state, StepOrigin& origin, ThreadTeam& team = ThreadTeam::serial());
// Positions = origin + dt x slope (Heun's predictor with one slope; its corrector with the mean). On the team, each
// particle written on its own: the same bits at any number of threads.
void advance_from(const Model& model, const StepOrigin& origin, const std::vector<Vec3>& velocity,
                  const std::vector<Vec3>& angular_velocity, double lid_velocity, double dt, State& state,
                  ThreadTeam& team = ThreadTeam::serial());

}  // namespace lodestone
