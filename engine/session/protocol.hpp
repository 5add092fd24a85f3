#pragma once
// A protocol: the phases of a preset run in order ([Erokhin-Berkov] Sec. 3: placement, overlap removal,
// drop, alignment under field and pressure). Each phase changes preset fields with
// {"dotted.path": value} when it starts (numeric segments index lists: "materials.0.friction");
// the changes add up from phase to phase. A phase ends after its duration or when its condition
// holds (no overlap left, everything at rest, aligned).

#include "engine/core/model.hpp"
#include "engine/core/preset.hpp"
#include "engine/core/state.hpp"

#include <string>

namespace lodestone {

// The end condition in words: "time", "no overlap", "settled", "aligned".
const char* phase_end_name(PhaseEnd until);

// True when the phase's end condition holds now (not counting its duration).
bool phase_condition_met(const ProtocolPhase& phase, const Model& model, const State& state);

// Largest overlap / smaller radius among particle pairs, and fastest particle [m/s].
double max_overlap_ratio(const Model& model, const State& state);
double max_speed(const State& state);

}  // namespace lodestone
