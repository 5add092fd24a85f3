#pragma once
// What the GUI may ask of the simulation thread (DESIGN: "UI changes are queued commands applied
// between steps"). A closed set; the simulation thread applies them in order.

#include "engine/scene/preset_edits.hpp"
#include "engine/session/history.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace lodestone {

// Replace the whole scene: parameters and particles (a preset loaded from a file, or the default).
struct LoadScene {
  Preset preset;
  std::string source;  // shown to the user: the file name
};
// Change parameters (materials, laws, field, damping, walls, time step...) of the running scene, each by its
// dotted path and a value as the user gave it ("field.strength": "40 mT"; engine/scene/preset_edits.hpp);
// particles and contact history are kept. Takes effect on the next step, and is recorded in the document's
// timeline at the current step, so a save replays the run (Session::apply). An edit that needs the user's word
// first (Session::edit_warning: a field far beyond any magnet, a collapsing time step; or an edit at a rewound
// step, which drops the run's old future) is held, not applied, until sent again with `confirmed`
// (Snapshot::confirmation says what it would do).
// While an edit is held the run waits at its step, so that it applies where the question said (a running scene
// goes on once it is answered: applied, or declined by DeclineEdit).
struct ApplyParameters {
  std::vector<ParameterChange> changes;
  std::uint64_t edit_id = 0;  // echoed as Snapshot::acknowledged_edit once applied, held or refused
  bool confirmed = false;
  std::uint64_t request = 0;  // answered in Snapshot::reply (0: no answer wanted)
};
// The reply's text to an ApplyParameters whose values were all in force already: nothing recorded, nothing to undo.
inline constexpr const char* kUnchangedReply = "unchanged";
// The user's "no" to the edit held for confirmation: it is dropped and a run it paused goes on.
struct DeclineEdit {
  std::uint64_t request = 0;
};
// Regenerate the particles of the current scene (time back to 0). The parameters in force are kept:
// the timeline entries applied so far are folded into the scene (Session::folded_document).
struct ResetScene {};
struct SetRunning {
  bool running = true;
};
// Pause, then advance a number of steps, or (seconds > 0) until that much simulated time has passed; worked off a
// frame at a time (engine/live/step_requests.hpp). Edits, touches and questions sent meanwhile apply between its
// steps; a StepOnce sent meanwhile waits its turn; a pause or run (SetRunning), a reset, a load, a rewind, going back,
// an undo or redo, or an edit held for confirmation ends it, answered "stopped: step N at step S after D steps
// (paused)".
struct StepOnce {
  int steps = 1;
  double seconds = 0.0;       // [s]
  std::uint64_t request = 0;  // answered in Snapshot::step_reply once the steps ran or were stopped
};

// Time travel in the kept history (engine/session/history.hpp, docs/history.md). The run keeps its
// running / paused state. A paused scene goes to the kept point at or before `step` at once and replays the steps
// from there like a StepOnce (a long replay shows its progress and can be stopped), answered in step_reply
// ("rewind T now S"); otherwise the answer ("now S") is in reply.
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

// Capture the current frame for an export (engine/output/frame_fields.hpp): the simulation thread fills
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

// Hands on the particles (Session "Hands on the particles", engine/bodies/touch.hpp): each applies between
// steps and is recorded in the document's timeline, so a saved session replays it. What was done, or why it
// was refused, comes back as Snapshot::reply for `request` (0: no answer wanted; a refusal then becomes
// Snapshot::message).
//
// Pull particle `particle_id` (a pebble: its clump) toward `target` with the drag spring; sent again as the
// cursor moves. `relative_stiffness` 1 is the default feel (the stiffness follows the mass pulled).
struct DragParticle {
  std::uint64_t request = 0;
  std::uint64_t particle_id = 0;
  Vec3 target = Vec3::Zero();  // [m]
  double relative_stiffness = 1.0;
};
struct ReleaseDrag {
  std::uint64_t request = 0;
};
// A particle (a list-generator entry: position, radius, material, moment, axis), or with `copy_of` a copy of
// that particle (material, radius, moment, easy axis) at `particle.position`; refused when it would overlap.
struct AddParticle {
  std::uint64_t request = 0;
  ParticleEntry particle;
  std::optional<std::uint64_t> copy_of;
};
// A clump (a bar or cube magnet: a `clumps` entry), refused when it would overlap.
struct AddClump {
  std::uint64_t request = 0;
  ClumpEntry clump;
};
// Remove the particle, or the whole clump it is a pebble of (its bonds break and are counted).
struct DeleteBody {
  std::uint64_t request = 0;
  std::uint64_t particle_id = 0;
};

// Hold the particle still (its position, orientation or both; engine/core/hold.hpp), or let it go (None); a
// clump's pebble is refused. Answered like the other touches.
struct HoldParticle {
  std::uint64_t request = 0;
  std::uint64_t particle_id = 0;
  HoldKind hold = HoldKind::Both;
};

// A protocol phase that waits for the user ends now and the next starts (Session::go: the teacher's "switch the
// field on" button, the remote verb go), recorded in the timeline; refused when the running phase does not wait.
struct GoOn {
  std::uint64_t request = 0;
};

// The View panel's field view (issue 22): |B| on an axis-aligned slice through the scene and field lines seeded
// on it, evaluated from the simulation's own state (engine/magnetic/field_evaluation.hpp,
// engine/analysis/field_lines.hpp) and published as Snapshot::field_view with Snapshot::field_view_request.
struct ComputeFieldView {
  std::uint64_t request = 0;
  bool slice = true;      // |B| on the slice
  bool lines = true;      // field lines from seeds on the slice plane
  int axis = 2;           // the slice's normal: 0 x, 1 y, 2 z
  double at = 0.0;        // [m] its position along the normal
  int resolution = 64;    // points along each in-plane axis, 2 to 256
  int seeds[2] = {8, 6};  // line seeds along the in-plane axes (a grid over the slice), each 1 to 32
};

// Autosave (issue 41, engine/session/autosave.hpp): hand over a copy of the session now (the document and the point of
// its run) as Snapshot::autosave with Snapshot::autosave_request = request; the GUI gives it to the writer thread
// (engine/live/autosave_writer.hpp), so that neither thread waits for the disk.
struct CaptureAutosave {
  std::uint64_t request = 0;
};
// Replace the scene by an autosaved session, going on from its point exactly as the run would have (Session(document,
// point)); paused. Counted as a load. Answered in Snapshot::reply with the step restored, or the refusal.
struct RestoreSession {
  Preset document;
  SessionPoint point;
  std::string source;  // the file the session came from, as the autosave says
  std::string note;    // told the user once restored: "restored the session of 14:32 (t = 0.35 s)"
  std::uint64_t request = 0;
};

using Command =
    std::variant<LoadScene, ApplyParameters, ResetScene, SetRunning, StepOnce, SetPace, CaptureFrame, EvaluateField,
                 Rewind, Undo, Redo, GoBack, HashState, DragParticle, ReleaseDrag, AddParticle, AddClump, DeleteBody,
                 ComputeFieldView, DeclineEdit, CaptureAutosave, RestoreSession, HoldParticle, GoOn>;

}  // namespace lodestone
