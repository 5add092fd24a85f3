#pragma once
// A Simulation owns one Model and one State and advances them. The step is a fixed list of
// named, timed stages (STYLE 8):
//   integrate (first half) -> neighbours -> moments -> contacts -> dipoles -> bonds -> field & body forces
//   (the floor, seed 003, last among them)
//   -> integrate (second half) -> checks
// The overdamped scheme runs the force stages twice (Heun's predictor and the new positions).
// A run that fails a check stops stepping and keeps the message in state().health.
// A preset with a protocol runs its stages in order: each starts by applying its changes to the
// preset's parameters and ends after its duration or when its condition holds.

#include "engine/checkpoint.hpp"
#include "engine/model.hpp"
#include "engine/observables.hpp"
#include "engine/preset.hpp"
#include "engine/state.hpp"
#include "engine/thread_team.hpp"

#include <array>
#include <cstddef>
#include <memory>
#include <vector>
#include <cstdint>
#include <string_view>

namespace lodestone {

inline constexpr double kAlignmentThreshold = 0.95;  // <cos theta> defining tau_0.95 (seed 004)

enum class Stage : int { Integrate, Neighbors, Moments, Contacts, Dipoles, Bonds, BodyForces, Checks, Count };
inline constexpr int kStageCount = static_cast<int>(Stage::Count);
std::string_view stage_name(Stage s);

struct StageTimings {
  std::array<double, kStageCount> total_seconds{};  // since construction
  std::array<double, kStageCount> last_seconds{};   // the last step
  std::int64_t steps = 0;
};

class StageClock;

class Simulation {
 public:
  // Builds the scene of a preset (throws PresetError when it cannot be built). With
  // `particles.kind: "checkpoint"` the scene is the saved state, run with this preset's parameters.
  explicit Simulation(const Preset& preset);
  // Continues a checkpoint with its own preset: the next steps are bit-identical to those the saved
  // run would have made.
  explicit Simulation(const Checkpoint& checkpoint);
  // A scene from parts (tests, tools). The model is prepared for the particles.
  Simulation(Model model, Particles particles);

  // Threads that advance the scene (engine/thread_team.hpp), 1 by default. With the same count two runs
  // are bit-identical; different counts agree to round-off.
  void set_threads(int threads);
  int threads() const { return team_ ? team_->size() : 1; }

  // One time step. Does nothing when the state is unhealthy.
  void step();
  // Up to `steps` steps; stops early when a check fails. Returns the steps done.
  std::int64_t run(std::int64_t steps);

  const Model& model() const { return model_; }
  // The preset the scene was built from (its protocol included) with the timeline of parameter
  // changes made since (engine/timeline.hpp): what File > Save writes, and what replays this run
  // from its start.
  const Preset& document() const { return document_; }
  // The document with the timeline entries applied so far folded into its parameters (the rest kept
  // in its timeline): what a checkpoint of now stores and what a reset restarts from, with the
  // parameters in force.
  Preset folded_document() const;
  // Timeline entries of the document applied so far (the rest wait for their step).
  std::size_t timeline_applied() const { return entry_stages_.size(); }
  // Counts changes of parameters() (an edit, a stage start, a timeline entry).
  std::uint64_t parameters_revision() const { return parameters_revision_; }
  const State& state() const { return state_; }
  Observables observe() const { return lodestone::observe(model_, state_); }
  const StageTimings& timings() const { return timings_; }

  // Protocol (seed 004 Sec. 3). Without one: a single open-ended stage.
  int stage_count() const { return static_cast<int>(protocol_.size()); }
  std::string stage_label() const;  // "2/3 drop", or "" without a protocol
  bool protocol_finished() const { return state_.protocol_finished; }

  // The parameters in force: the document's, with the changes of the protocol stages and timeline
  // entries so far applied in the order they came. What the app's panels show.
  const Preset& parameters() const { return in_force_; }
  // An edit of parameters() (a command from the app) at the current step: the changed values apply
  // now through set_model and are recorded as a timeline entry at this step (the document's own
  // parameters stay as loaded), so that a save replays the run. Changes that do not act on the run
  // (description, display units, particle generator, run settings) go to the document itself. An
  // edit that changes nothing does nothing. Throws PresetError, changing nothing, also when a later
  // protocol stage's changes would not apply on top of the edit.
  void edit_parameters(const Preset& edited);

  // Replaces the parameters (a command from the app): the derived tables are rebuilt, the
  // particles and their contact history are kept; particles follow edits of their material's
  // density (mass, inertia) and magnetisation (moment scaled by M_new / M_old, or M V along the
  // easy axis when it was zero). Throws PresetError, leaving the old model.
  void set_model(const Model& model);
  // After editing particles directly: re-prepare, rebuild lists, recompute forces at this time.
  State& edit_state() { return state_; }
  void reinitialize();

 private:
  Simulation(const Preset& preset, std::vector<Preset> stage_presets);
  void restore(const Preset& saved_with, State state);
  // `trial`: Heun's predictor pass, whose results the step puts back (the dipole stage keeps no history of it).
  void compute_forces(double dt, StageClock* clock, bool trial = false);
  void step_verlet(StageClock& clock);
  void step_overdamped(StageClock& clock);
  void advance_protocol();
  void track_alignment();
  void start_stage(int stage);
  // Applies the timeline entries due at this step (before it); a failure stops the run.
  void apply_due_entries();
  void apply_parameters(Preset next);
  int current_stage() const;  // the running protocol stage (the last one once finished), 0 without

  Preset document_;
  std::vector<ProtocolStage> protocol_;
  std::vector<Preset> stage_presets_;  // the preset each stage runs with (validated up front)
  Preset in_force_;                    // parameters(): no timeline
  std::vector<int> entry_stages_;      // the protocol stage each applied timeline entry was applied in
  std::uint64_t parameters_revision_ = 0;
  Model model_;
  State state_;
  StageTimings timings_;
  std::unique_ptr<ThreadTeam> team_;  // null: one thread (a copy of a Simulation would share nothing: move-only)
  ThreadTeam& team() { return team_ ? *team_ : ThreadTeam::serial(); }
};

}  // namespace lodestone
