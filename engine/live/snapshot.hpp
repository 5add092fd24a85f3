#pragma once
// A snapshot: what the GUI thread may see of the simulation. The simulation thread fills one
// and publishes it through a triple buffer (DESIGN: "Threads"); the renderer and the panels read
// only this, never live engine state. Particle data is float (GPU-friendly), SI units.

#include "engine/analysis/observables.hpp"
#include "engine/core/model.hpp"
#include "engine/live/commands.hpp"
#include "engine/output/field_slice.hpp"
#include "engine/output/frame_fields.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/session/autosave.hpp"
#include "engine/step/stage_timings.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lodestone {

struct ParticleSnapshot {
  std::vector<std::uint64_t> id;
  std::vector<float> position;          // [m]      (N x 3)
  std::vector<float> radius;            // [m]
  std::vector<float> velocity;          // [m/s]    (N x 3)
  std::vector<float> angular_velocity;  // [rad/s]  (N x 3)
  std::vector<float> easy_axis;         // unit     (N x 3)
  std::vector<float> moment;            // [A m^2]  (N x 3)
  std::vector<std::uint16_t> contacts;  // active contacts, walls included
  std::vector<std::uint8_t> hold;       // HoldKind bits (engine/core/hold.hpp): 0 free
  // Cluster of particles in contact (engine/analysis/clusters.hpp): its label (the smallest particle id in
  // it, so a cluster keeps its label, and its colour, while others join it) and its size.
  std::vector<std::uint64_t> cluster;
  std::vector<std::uint32_t> cluster_size;
  // Intact beam bonds ([Voxel-beams]) as pairs of indices into these arrays: (2 x B). Broken bonds are
  // counted in Observables::broken_bonds.
  std::vector<std::uint32_t> bonds;

  size_t size() const { return radius.size(); }
  // Dense index of a particle id in this snapshot, or -1.
  long index_of(std::uint64_t particle_id) const;
};

// The answer to an EvaluateField command.
struct FieldValues {
  std::vector<Vec3> points;  // [m] as asked
  std::vector<Vec3> field;   // [T] B at each point
  std::int64_t step = 0;     // the state they were evaluated in
  double time = 0.0;         // [s]
};

// The answer to a ComputeFieldView: |B| on the slice's grid and the field lines, float (for drawing).
struct FieldView {
  FieldSlice slice;                       // the grid, ranges set (engine/output/field_slice.hpp)
  std::vector<float> magnitude;           // [T] |B| at slice.point(i, j), index i + count[0] j; empty without a slice
  std::vector<std::uint8_t> inside;       // 1 where the point lies inside a particle (the interior field)
  float low = 0.0f, high = 0.0f;          // [T] smallest non-zero (>= 1e-4 high), largest outside particles
  std::vector<std::vector<float>> lines;  // [m] each line's points, x y z per point
  std::int64_t step = 0;                  // the state they were evaluated in
  double time = 0.0;                      // [s]
  double seconds = 0.0;                   // [s] wall time the evaluation took on the simulation thread
};

// The kept history of the run (engine/session/history.hpp) as the time slider and the Edit menu need it.
struct HistorySummary {
  std::vector<std::int64_t> steps;  // kept points, oldest first
  std::vector<double> times;        // [s] of the same points
  std::int64_t head_step = 0;       // the furthest step this branch reached
  double head_time = 0.0;           // [s] (the newest kept point's while the run is back in time)
  std::size_t bytes = 0, budget = 0;
  std::string next_undo, next_redo;  // descriptions, "" when there is nothing to undo / redo
};

// The answer to a command that carried a request id (the remote control waits for it).
struct Reply {
  std::uint64_t request = 0;
  bool ok = true;
  std::string text;  // "undone: field.strength 0.04 -> 0.025", the refusal's reason, a hash...
};

// A StepOnce being worked off (engine/live/step_requests.hpp): the panels' progress bar and Stop button, the status
// line, and the remote control's estimate.
struct StepProgress {
  std::uint64_t request = 0;
  std::int64_t asked_steps = 0;     // by count; 0 when by simulated time
  double asked_seconds = 0.0;       // [s] by simulated time; 0 when by count
  std::int64_t done_steps = 0;      // made so far
  double fraction = 0.0;            // of the request done, 0 to 1
  double steps_per_second = 0.0;    // this request's rate so far (0 before its first steps)
  double wall_seconds_left = -1.0;  // [s] estimated from that rate; < 0 before its first steps
  std::size_t waiting = 0;          // requests asked after it, not begun
};

// An edit held until the user confirms it (ApplyParameters::confirmed).
struct Confirmation {
  std::uint64_t edit_id = 0;             // 0: none waiting
  std::string text;                      // what the edit would do
  std::vector<ParameterChange> changes;  // the edit, to send again confirmed
  std::int64_t step = 0;                 // where it applies once confirmed: the run waits there meanwhile
  bool paused_run = false;               // the run was going and goes on once the edit is answered
};

struct Snapshot {
  std::uint64_t sequence = 0;  // counts publications
  std::int64_t step = 0;
  double time = 0.0;  // [s]
  ParticleSnapshot particles;
  Vec3 field = Vec3::Zero();             // [T] uniform part of B now
  Vec3 field_direction = Vec3::UnitZ();  // unit (the configured direction while B = 0)
  Observables observables;
  StageTimings timings;
  double steps_per_second = 0.0;  // measured while running
  double time_step = 0.0;         // [s] in use
  std::string phase_label;        // protocol phase ("2/4 drop"), "" without a protocol
  std::string waiting_button;     // the running phase waits for go: its button's words (GoOn); "" when it does not
  TimeStepAdvice advice;
  P3MTuning p3m;  // the P3M method's tuned parameters in force (magnetics.method p3m only)
  bool running = false;
  SetPace pace;  // how fast it runs (the scene's run.real_time_factor on load)
  Health health;
  // The scene document (what a save writes and a reset rebuilds: protocol and edits included),
  // and the parameters in force now, the running protocol phase's (what the panels show and
  // edit); new objects whenever either changes, counted by scene_revision.
  std::shared_ptr<const Preset> scene;
  std::shared_ptr<const Preset> in_force;
  std::uint64_t scene_revision = 0;
  std::string scene_source;       // file name, or "built-in default preset"
  std::uint64_t scene_loads = 0;  // scenes loaded so far (the first, then each LoadScene; not a reset):
                                  // a newly loaded scene has no unsaved changes
  // The edit_id of the last ApplyParameters handled (applied or refused): the GUI knows when the
  // scene here reflects all of its edits.
  std::uint64_t acknowledged_edit = 0;
  // The last command that was refused, with the reason (e.g. a preset that does not load), or what the
  // last undo or redo did (message_is_error false).
  std::string message;
  std::uint64_t message_revision = 0;
  bool message_is_error = true;
  // The last frame captured for an export (CaptureFrame), full precision, and the request it
  // answers; null until one is asked for. The same object stays in later snapshots.
  std::shared_ptr<const FrameFields> frame;
  std::uint64_t frame_request = 0;
  // The last EvaluateField's values and the request they answer; null until one is asked for. The same
  // object stays in later snapshots.
  std::shared_ptr<const FieldValues> field_values;
  std::uint64_t field_request = 0;
  // The last ComputeFieldView's answer and its request; null until one is asked for.
  std::shared_ptr<const FieldView> field_view;
  std::uint64_t field_view_request = 0;
  // The user's drag spring now (engine/bodies/touch.hpp): drawn from its anchor (the particle) to its target.
  DragSpring drag;
  // Rewind, undo and redo; null without history. A new object when it changes.
  std::shared_ptr<const HistorySummary> history;
  Reply reply;  // the last command with a request id (not StepOnce)
  // StepOnce: the request being worked off (null when none), and the last answer given to one ("step N now S", or
  // "stopped: ..."), kept apart from `reply` because other requests are answered while a long step goes on.
  std::optional<StepProgress> stepping;
  Reply step_reply;
  std::shared_ptr<const Confirmation> confirmation;  // the edit held for confirmation, null when none
  // The last CaptureAutosave's copy of the session (its info's saved_at left 0: the writer stamps the file) and the
  // request it answers; null until one is asked for. The same object stays in later snapshots.
  std::shared_ptr<const Autosave> autosave;
  std::uint64_t autosave_request = 0;
  bool restored = false;  // the scene came from an autosave (RestoreSession), not from a file: nothing saved yet
};

}  // namespace lodestone
