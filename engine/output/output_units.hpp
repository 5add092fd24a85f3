#pragma once
// A run's outputs in the preset's unit system (units.system, engine/scene/unit_system.hpp): the particle frames
// and the time-series row, converted from SI at the edge just before they are written. SI leaves them as they
// are, so SI outputs stay byte for byte what they were.

#include "engine/analysis/observables.hpp"
#include "engine/core/parameters.hpp"
#include "engine/output/frame_fields.hpp"

namespace lodestone {

// The frame in `units.system`: lengths, velocities, angular velocities, moments, forces, torques and the time
// divided by their lj units; directions, orientations, alignments and ids unchanged. `frame.units` is the
// note each format's header carries (unit_system_note).
FrameFields frame_in_units(FrameFields frame, const DisplayUnits& units);

// The time-series row in `units.system`: energies in epsilon, times in tau, magnetisation in lj moments per
// sigma^3, momenta, forces and the lid height; counts, ratios and [Erokhin-Berkov]'s reduced_time unchanged.
Observables observables_in_units(Observables o, const DisplayUnits& units);

}  // namespace lodestone
