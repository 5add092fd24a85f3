#pragma once
// A Simulation owns one Model and one State and advances them. The step is a fixed list of
// named, timed stages:
//   integrate (first half) -> neighbours -> moments -> contacts -> dipoles -> bonds -> field & body forces
//   (the floor, [Voxel-beams], last among them)
//   -> integrate (second half) -> checks
// The overdamped scheme runs the force stages twice (Heun's predictor and the new positions).
// A run that fails a check stops stepping and keeps the message in state().health.
// What a scene file adds (the document, the protocol, the timeline of edits) is the Session's
// (engine/session/session.hpp), which owns a Simulation.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"
#include "engine/step/stage_timings.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

namespace lodestone {

class StageClock;
struct OverdampedScratch;
struct PredictedVelocities;
class ClumpPebbles;

class Simulation {
 public:
  Simulation();  // no particles
  ~Simulation();
  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) noexcept;
  // A scene from parts: the model is prepared for the particles (throws PresetError when it does not
  // fit them), neighbour lists are built, forces computed and the state checked.
  Simulation(Model model, Particles particles);
  // The same with a whole state (bonds, clumps, the protocol's progress), e.g. a generated scene.
  Simulation(Model model, State state);
  // Continues a saved state with the parameters it was saved with: lists, forces and contact history
  // are taken as they were, so the next steps are bit-identical to those the saved run would have made.
  static Simulation continue_saved(Model model, State state);

  // Threads that advance the scene (engine/core/thread_team.hpp), 1 by default. With the same count two runs
  // are bit-identical; different counts agree to round-off.
  void set_threads(int threads);
  int threads() const { return team_ ? team_->size() : 1; }

  // One time step. Does nothing when the state is unhealthy.
  void step();
  // The session's own work after a step (engine/session/session.cpp: the alignment time, the protocol's end
  // conditions), on the team and charged to the last step's Stage::Protocol, so that a step's time counts all of it.
  void run_after_step(const std::function<void(ThreadTeam&)>& work);
  // Up to `steps` steps; stops early when a check fails. Returns the steps done.
  std::int64_t run(std::int64_t steps);

  const Model& model() const { return model_; }
  const State& state() const { return state_; }
  const StageTimings& timings() const { return timings_; }

  // Replaces the parameters: the derived tables are rebuilt, the particles and their contact history
  // are kept; particles follow edits of their material's density (mass, inertia) and magnetisation
  // (moment scaled by M_new / M_old, or M V along the easy axis when it was zero); the forces are computed
  // again with the new model. Throws PresetError, leaving the old model.
  //
  // ModelRefresh::Now rebuilds the neighbour lists and computes the forces at once (a protocol phase, a restart
  // with other parameters). ModelRefresh::Deferred is an edit's: the lists are rebuilt only when the new model
  // changes their ranges, and when it changes neither their ranges nor what the particles carry nor the walls' or
  // the lid's presence (a field strength, a friction, a damping, a pressure) only the model is replaced: the state is
  // brought up to date by the next step, first (state().model_change_pending), so an edit costs no pass over the
  // particles and, until that step, can be taken back exactly by restore_model.
  enum class ModelRefresh { Now, Deferred };
  void set_model(const Model& model, ModelRefresh refresh = ModelRefresh::Now);
  // True when set_model(model, ModelRefresh::Deferred) would replace only the model.
  bool defers(const Model& model) const;
  // Brings the state up to date with a deferred model change now (the next step does it first otherwise).
  void apply_pending_model_change() {
    if (state_.model_change_pending) apply_model_change(/*keep_lists=*/true);
  }
  // Takes back models that set_model deferred, while state().model_change_pending and before any step: the model
  // and the pending flag as they were (pending: a deferred change before those was still waiting).
  void restore_model(Model model, bool pending);
  // After editing particles directly: re-prepare, rebuild lists, recompute forces at this time.
  State& edit_state() { return state_; }
  void reinitialize();

 private:
  // `trial`: Heun's predictor pass, whose books the step puts back (the contact stages leave their histories as they
  // were and the dipole stage keeps no history of it). `predict`: velocity Verlet's pass between the half kicks; the
  // dashpots see the velocities predicted for the end of the step (engine/step/integrator.hpp
  // predict_and_clear_forces).
  void compute_forces(double dt, StageClock* clock, bool trial = false, bool predict = false);
  void step_verlet(StageClock& clock);
  void step_overdamped(StageClock& clock);
  // Prepares the model for the particles as they are.
  void prepare();
  // One wall contact record per particle and side when the box has a wall (kept when the count is right).
  void size_wall_history();
  // What a new model changes in the state: walls, lid, energy reference, lists (rebuilt unless `keep_lists`) and
  // the forces; clears state().model_change_pending.
  void apply_model_change(bool keep_lists);

  Model model_;
  State state_;
  StageTimings timings_;
  std::unique_ptr<OverdampedScratch> overdamped_;   // buffers of the overdamped step, made at its first step
  std::unique_ptr<PredictedVelocities> predicted_;  // the dashpots' velocities of a Verlet step (nothing lasts)
  std::unique_ptr<ClumpPebbles> clump_pebbles_;     // each clump's pebbles, for its force sums (derived, kept)
  // True from a Verlet step's first half, which predicted the velocities, to its force pass, unless the lists' rebuild
  // between them sorted the particles (integrate_first_half).
  bool predictions_current_ = false;
  // The last contact pass's runaway-overlap answer (RunawayOverlapWatch): the checks take it when that pass saw the
  // positions they check (the last force pass of a step: nothing moves the particles after it).
  std::optional<size_t> first_too_deep_pair_;
  std::unique_ptr<ThreadTeam> team_;  // null: one thread (a copy of a Simulation would share nothing: move-only)
  ThreadTeam& team() { return team_ ? *team_ : ThreadTeam::serial(); }
};

}  // namespace lodestone
