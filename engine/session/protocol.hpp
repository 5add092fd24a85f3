#pragma once
// A protocol: the stages of a preset run in order (seed 004 Sec. 3: placement, overlap removal,
// drop, alignment under field and pressure). Each stage changes preset fields with
// {"dotted.path": value} when it starts (numeric segments index lists: "materials.0.friction");
// the changes add up from stage to stage. A stage ends after its duration or when its condition
// holds (no overlap left, everything at rest, aligned).

#include "engine/core/model.hpp"
#include "engine/core/preset.hpp"
#include "engine/core/state.hpp"

#include <string>

namespace lodestone {

// The end condition in words: "time", "no overlap", "settled", "aligned".
const char* stage_end_name(StageEnd until);

// True when the stage's end condition holds now (not counting its duration).
bool stage_condition_met(const ProtocolStage& stage, const Model& model, const State& state);

// Largest overlap / smaller radius among particle pairs, and fastest particle [m/s].
double max_overlap_ratio(const Model& model, const State& state);
double max_speed(const State& state);

}  // namespace lodestone
