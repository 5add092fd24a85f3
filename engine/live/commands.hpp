#pragma once
// What the GUI may ask of the simulation thread (DESIGN: "UI changes are queued commands applied
// between steps"). A closed set; the simulation thread applies them in order.

#include "engine/io/preset_io.hpp"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace lodestone {

// Replace the whole scene: parameters and particles (a preset loaded from a file, or the default).
struct LoadScene {
  Preset preset;
  std::string source;  // shown to the user: the file name
};
// Apply new parameters (materials, laws, field, damping, walls, time step...) to the running
// scene; particles and contact history are kept. Takes effect on the next step, and is recorded in
// the document's timeline at the current step (engine/io/preset_edits.hpp), so a save replays the run.
// An edit that needs the user's word first (Session::edit_warning: a field far beyond any magnet, a
// collapsing time step; or an edit at a rewound step, which drops the run's old future) is held, not
// applied, until sent again with `confirmed` (Snapshot::confirmation says what it would do).
struct ApplyParameters {
  Preset preset;
  std::uint64_t edit_id = 0;  // echoed as Snapshot::acknowledged_edit once applied, held or refused
  bool confirmed = false;
  std::uint64_t request = 0;  // answered in Snapshot::reply (0: no answer wanted)
};
// Regenerate the particles of the current scene (time back to 0). The parameters in force are kept:
// the timeline entries applied so far are folded into the scene (Session::folded_document).
struct ResetScene {};
struct SetRunning {
  bool running = true;
};
// Pause, then advance a number of steps, or (seconds > 0) until that much simulated time has passed.
struct StepOnce {
  int steps = 1;
  double seconds = 0.0;       // [s]
  std::uint64_t request = 0;  // answered in Snapshot::reply once the steps ran
};

// Time travel in the kept history (engine/session/history.hpp, docs/history.md). The run keeps its
// running / paused state.
struct Rewind {
  std::int64_t step = 0;
  bool snap = false;  // to the nearest kept point at or before `step`, at once (the slider while dragged)
  std::uint64_t request = 0;
};
// Undo / redo the last edit (engine/session/undo.hpp); the reply says what changed.
struct Undo {
  std::uint64_t request = 0;
};
struct Redo {
  std::uint64_t request = 0;
};
// Recovery after a failed check: back to before the last edit (undoing it), or back by a span of
// simulated time (seconds > 0).
struct GoBack {
  double seconds = 0.0;  // [s]; 0: before the last edit
  std::uint64_t request = 0;
};
// The state hash (engine/core/state_hash.hpp) of the run now, in the reply.
struct HashState {
  std::uint64_t request = 0;
};

enum class PaceMode : int { Fastest, RealTime, StepsPerFrame };
// How fast a running simulation goes: flat out, a real-time factor (simulated seconds per wall
// second), or a number of steps per 1/60 s frame.
struct SetPace {
  PaceMode mode = PaceMode::Fastest;
  double value = 1.0;
};

// Capture the current frame for an export (engine/io/frame_fields.hpp): the simulation thread fills
// one from its state and publishes it as Snapshot::frame with Snapshot::frame_request = request;
// the GUI thread writes the file.
struct CaptureFrame {
  std::uint64_t request = 0;
};

// Evaluate the total field B at points (engine/magnetic/field_evaluation.hpp) in the current state: the
// simulation thread publishes the values as Snapshot::field_values with Snapshot::field_request = request
// (the remote verb field-at). Full precision, from the engine's own state, not the snapshot's floats.
struct EvaluateField {
  std::uint64_t request = 0;
  std::vector<Vec3> points;  // [m]
  bool exact = false;        // every moment (default: the moments the forces sum, magnetics.method)
};

using Command = std::variant<LoadScene, ApplyParameters, ResetScene, SetRunning, StepOnce, SetPace, CaptureFrame,
                             EvaluateField, Rewind, Undo, Redo, GoBack, HashState>;

}  // namespace lodestone
