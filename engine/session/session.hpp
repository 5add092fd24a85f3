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
#include "engine/io/checkpoint.hpp"
#include "engine/step/simulation.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lodestone {

inline constexpr double kAlignmentThreshold = 0.95;  // <cos theta> defining tau_0.95 ([Erokhin-Berkov])

class Session {
 public:
  // Builds the scene of a preset (throws PresetError when it cannot be built). With
  // `particles.kind: "checkpoint"` the scene is the saved state, run with this preset's parameters.
  explicit Session(const Preset& preset);
  // Continues a checkpoint with its own preset: the next steps are bit-identical to those the saved
  // run would have made.
  explicit Session(const Checkpoint& checkpoint);

  void set_threads(int threads) { sim_.set_threads(threads); }
  int threads() const { return sim_.threads(); }

  // One time step, then the protocol and the timeline entries due. Does nothing when the state is unhealthy.
  void step();
  // Up to `steps` steps; stops early when a check fails. Returns the steps done.
  std::int64_t run(std::int64_t steps);

  const Simulation& simulation() const { return sim_; }
  const Model& model() const { return sim_.model(); }
  const State& state() const { return sim_.state(); }
  const StageTimings& timings() const { return sim_.timings(); }
  Observables observe() const { return lodestone::observe(model(), state()); }

  // The preset the scene was built from (its protocol included) with the timeline of parameter
  // changes made since (engine/io/preset_edits.hpp): what File > Save writes, and what replays this run
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

  // The parameters in force: the document's, with the changes of the protocol phases and timeline
  // entries so far applied in the order they came. What the app's panels show.
  const Preset& parameters() const { return in_force_; }
  // An edit of parameters() (a command from the app) at the current step: the changed values apply
  // now through Simulation::set_model and are recorded as a timeline entry at this step (the
  // document's own parameters stay as loaded), so that a save replays the run. Changes that do not act
  // on the run (description, display units, particle generator, run settings) go to the document
  // itself. An edit that changes nothing does nothing. Throws PresetError, changing nothing, also when
  // a later protocol phase's changes would not apply on top of the edit.
  void edit_parameters(const Preset& edited);

  // Particles edited directly (tests, tools): see Simulation::reinitialize.
  State& edit_state() { return sim_.edit_state(); }
  void reinitialize() { sim_.reinitialize(); }

 private:
  Session(const Preset& preset, std::vector<Preset> phase_presets);
  void restore(const Preset& saved_with, State state);
  void advance_protocol();
  void track_alignment();
  void start_phase(int phase);
  // Applies the timeline entries due at this step (before it); a failure stops the run.
  void apply_due_entries();
  void apply_parameters(Preset next);
  void stop(const std::string& message);
  int current_phase() const;  // the running protocol phase (the last one once finished), 0 without

  Preset document_;
  std::vector<Preset> phase_presets_;  // the preset each phase runs with (validated up front)
  Preset in_force_;                    // parameters(): no timeline
  std::vector<int> entry_phases_;      // the protocol phase each applied timeline entry was applied in
  std::uint64_t parameters_revision_ = 0;
  Simulation sim_;
};

}  // namespace lodestone
