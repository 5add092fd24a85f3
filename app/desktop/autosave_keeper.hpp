#pragma once
// Autosave and restore in the desktop app (issue 41). The keeper decides when to autosave: every `seconds` of wall
// time while something changed (a step, an edit, a touch), and at once after every load, restore and save. It asks the
// simulation thread for a copy (CaptureAutosave), and hands the copy, once a snapshot carries it, to the writer thread
// (engine/live/autosave_writer.hpp), which writes it to the store (engine/session/autosave_store.hpp): the window never
// waits for the disk. It finds what a crashed program left (the restore offer, ui/restore_offer.cpp), restores it
// (--restore, the remote verb `restore`, the offer's button) and, at a clean quit, removes the autosaves.
//
// Qt-free; the window calls tick() a few times a second (app/desktop/main_window.cpp).

#include "engine/live/autosave_writer.hpp"
#include "engine/live/simulation_thread.hpp"
#include "ui/ui_state.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lodestone::desktop {

struct AutosaveSettings {
  double seconds = 30.0;     // [s] wall time between autosaves while something changes; 0: no autosaves written
  std::string state_folder;  // "": default_state_folder() ($XDG_STATE_HOME/lodestone, ~/.local/state/lodestone)
  bool offer = true;         // look for a crashed program's autosave and offer it (not in scripted runs)
};

class AutosaveKeeper {
 public:
  using Clock = std::chrono::steady_clock;

  // Opens the store; when it cannot (no home, a read-only disk), autosave is off and the notice says why.
  AutosaveKeeper(SimulationThread& simulation, ui::UiState& state, AutosaveSettings settings);
  ~AutosaveKeeper();  // the writer finishes the file under way; the files stay (a crash keeps them too)

  // [GUI thread] With the newest snapshot: hands an arrived copy to the writer, asks for a new one when due, and acts
  // on the restore offer's buttons (UiState::restore_offer).
  void tick(Clock::time_point now);
  // Restores the newest autosave a crashed program left: reads and checks it whole here, then sends RestoreSession.
  // Returns its request id (answered "STEP" in Snapshot::reply). Throws AutosaveError, naming the file and what is
  // wrong, for none to restore or a damaged one (moved aside).
  std::uint64_t restore(const ui::CommandSink& send);
  // The step of the newest autosave written by this program (-1: none yet), and why the last write failed ("").
  std::int64_t autosaved_step() const { return written_step_; }
  bool enabled() const { return writer_ != nullptr; }
  // A clean quit: the writer stops, this program's autosaves (and those it restored) are removed.
  void quit_cleanly();

 private:
  // The newest left-behind autosave as the restore offer says it ("" when none).
  void refresh_offer();
  void capture(Clock::time_point now);

  SimulationThread& simulation_;
  ui::UiState& state_;
  AutosaveSettings settings_;
  std::unique_ptr<AutosaveStore> store_;
  std::unique_ptr<AutosaveWriter> writer_;
  std::string offered_instance_;  // the crashed program's folder the offer is about
  std::uint64_t asked_ = 0;       // the last CaptureAutosave sent
  std::uint64_t handed_ = 0;      // the last copy handed to the writer
  std::int64_t handed_step_ = -1;
  std::uint64_t seen_written_ = 0;
  std::int64_t written_step_ = -1;
  // What the last copy asked for was taken at: the scene (loads, revision), the step and the drag target, and when.
  struct Mark {
    std::uint64_t loads = 0, revision = 0, saves = 0;
    std::int64_t step = -1;
    bool dragging = false;
    Vec3 target = Vec3::Zero();
    bool operator==(const Mark&) const = default;
  };
  Mark asked_mark_;
  std::optional<Clock::time_point> asked_at_;
};

}  // namespace lodestone::desktop
