#pragma once
// Velocity Verlet for translation; rotation of spheres by the exact quaternion update for the
// half-step angular velocity, renormalised every step (seed 002 App. A.3, seed 004 App. A).
// For a configuration-dependent pair interaction whose forces and torques balance (sum of
// x x F + T = 0) this scheme conserves total angular momentum to round-off.

#include "engine/model.hpp"
#include "engine/state.hpp"

namespace lodestone {

// Half kick with the current forces, drift, rotation, periodic wrap; advances time and step.
void integrate_first_half(const Model& model, State& state, double dt);
// Second half kick with the new forces.
void integrate_second_half(const Model& model, State& state, double dt);

}  // namespace lodestone
