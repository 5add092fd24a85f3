#pragma once
// The simulation thread of the desktop app: it owns the Session, drains the command queue
// between steps, advances at the requested pace, and publishes snapshots (at most every 1/60 s
// while running) into a triple buffer. The GUI thread pushes commands and takes the newest
// snapshot; neither waits for the other, and nothing else is shared (ThreadSanitizer-clean).

#include "engine/core/thread_team.hpp"
#include "engine/live/command_queue.hpp"
#include "engine/live/commands.hpp"
#include "engine/live/snapshot.hpp"
#include "engine/live/step_requests.hpp"
#include "engine/live/triple_buffer.hpp"
#include "engine/session/session.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace lodestone {

class SimulationThread {
 public:
  // Builds the scene on the calling thread (throws PresetError when it cannot be built), then
  // starts the thread, paused unless `start_running` (and paused when the preset says view.start_paused; a scene loaded
  // later by a command pauses too when it says so). The engine uses `engine_threads` threads of its own
  // (engine/core/thread_team.hpp) for this scene and every scene loaded later, and keeps a history of
  // each run within `history_budget` bytes (engine/session/history.hpp).
  SimulationThread(const Preset& preset, std::string source, bool start_running = true, int engine_threads = 1,
                   std::size_t history_budget = History::kDefaultBudget);
  ~SimulationThread();  // stops and joins
  SimulationThread(const SimulationThread&) = delete;
  SimulationThread& operator=(const SimulationThread&) = delete;

  // [GUI thread] Queues a command; it runs before the next step.
  void push(Command command);
  // [GUI thread] Takes the newest published snapshot; returns true if it is new.
  bool update_snapshot() { return snapshots_.fetch(); }
  const Snapshot& snapshot() const { return snapshots_.read_buffer(); }
  // [GUI thread] Called on the simulation thread after each snapshot is published (empty: none), so that a waiting
  // reader can take it at once instead of polling. It must only hand the news to the reader's thread (a queued
  // call); it is never called after this returns with a new listener.
  void on_publish(std::function<void()> listener);

 private:
  void run();
  void apply(Command& command);
  // One handler per command (engine/live/commands.hpp); a PresetError it throws is refused by apply().
  void handle(const LoadScene& c);
  void handle(const ApplyParameters& c);
  void handle(const ResetScene& c);
  void handle(const SetRunning& c);
  void handle(const StepOnce& c);
  void handle(const Rewind& c);
  void handle(const Undo& c);
  void handle(const Redo& c);
  void handle(const GoBack& c);
  void handle(const HashState& c);
  void handle(const SetPace& c);
  void handle(const CaptureFrame& c);
  void handle(const EvaluateField& c);
  void handle(const ComputeFieldView& c);
  void handle(const DragParticle& c);
  void handle(const ReleaseDrag& c);
  void handle(const AddParticle& c);
  void handle(const AddClump& c);
  void handle(const DeleteBody& c);
  void handle(const HoldParticle& c);
  void handle(const GoOn& c);
  void handle(const DeclineEdit& c);
  void handle(const CaptureAutosave& c);
  void handle(const RestoreSession& c);
  void undo_or_redo(bool undo, std::uint64_t request);
  void advance_running();
  // Why `c` ends the StepOnce requests under way ("paused", "reset"...: it takes the clock), or null when they go on
  // with `c` applied between their steps.
  const char* ends_steps(const Command& c) const;
  void publish();
  void refuse(const std::string& message);
  // Runs a touch on the session and keeps its answer for the snapshot (a refusal without a request id
  // becomes the message).
  template <class Act>
  void answer_touch(std::uint64_t request, Act&& act);
  void inform(const std::string& message);  // a message that is not an error (what an undo did)
  void answer(std::uint64_t request, bool ok, std::string text);
  void apply_edit(const ApplyParameters& edit);
  // Why an edit should be confirmed first (Session::edit_warning, or the old future it drops), or "".
  std::string confirmation_needed(const PreparedEdit& edit) const;
  // A new HistorySummary when the history or the undo stack changed since the last one.
  void summarise_history();
  void set_scene(const Preset& preset, const std::string& source);
  // The scene becomes `session` (built from a preset or restored), with its threads and history set here.
  void adopt_session(std::unique_ptr<Session> session, const std::string& source);
  // Takes the document and the parameters in force from the simulation (after an edit, a new
  // scene, a phase change or a timeline entry) and counts a new scene revision.
  void adopt_parameters();

  // Shared between the threads: only these.
  CommandQueue<Command> commands_;
  TripleBuffer<Snapshot> snapshots_;
  std::atomic<bool> quit_{false};
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  std::mutex listener_mutex_;
  std::function<void()> publish_listener_;  // under listener_mutex_

  // Owned by the simulation thread once it runs.
  std::unique_ptr<Session> session_;
  std::shared_ptr<const Preset> scene_;     // the document (protocol and edits included)
  std::shared_ptr<const Preset> in_force_;  // the running phase's parameters
  int in_force_phase_ = 0;
  std::uint64_t in_force_revision_ = 0;  // Session::parameters_revision() of in_force_
  std::string source_;
  std::uint64_t scene_revision_ = 0;
  std::uint64_t scene_loads_ = 0;
  std::string message_;
  std::uint64_t message_revision_ = 0;
  bool message_is_error_ = true;
  std::uint64_t acknowledged_edit_ = 0;
  std::shared_ptr<const FrameFields> frame_;  // the last CaptureFrame's
  std::uint64_t frame_request_ = 0;
  std::shared_ptr<const FieldValues> field_values_;  // the last EvaluateField's
  std::uint64_t field_request_ = 0;
  std::shared_ptr<const FieldView> field_view_;  // the last ComputeFieldView's
  std::unique_ptr<ThreadTeam> view_team_;        // evaluates the field view (made at the first)
  std::uint64_t field_view_request_ = 0;
  std::shared_ptr<const HistorySummary> history_;
  std::shared_ptr<const Autosave> autosave_;  // the last CaptureAutosave's
  std::uint64_t autosave_request_ = 0;
  bool restored_ = false;  // the scene is a restored autosave (no LoadScene since)
  Reply reply_;
  std::shared_ptr<const Confirmation> confirmation_;
  bool running_ = true;
  int engine_threads_ = 1;
  std::size_t history_budget_ = 0;
  StepRequests steps_;  // StepOnce requests: the one under way and those after it
  SetPace pace_;
  std::uint64_t sequence_ = 0;
  std::int64_t rate_steps_ = 0;  // steps since the last rate measurement
  std::chrono::steady_clock::time_point rate_start_;
  double steps_per_second_ = 0.0;
  std::thread thread_;  // last: starts after everything above is initialised
};

}  // namespace lodestone
