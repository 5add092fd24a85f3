#pragma once
// A protocol: the phases of a preset run in order ([Erokhin-Berkov] Sec. 3: placement, overlap removal,
// drop, alignment under field and pressure). Each phase changes preset fields with
// {"dotted.path": value} when it starts (numeric segments index lists: "materials.0.friction");
// the changes add up from phase to phase. A phase ends after its duration or when its condition
// holds (no overlap left, everything at rest, aligned).

#include "engine/core/model.hpp"
#include "engine/core/preset.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

#include <string>

namespace lodestone {

// The end condition in words: "time", "no overlap", "settled", "aligned".
const char* phase_end_name(PhaseEnd until);

// True when the phase's end condition holds now (not counting its duration). The scans run on `team`; the largest
// values are the same on any team, the mean alignment is summed in parts in part order (the same bits for a given
// team size, round-off between sizes).
bool phase_condition_met(const ProtocolPhase& phase, const Model& model, const State& state,
                         ThreadTeam& team = ThreadTeam::serial());

// Largest overlap / smaller radius among particle pairs, and fastest particle [m/s].
double max_overlap_ratio(const Model& model, const State& state, ThreadTeam& team = ThreadTeam::serial());
double max_speed(const State& state, ThreadTeam& team = ThreadTeam::serial());
// <|cos theta|> of the easy axes with the unit vector b (0 without particles).
double mean_easy_axis_alignment(const Particles& p, const Vec3& b, ThreadTeam& team = ThreadTeam::serial());

}  // namespace lodestone
