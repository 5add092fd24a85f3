// One field edit the way the Field panel makes it (ui/ui_state.hpp: the edited value and its path, then
// send_parameters), handled by the simulation thread, until the snapshot shows it. Run under callgrind by
// bench/edit_walk.sh, which names the folders ("rooms") the edit's calls pass through.
//
//   lodestone-edit-walk [PRESET] [EDITS]

#include "engine/live/simulation_thread.hpp"
#include "engine/scene/document.hpp"
#include "ui/ui_state.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

using namespace lodestone;

namespace {

// The newest snapshot once it has handled `edit` (polled, as the window's frame does).
const Snapshot& wait_for_edit(SimulationThread& thread, std::uint64_t edit) {
  for (;;) {
    thread.update_snapshot();
    if (thread.snapshot().acknowledged_edit >= edit) return thread.snapshot();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Preset preset = argc > 1 ? load_preset_file(argv[1]) : default_preset();
  const int edits = argc > 2 ? std::atoi(argv[2]) : 3;
  SimulationThread thread(preset, argc > 1 ? argv[1] : "default", /*start_running=*/false);
  ui::UiState state;
  ui::adopt_snapshot(state, wait_for_edit(thread, 0));
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < edits; ++k) {
    state.edited.field.strength = 0.001 * (10 + k);  // what the panel's slider writes, in SI
    state.changed_paths.push_back("field.strength");
    ui::send_parameters(state, [&thread](Command c) { thread.push(std::move(c)); });
    const Snapshot& s = wait_for_edit(thread, state.last_edit_id);
    ui::adopt_snapshot(state, s);
    if (!s.message.empty() && s.message_is_error) std::printf("refused: %s\n", s.message.c_str());
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d edits, %.3f ms each (field.strength now %g T)\n", edits, ms / edits, state.edited.field.strength);
  return 0;
}
