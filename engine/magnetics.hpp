#pragma once
// Magnetic stages: the moment update (rigid dipoles: body-frame moment rotated into the world
// frame, seed 000; Stoner-Wohlfarth: the equilibrium direction on the continuous branch, seed 004;
// induced: chi V B / mu0, optionally self-consistent with the neighbours) and the dipole-dipole pass, with cutoff through the Verlet list or the exact
// sum over all pairs (the reference path). Minimum image on periodic axes.

#include "engine/model.hpp"
#include "engine/state.hpp"

namespace lodestone {

void update_moments(const Model& model, State& state);
void compute_dipole_forces(const Model& model, State& state);

}  // namespace lodestone
