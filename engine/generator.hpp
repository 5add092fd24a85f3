#pragma once
// Particle generators of a preset: simple cubic lattice, random non-overlapping placement with a
// size distribution, or an explicit list. Deterministic for a given seed. The easy axis is the
// body z axis; a magnetised material gives each particle the moment M V along it. The checkpoint
// kind returns the particles a checkpoint holds (Simulation restores the rest of its state).

#include "engine/preset.hpp"
#include "engine/state.hpp"

namespace lodestone {

// Throws PresetError (naming the generator field) when the request cannot be met, e.g. a region
// too small for the lattice or too full for random placement.
Particles generate_particles(const Preset& preset);

}  // namespace lodestone
