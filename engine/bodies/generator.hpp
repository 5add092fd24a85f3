#pragma once
// Particle generators of a preset: simple cubic lattice, random non-overlapping placement with a
// size distribution, or an explicit list. Deterministic for a given seed. The easy axis is the
// body z axis; a magnetised material gives each particle the moment M V along it. The checkpoint
// kind returns the particles a checkpoint holds (Simulation restores the rest of its state).

#include "engine/core/preset.hpp"
#include "engine/core/state.hpp"

#include <cstdint>

namespace lodestone {

// The particles of a lattice, random or list generator. Throws PresetError (naming the generator field)
// when the request cannot be met, e.g. a region too small for the lattice or too full for random
// placement. A checkpoint is not generated: engine/session/session.hpp restores its whole state.
Particles generate_particles(const Preset& preset);
// The particles a preset generates with the bonds between them and its clumps: the state a scene starts from.
State generate_state(const Preset& preset);
// Appends one particle of a list entry with the given id (the list generator, and the app's "add a
// particle", engine/bodies/touch.hpp): its material (empty: the generator's) must exist. Returns its index.
size_t add_particle_entry(const Preset& preset, const ParticleEntry& entry, std::uint64_t particle_id, Particles& p);

}  // namespace lodestone
