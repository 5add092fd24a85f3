#pragma once
// The remote verbs of the view (lodestone --remote; app/desktop/remote_control.hpp lists them all):
//
//   view                  prints "view color=KEY legend=TITLE arrow=A yaw=DEG pitch=DEG pace=P|fastest
//                         sidebar=WIDTH|hidden plots=0|1 follows=0|1 paused_hint=0|1 try_hints=0|1
//                         field_view=off|slice|lines|both field_updates=PER_SECOND gallery=0|1"
//   hints show|hide       the "Try this" strip on the first scene (ui/status_line.cpp try_hints)
//   gallery               prints "gallery open=0|1 scene=SOURCE teaching=NAME,... research=... benchmarks=...
//                         thumbnails=N": the scene gallery (ui/gallery.hpp), each group's presets in the order shown
//   gallery show|hide     opens or closes it (File > Scenes)
//   gallery open NAME     chooses a scene of it (a file name, "two-dipoles", or its title) as a click would: the window
//                         opens it (a refused load keeps the scene) and the gallery closes
//   field-view off|slice|lines|both [x|y|z [AT]]
//                         the View panel's field view: |B| on a slice normal to the axis at AT (a length),
//                         field lines seeded on it, both or none; field_updates in `view` is the rate it gets
//   color KEY             colour mode: alignment, moment, direction, speed, contacts, cluster
//   frame [all|selection] frames every particle (F) or the selection's cluster (Shift+F)
//   select ID             selects a particle by id (the Inspector shows it)
//   sidebar show|hide|WIDTH  shows, hides (Tab) or resizes the side bar [logical pixels]
//   help | about          opens the controls (F1) or the About window
//
// Each answers "ok VERB ..." or "refused: LINE: why".

#include "app/desktop/remote_parse.hpp"
#include "engine/live/snapshot.hpp"
#include "ui/ui_state.hpp"

#include <string>

namespace lodestone::desktop {

// Carries out a view verb, read by remote::parse_remote_line, and prints its answer; false when `request.verb` is not
// one of them.
bool execute_view_verb(const remote::Request& request, const std::string& line, const Snapshot& snapshot,
                       ui::UiState& state);

// The answer to a remote command that cannot be carried out (it changes nothing): "refused: LINE: WHY", flushed.
void refuse(const std::string& line, const std::string& why);

}  // namespace lodestone::desktop
