#pragma once
// Words for a "step N" / "advance T" request under way (Snapshot::stepping, engine/live/step_requests.hpp): the
// History panel's progress line, the status line and the remote control's estimate say the same thing.

#include "engine/live/snapshot.hpp"

#include <string>

namespace lodestone::ui {

// A request estimated to take longer than this is answered by the remote control at once with its estimate, and
// runs on with its progress shown; a shorter one is answered when it is done.
constexpr double kLongRequestSeconds = 60.0;

// A wall-clock span in the unit a person reads it in: "under a second", "about 40 s", "about 12 min", "about 2.3 h",
// "about 4.1 days", "about 3.2e+04 years".
std::string wall_time_text(double seconds);
// "step 1126112 of 99999999 (1.1 %), about 2.3 h left" or "advance 0.002 s: 45 % done, about 12 s left"; "..., time
// left not known yet" before the first steps.
std::string step_progress_text(const StepProgress& p);

}  // namespace lodestone::ui
