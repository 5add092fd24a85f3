#pragma once
// A protocol: the stages of a preset run in order (seed 004 Sec. 3: placement, overlap removal,
// drop, alignment under field and pressure). Each stage changes preset fields with
// {"dotted.path": value} when it starts (numeric segments index lists: "materials.0.friction");
// the changes add up from stage to stage. A stage ends after its duration or when its condition
// holds (no overlap left, everything at rest, aligned).

#include "engine/preset.hpp"
#include "engine/model.hpp"
#include "engine/state.hpp"

#include <string>

namespace lodestone {

// The value at a dotted path inside a JSON object; numeric segments index lists
// ("materials.0.friction"). Where a segment is not a key it is joined to the next ones by dots,
// so keys that contain dots are reached too: protocol.2.set.field.strength is the "field.strength"
// change of stage 2 (the sweeps use that). Throws PresetError naming `where` and the path when
// nothing is there (listing the keys at the last level that exists).
json& json_at_path(json& root, const std::string& dotted_path, const std::string& where);
// Sets the value at such a path (which must exist).
void set_json_path(json& root, const std::string& dotted_path, const json& value, const std::string& where);

// The preset a stage runs with: the base preset with the overrides of stages 0..stage applied (and
// no timeline: its entries apply on top as the run reaches them, engine/timeline.hpp).
// Throws PresetError naming protocol[k].set.<path> for a bad override.
Preset stage_preset(const Preset& base, int stage);

// The end condition in words: "time", "no overlap", "settled", "aligned".
const char* stage_end_name(StageEnd until);

// True when the stage's end condition holds now (not counting its duration).
bool stage_condition_met(const ProtocolStage& stage, const Model& model, const State& state);

// Largest overlap / smaller radius among particle pairs, and fastest particle [m/s].
double max_overlap_ratio(const Model& model, const State& state);
double max_speed(const State& state);

}  // namespace lodestone
