#pragma once
// Magnetic stages: the moment update (rigid dipoles: body-frame moment rotated into the world
// frame, [PFC-dipole]; Stoner-Wohlfarth: the equilibrium direction on the continuous branch, [Erokhin-Berkov];
// induced: chi V B / mu0, optionally self-consistent with the neighbours) and the dipole-dipole pass, with cutoff
// through the Verlet list, the exact sum over all pairs (the reference path; minimum image on periodic axes) or
// its Barnes-Hut approximation (engine/magnetic/dipole_tree.hpp; open boundaries only).
//
// Multiple time steps ([Dominik-Nubold] App. A.8, magnetics.force_interval = k > 1). The dipole pass runs in
// full every k-th force pass; in between, the dipole force, torque and energy of each particle are
// extrapolated to first order in time from the last two full passes (at t_a and t_b):
//   F(t) = F_b + (t - t_b) (F_b - F_a) / (t_b - t_a)
// This is eq. 51 to first order with the derivative of eqs. 52-56 replaced by the difference quotient
// of two full passes; both are first-order Taylor series, with error O((k dt)^2): F''(s^2/2 + s K/2) at
// s = t - t_b with K = t_b - t_a here, F'' s^2/2 with the paper's exact derivative (docs/physics.md).
// The difference quotient needs neither Jacobians nor the moments' rate of change, so it serves every
// moment model (eqs. 52-56 assume rigid moments turning with the body). k = 1 runs the plain pass.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

namespace lodestone {

void update_moments(const Model& model, State& state, ThreadTeam& team = ThreadTeam::serial());
// Induced moments with dipoles on: the force pass takes the moments as fixed, so the energy their change brings,
// R.dm with R = m/a - B_applied - B_dipoles (the gradient of the energy the Jacobi passes minimise), reaches no force.
// book_moment_work adds it to field_work for the step of length dt just made, from the moments `before` it to the
// moments now: R at the step's midpoint (positions x - v dt/2, v the half-step velocity of velocity Verlet, and the
// mean moments) times the change, second order like the rest of the books (docs/physics.md "Moment models"; one
// more dipole field pass a step; issue 40).
bool books_moment_work(const Model& model);
void book_moment_work(const Model& model, State& state, const std::vector<Vec3>& before, double dt,
                      ThreadTeam& team = ThreadTeam::serial());
// The full dipole pass: adds every pair's force and torque, sets the dipole energy.
void compute_dipole_forces(const Model& model, State& state, ThreadTeam& team = ThreadTeam::serial());
// The dipole stage as the step runs it: compute_dipole_forces with force_interval = 1, else the full
// pass (stored in state.dipole_history) or the extrapolation. A `trial` pass (Heun's predictor, at the
// end of the step being made) is full when the pass that follows it is, and stores nothing.
void apply_dipole_forces(const Model& model, State& state, bool trial, ThreadTeam& team = ThreadTeam::serial());

}  // namespace lodestone
