#pragma once
// Preparing a Model for its particles: the pair table (materials mixed once), the time step and what limits
// it, the Verlet skin, contact reach, dipole cutoff, periodic lengths and the lid's damping. It needs every
// law's idea of stiffness, so it sits above the force laws (engine/README.md).

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

namespace lodestone {

// Recomputes the derived tables for these particles. Throws PresetError when the parameters do not
// fit the scene (e.g. a periodic box shorter than twice the interaction range).
void prepare_model(Model& model, const Particles& particles);
// The same without the time step's advice (a pass over every particle): the pair table, the ranges, the periodic
// lengths and sums. What deciding whether the neighbour lists stay needs (Simulation::defers).
void prepare_model_ranges(Model& model, const Particles& particles);

}  // namespace lodestone
