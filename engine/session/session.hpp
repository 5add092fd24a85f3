#pragma once
// A Session is a scene being run: the document it was built from (a preset as loaded, protocol and
// timeline included), the parameters in force, the protocol's progress and the timeline of edits, with
// the Simulation (engine/step/simulation.hpp) that advances its particles. The app, the runner and the
// tests run sessions; what changes the run from outside (an edit, a protocol phase, a timeline entry)
// goes through here, so that a saved document replays the run.
//
// A preset with a protocol runs its phases in order: each starts by applying its changes to the
// preset's parameters and ends after its duration or when its condition holds ([Erokhin-Berkov] Sec. 3).
// Timeline entries (docs/session-log.md) apply just before the step they were recorded at.

#include "engine/analysis/observables.hpp"
#include "engine/core/preset.hpp"
#include "engine/scene/checkpoint.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/touch_actions.hpp"
#include "engine/session/history.hpp"
#include "engine/session/undo.hpp"
#include "engine/step/simulation.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lodestone {

inline constexpr double kAlignmentThreshold = 0.95;  // <cos theta> defining tau_0.95 ([Erokhin-Berkov])

// An edit worked out and checked once, not yet made (Session::prepare_edit): what it changes, the parameters and
// the model it gives. The simulation thread and Python ask whether it wants confirming (Session::edit_warning),
// then make it (Session::apply_prepared) without reading, checking or building anything again.
struct PreparedEdit {
  std::vector<ParameterChange> changes;  // as asked
  EditRecord record;                     // what it changes (record.after empty: nothing)
  Preset next;                           // the parameters in force after it
  std::optional<Preset> document;        // the document after it, when it changes the document itself
  std::vector<Preset> phases;            // ... and then its phases' presets
  std::optional<Model> model;            // the model of `next`, when it changes the run
  json run_set = json::object();         // the timeline entry's changes
  std::uint64_t prepared_at = 0;         // Session::parameters_revision() it was worked out against
  std::int64_t step = 0;                 // ... and the step
  bool changes_nothing() const { return record.after.empty(); }
};

class Session {
 public:
  // Builds the scene of a preset (throws PresetError when it cannot be built). With
  // `particles.kind: "checkpoint"` the scene is the saved state, run with this preset's parameters.
  explicit Session(const Preset& preset);
  // Continues a checkpoint with its own preset: the next steps are bit-identical to those the saved
  // run would have made.
  explicit Session(const Checkpoint& checkpoint);
  // Continues `document` (a session, its timeline whole) from a point of its run: the state, the parameters in force
  // and the timeline entries applied by then, as the history keeps them (point()). The next steps are those the run
  // that took the point would have made, bit for bit, as after a rewind to it (an autosave restored:
  // engine/session/autosave.hpp). Throws PresetError when the point does not belong to the document.
  Session(const Preset& document, const SessionPoint& point);
  ~Session();
  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;

  void set_threads(int threads) { sim_.set_threads(threads); }
  int threads() const { return sim_.threads(); }

  // One time step, then the protocol and the timeline entries due, then a history point when one is
  // due. Does nothing when the state is unhealthy; when this step fails a check and an edit was applied
  // shortly before, the message names the edit.
  void step();
  // Up to `steps` steps; stops early when a check fails. Returns the steps done.
  std::int64_t run(std::int64_t steps);

  const Simulation& simulation() const { return sim_; }
  // The session now as a history point (a copy of the state, the parameters in force, the entries applied): with
  // document() everything Session(document, point) needs to go on from here.
  SessionPoint point() const;
  const Model& model() const { return sim_.model(); }
  const State& state() const { return sim_.state(); }
  const StageTimings& timings() const { return sim_.timings(); }
  Observables observe() const { return lodestone::observe(model(), state()); }

  // The preset the scene was built from (its protocol included) with the timeline of parameter
  // changes made since (engine/scene/preset_edits.hpp): what File > Save writes, and what replays this run
  // from its start.
  const Preset& document() const { return document_; }
  // The document with the timeline entries applied so far folded into its parameters (the rest kept
  // in its timeline): what a checkpoint of now stores and what a reset restarts from, with the
  // parameters in force.
  Preset folded_document() const;
  // Timeline entries of the document applied so far (the rest wait for their step).
  std::size_t timeline_applied() const { return entry_phases_.size(); }
  // Counts changes of parameters() (an edit, a phase start, a timeline entry).
  std::uint64_t parameters_revision() const { return parameters_revision_; }

  // Protocol ([Erokhin-Berkov] Sec. 3). Without one: a single open-ended phase.
  int phase_count() const { return static_cast<int>(document_.protocol.size()); }
  std::string phase_label() const;  // "2/3 drop", or "" without a protocol
  bool protocol_finished() const { return state().protocol_finished; }
  // A phase with `wait` (a teacher's "switch the field on" button): a session that holds such phases (the app's)
  // keeps running in one, past its duration and whatever its condition, until go(); one that does not (the runner,
  // Python, the tests by default) ends it as any phase, unless the timeline still has a go to apply, which then
  // ends it at its recorded step: a saved session replays bit for bit in both.
  void hold_waiting_phases(bool hold) { hold_waiting_phases_ = hold; }
  // The running phase waits for go() (it has `wait` and the protocol has not finished).
  bool phase_waits() const;
  // Ends the waiting phase now and starts the next (the protocol finishes after the last), recorded as a timeline
  // entry {"touch": {"go": {}}} at this step; returns what it did. Throws PresetError, changing nothing, when the
  // running phase does not wait.
  std::string go();

  // The parameters in force: the document's, with the changes of the protocol phases and timeline
  // entries so far applied in the order they came. What the app's panels show. Without the generator's list of
  // particles, which only the document keeps (the particles themselves are in the state).
  const Preset& parameters() const { return in_force_; }
  // An edit of parameters() at the current step (the app's panels, the remote and Python `set`): each change a
  // dotted path and a value as the user gave it ("field.strength": "40 mT"), read by that field's reader, so that
  // only the sections it touches are checked again. The changed values apply now through Simulation::set_model and
  // are recorded as a timeline entry at this step (the document's own parameters stay as loaded), so that a save
  // replays the run. Changes that do not act on the run (description, display units, particle generator, run
  // settings) go to the document itself. An edit that changes nothing does nothing. Throws PresetError, changing
  // nothing, also when a later protocol phase's changes would not apply on top of the edit.
  //
  // The edit can be undone (undo()). Made at an earlier step than head_step() (after a rewind) it starts
  // a new branch: the kept history after this step and the timeline entries the old future had reached
  // are dropped. Made while the run is stopped by a failed check, it first takes the run back: to
  // before the edit that most likely caused the failure (one applied shortly before it, whose entry is
  // then replaced by this edit), or else to the last kept point (the last good state), so that fixing
  // the value that caused the failure lets the run go on.
  void apply(const std::vector<ParameterChange>& changes);
  // The same edit in two halves: worked out (throws PresetError, changing nothing), then made. One prepared
  // before the session moved on (a step, another edit, a failed check's way back) is worked out again.
  PreparedEdit prepare_edit(const std::vector<ParameterChange>& changes) const;
  void apply_prepared(PreparedEdit edit);
  // A whole edited preset (tests, tools): its differences from parameters() (parameter_changes), applied as one edit.
  void edit_parameters(const Preset& edited);
  // The value in force at a dotted path, as a save writes it (SI); the generator's list of particles is the
  // document's. Throws PresetError naming the path when nothing is there.
  json value_at(const std::string& path) const;
  // What an edit would do that the user should confirm first (a field far beyond any laboratory magnet,
  // a time step that collapses, a fixed time step far above the stable one), or nothing. Advisory: an
  // edit that cannot apply at all is left to apply() to refuse.
  std::optional<std::string> edit_warning(const PreparedEdit& edit) const;
  std::optional<std::string> edit_warning(const Preset& edited) const;

  // Undo the last edit / redo the last undone one (engine/session/undo.hpp); returns the description of
  // what changed, or nothing when there is nothing to undo or redo. Throws PresetError when the values
  // cannot apply any more (a protocol phase in between refuses them).
  std::optional<std::string> undo();
  std::optional<std::string> redo();
  const UndoStack& edits() const { return undo_; }

  // History (engine/session/history.hpp, docs/history.md): none until enabled (the runner keeps none).
  void enable_history(std::size_t budget_bytes = History::kDefaultBudget);
  const History* history() const { return history_.get(); }
  // The furthest step this branch of the run has reached; a rewind does not lower it.
  std::int64_t head_step() const { return head_step_; }
  // Restores the state at `step`, from the first kept step to head_step(): the nearest kept point at or
  // before it, then steps forward, replaying the timeline entries on the way, so the state is exactly the
  // one the run had. Throws PresetError naming the step and the range allowed.
  void rewind(std::int64_t target);
  // The same range, but to the newest kept point at or before `target` and no further: no steps, so it
  // is instant whatever the spacing of the points (the time slider while it is dragged).
  void rewind_to_kept(std::int64_t target);
  // Back by `seconds` of simulated time: to the newest kept point at least that far before now (the
  // first kept point when none is). Recovery after a failed check; returns the step reached.
  std::int64_t go_back(double seconds);
  // Recovery after a failed check: removes the last timeline entry applied (the edit that most likely
  // caused the failure) and restores the run to its step without it. Returns the entry's description;
  // throws PresetError when no edit was applied or no history is kept.
  std::string go_back_before_last_edit();

  // Hands on the particles (engine/bodies/touch.hpp, issue 22). Each applies now, between steps, and is
  // recorded as a touch entry of the timeline at this step (engine/scene/touch_actions.hpp), so that a saved
  // session replays it bit for bit; each returns what it did in one line, or throws PresetError naming the
  // value and what is allowed, changing nothing. Adds and deletes can be undone (undo(): exactly while still
  // at their step, later by the inverse action); a drag is a gesture, not an edit, and is not.
  //
  // Drag: a damped spring pulls the particle (a pebble: its clump) toward `target` [m], its stiffness scaled
  // to the mass pulled; `relative_stiffness` 1 is the default feel, allowed [kDragMinScale, kDragMaxScale].
  // Called again it moves the target (calls at one step make one entry). release() lets go; let go at the step of
  // the grab (paused: no step felt it), the pull leaves nothing, no entry and no undo record.
  std::string drag(std::uint64_t particle_id, const Vec3& target, double relative_stiffness = 1.0);
  std::string release();
  // A particle of a list-generator entry (material, radius, moment, axis, velocity), with an id never used
  // before in this run; refused when it would overlap another particle or not be inside the box.
  std::string add_particle(const ParticleEntry& entry);
  // A copy of particle `of_id` (material, radius, moment, easy axis; at rest) at `position` [m].
  std::string add_copy(std::uint64_t of_id, const Vec3& position);
  // A clump (a `clumps` entry: a bar or cube magnet, or a list of pebbles), refused like a particle.
  std::string add_clump(const ClumpEntry& entry);
  // Removes the particle, or the whole clump it is a pebble of; beam bonds to it break and are counted
  // (State::broken_bonds).
  std::string delete_body(std::uint64_t particle_id);
  // Holds the particle's position, orientation or both still from now on (engine/core/hold.hpp), or lets it go
  // (HoldKind::None); the held velocities become zero and the kinetic energy they had is booked as
  // EnergyLedger::hold_work. Free spheres only: a clump's pebble is refused. Undone by the hold it had before.
  std::string hold(std::uint64_t particle_id, HoldKind what);
  // The id the next add gives its (first) particle: above every id this run has used.
  std::uint64_t next_particle_id() const;

  // Particles edited directly (tests, tools): see Simulation::reinitialize.
  State& edit_state() { return sim_.edit_state(); }
  void reinitialize() { sim_.reinitialize(); }

 private:
  Session(const Preset& preset, std::vector<Preset> phase_presets);
  void restore(const Preset& saved_with, State state);
  // After each step, on the simulation's team (Simulation::run_after_step).
  void advance_protocol(ThreadTeam& team);
  void track_alignment(ThreadTeam& team);
  void start_phase(int phase);
  // Applies the timeline entries due at this step (before it); a failure stops the run.
  void apply_due_entries();
  // The parameters in force become `next`: a timeline entry as the edit it records did (the state brought up to
  // date by the next step unless the lists' ranges or the particles change); a protocol phase at once, rebuilding
  // the lists (as it always has: its trajectories stay the same bits).
  void apply_parameters(Preset next, Simulation::ModelRefresh refresh);
  void stop(const std::string& message);
  // What `changes` would change, value by value at the finest level (engine/scene/preset_edits.hpp, changes_made):
  // empty when they change nothing. Throws PresetError for a path or value that cannot apply.
  // `before`, when given, gets the values before at the same paths.
  std::vector<ParameterChange> changes_made_by(const std::vector<ParameterChange>& changes,
                                               json* before = nullptr) const;
  // The edit of apply(), without touching the undo stack: the record of what it changed (nothing when it changed
  // nothing).
  std::optional<EditRecord> change(PreparedEdit edit);
  // Continues from a kept point (the simulation remade from its state, the threads kept).
  void restore_point(const SessionPoint& p);
  // The session just before `edit`, still at its step (edit.before_point): its timeline entry removed, the kept
  // history after it dropped (an exact undo; a pull let go where it was grabbed).
  void back_to_before(const EditRecord& edit);
  // An edit at a step before head_step(): the old future is dropped (history, reached timeline entries, edits).
  void start_branch_here();
  // Drops the timeline entries past those applied now that the run had reached (an old future).
  void drop_reached_future();
  // The run stopped because the timeline entry due next could not apply (an old or loaded future that a later
  // change made impossible, e.g. an add above a lid set since).
  bool entry_failed_to_apply() const;
  // Recovery from that: the entry is dropped and the run goes on to its step from a kept point without it.
  // Returns what was dropped; throws PresetError without a history reaching back to before it.
  std::string drop_entry_that_cannot_apply();
  // Timeline entry k in words: its undo record's description, the touch described, or "path = value; ...".
  std::string entry_description(size_t k) const;
  // Checks a rewind's target against the kept range (PresetError naming the range) and keeps the newest
  // state of the branch before leaving it. False when the run is already there.
  bool leave_for(std::int64_t target);
  // Takes the run back to the step of timeline entry k without it and without the entries the run reached
  // after it (history, edits and entries of that future dropped; the edits made at its step itself are kept
  // with `keep_edits_at_its_step`: an exact undo of the last of them). Throws PresetError without a history
  // reaching back before it.
  void go_back_before_entry(size_t k, bool keep_edits_at_its_step = false);
  // The kept point the run goes back to for that (null when the history does not reach before entry k).
  const SessionPoint* kept_before(size_t k) const;
  bool reaches_before(size_t k) const { return kept_before(k) != nullptr; }
  // A run stopped by a failed check, before an edit or an undo: see edit_parameters. Returns the
  // description of the edit it went back before, if it did.
  std::optional<std::string> go_back_to_good_state();
  // The last timeline entry applied, if it came shortly enough before a failure to be its likely cause.
  bool last_entry_likely_cause() const;
  // Appends to a failed check's message the edit applied shortly before it, if any.
  void name_likely_cause();
  int current_phase() const;  // the running protocol phase (the last one once finished), 0 without
  // A touch applied to the state (checks first; throws PresetError naming `where`, changing nothing), by kind
  // (engine/session/session_touch.cpp).
  std::string apply_touch(const TouchAction& action, const std::string& where);
  std::string touch_drag(const TouchAction& action, const std::string& where);
  std::string touch_release(const std::string& where);
  std::string touch_add(const TouchAction& action, const std::string& at);
  std::string touch_add_clump(const TouchAction& action, const std::string& at);
  std::string touch_delete(const TouchAction& action, const std::string& where);
  std::string touch_hold(const TouchAction& action, const std::string& where);
  std::string touch_go(const std::string& where);
  // A go entry of the timeline not yet applied: a session that does not hold waiting phases holds them for it.
  bool go_pending() const;
  // The checks before a touch: a sphere inside the box and touching nothing, a material that exists, free ids.
  void check_place(const Vec3& x, double radius, const std::string& at) const;
  void check_material(const std::string& name, const std::string& at) const;
  void check_free_ids(std::uint64_t first, size_t count, const std::string& at) const;
  PresetError no_such_particle(std::uint64_t id, const std::string& at) const;
  // apply_touch, then the touch entry at this step (a new branch when rewound); `undoable`: also the record
  // an undo needs (the session before it, the inverse action), returned for the undo stack.
  std::optional<EditRecord> touch(const TouchAction& action, bool undoable);
  // The action that takes back `action` later on (a delete for an add; the particle or clump as it is now
  // re-added for a delete); nothing for a drag or a release.
  std::optional<TouchAction> inverse_of(const TouchAction& action) const;
  // A release at the step of its grab: the pull taken back whole (release()); false when it was felt by a step.
  bool let_go_where_grabbed();
  // An add whose ids are taken by now (a redo after other adds) gets fresh ones.
  TouchAction with_free_ids(TouchAction action) const;

  Preset document_;
  std::vector<Preset> phase_presets_;  // the preset each phase runs with (validated up front)
  Preset in_force_;                    // parameters(): no timeline
  std::vector<int> entry_phases_;      // the protocol phase each applied timeline entry was applied in
  std::uint64_t parameters_revision_ = 0;
  Simulation sim_;
  std::unique_ptr<History> history_;  // null: none kept
  std::int64_t head_step_ = 0;
  UndoStack undo_;
  std::uint64_t id_floor_ = 0;  // ids below this were given out or removed in this run (next_particle_id)
  bool hold_waiting_phases_ = false;
};

}  // namespace lodestone
