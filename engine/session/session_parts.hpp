#pragma once
// What the four files of Session share (session.cpp: the document, its protocol and timeline, the step;
// session_edits.cpp: edits, undo and redo; session_history.cpp: the kept history, rewinds and going back;
// session_touch.cpp: hands on the particles). Internal to them.

#include "engine/core/preset.hpp"

#include <string>
#include <vector>

namespace lodestone::session_detail {

// The parameters a document runs with: without its timeline (applied as the run goes) and without the generator's
// list of particles, which only the document keeps.
Preset parameters_of(const Preset& document);
// The parameters each protocol phase runs with (validated up front).
std::vector<Preset> phase_presets_of(const Preset& preset);
// Four significant digits, as a message shows a value.
std::string format_number(double x);

}  // namespace lodestone::session_detail
