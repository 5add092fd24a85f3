#include "engine/live/simulation_thread.hpp"

#include "engine/analysis/field_lines.hpp"
#include "engine/core/state_hash.hpp"
#include "engine/live/snapshot_capture.hpp"
#include "engine/magnetic/field_evaluation.hpp"
#include "engine/output/field_slice.hpp"
#include "engine/output/output_units.hpp"
#include "engine/scene/document.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace lodestone {
namespace {
using Clock = std::chrono::steady_clock;
constexpr auto kFrame = std::chrono::microseconds(16667);  // publish at most 60 times a second
constexpr auto kIdleWait = std::chrono::milliseconds(100);

// The View panel's field view (ComputeFieldView): |B| on the slice, the lines from a grid of seeds on its plane
// (those inside a particle left out), traced with the scene's settings (field_line_settings_for), the points
// and lines split over `team`; docs/performance.md has the figures.
std::shared_ptr<const FieldView> compute_field_view(const Model& model, const State& state, const ComputeFieldView& c,
                                                    ThreadTeam& team) {
  const auto start = Clock::now();
  auto view = std::make_shared<FieldView>();
  const FieldEvaluator evaluator(model, state);
  FieldSlice& slice = view->slice;
  slice.axis = std::clamp(c.axis, 0, 2);
  slice.at = c.at;
  slice.count[0] = slice.count[1] = std::clamp(c.resolution, 2, 256);
  fit_to_box(slice, model.box);
  if (c.slice) {
    const std::vector<Vec3> points = slice.points();
    std::vector<Vec3> field(points.size());
    evaluator.evaluate(points, field, team);
    view->magnitude.resize(points.size());
    view->inside.resize(points.size());
    // The scale: the smallest non-zero |B| outside the particles (beyond every cutoff the sum is exactly 0), at
    // least 1e-4 of the largest so that a log scale spans at most four decades, up to the largest.
    float low = std::numeric_limits<float>::infinity(), high = 0.0f;
    for (size_t k = 0; k < points.size(); ++k) {
      const float b = static_cast<float>(field[k].norm());
      view->magnitude[k] = b;
      view->inside[k] = evaluator.particle_at(points[k]) >= 0 ? 1 : 0;
      if (view->inside[k]) continue;
      if (b > 0.0f) low = std::min(low, b);
      high = std::max(high, b);
    }
    view->low = std::isfinite(low) ? std::max(low, 1e-4f * high) : 0.0f;
    view->high = high;
  }
  if (c.lines) {
    std::vector<Vec3> seeds;
    const int nu = std::clamp(c.seeds[0], 1, 32), nv = std::clamp(c.seeds[1], 1, 32);
    for (int j = 0; j < nv; ++j)
      for (int i = 0; i < nu; ++i) {
        Vec3 x = Vec3::Zero();
        x[slice.axis] = slice.at;
        x[slice.u_axis()] = *slice.lo[0] + (*slice.hi[0] - *slice.lo[0]) * (i + 0.5) / nu;
        x[slice.v_axis()] = *slice.lo[1] + (*slice.hi[1] - *slice.lo[1]) * (j + 0.5) / nv;
        if (evaluator.particle_at(x) < 0) seeds.push_back(x);
      }
    for (const FieldLine& line : trace_field_lines(evaluator, seeds, field_line_settings_for(model, state), team)) {
      std::vector<float> points;
      points.reserve(3 * line.points.size());
      for (const Vec3& x : line.points)
        for (int a = 0; a < 3; ++a) points.push_back(static_cast<float>(x[a]));
      view->lines.push_back(std::move(points));
    }
  }
  view->step = state.step;
  view->time = state.time;
  view->seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return view;
}

// The pace a scene asks for when it is loaded (view.pace, else the older run.real_time_factor); a reset
// keeps the user's.
SetPace scene_pace(const Preset& preset) {
  if (preset.view.pace) return SetPace{PaceMode::RealTime, *preset.view.pace};
  if (preset.run.real_time_factor > 0.0) return SetPace{PaceMode::RealTime, preset.run.real_time_factor};
  return SetPace{PaceMode::Fastest, 1.0};
}
}  // namespace

SimulationThread::SimulationThread(const Preset& preset, std::string source, bool start_running, int engine_threads,
                                   std::size_t history_budget)
    : running_(start_running && !preset.view.start_paused),
      engine_threads_(engine_threads),
      history_budget_(history_budget) {
  set_scene(preset, source);  // throws before the thread exists
  scene_loads_ = 1;
  pace_ = scene_pace(*in_force_);  // the first phase's, when it sets view.pace
  publish();
  thread_ = std::thread([this] { run(); });
}

SimulationThread::~SimulationThread() {
  quit_ = true;
  { std::lock_guard<std::mutex> lock(wake_mutex_); }
  wake_.notify_all();
  thread_.join();
}

void SimulationThread::push(Command command) {
  commands_.push(std::move(command));
  {
    // Taking the lock orders this notification after a waiter's check of the queue.
    std::lock_guard<std::mutex> lock(wake_mutex_);
  }
  wake_.notify_one();
}

void SimulationThread::set_scene(const Preset& preset, const std::string& source) {
  validate_document(preset);
  adopt_session(std::make_unique<Session>(preset), source);  // throws PresetError, leaving the old scene
  restored_ = false;
}

void SimulationThread::adopt_session(std::unique_ptr<Session> session, const std::string& source) {
  session->set_threads(engine_threads_);
  session->enable_history(history_budget_);
  session->hold_waiting_phases(true);  // a waiting phase waits for the user here (the runner goes on)
  session_ = std::move(session);
  confirmation_.reset();
  source_ = source;
  adopt_parameters();
  rate_steps_ = 0;
  rate_start_ = Clock::now();
  steps_per_second_ = 0.0;
}

void SimulationThread::adopt_parameters() {
  scene_ = std::make_shared<const Preset>(session_->document());
  in_force_ = std::make_shared<const Preset>(session_->parameters());
  in_force_phase_ = session_->state().phase;
  in_force_revision_ = session_->parameters_revision();
  ++scene_revision_;
}

void SimulationThread::refuse(const std::string& message) {
  message_ = message;
  message_is_error_ = true;
  ++message_revision_;
}

template <class Act>
void SimulationThread::answer_touch(std::uint64_t request, Act&& act) {
  try {
    answer(request, true, act());
  } catch (const PresetError& e) {
    if (request == 0) refuse(e.what());
    answer(request, false, e.what());
  }
}

void SimulationThread::inform(const std::string& message) {
  message_ = message;
  message_is_error_ = false;
  ++message_revision_;
}

void SimulationThread::answer(std::uint64_t request, bool ok, std::string text) {
  if (request == 0) return;
  reply_ = Reply{request, ok, std::move(text)};
}

std::string SimulationThread::confirmation_needed(const PreparedEdit& edit) const {
  if (edit.changes_nothing()) return "";
  std::string why = session_->edit_warning(edit).value_or("");
  const State& now = session_->state();
  if (now.step < session_->head_step()) {
    const HistorySummary* h = history_.get();
    const double head_time = h ? h->head_time : now.time;
    char text[320];
    std::snprintf(text, sizeof text,
                  "You went back to t = %.4g s (step %lld). Changing a value here starts a new run from this "
                  "moment: the run after it, up to t = %.4g s (step %lld), is dropped.",
                  now.time, static_cast<long long>(now.step), head_time, static_cast<long long>(session_->head_step()));
    why += (why.empty() ? "" : "; ") + std::string(text);
  }
  return why;
}

void SimulationThread::apply_edit(const ApplyParameters& c) {
  acknowledged_edit_ = c.edit_id;                         // handled, whether it applies, is held or is refused
  PreparedEdit edit = session_->prepare_edit(c.changes);  // throws PresetError, changing nothing
  if (edit.changes_nothing()) {
    // The value in force already: no timeline entry, nothing to undo. Said, so that a script (and its user) does not
    // expect an undo to go back to something.
    if (confirmation_ && confirmation_->paused_run) running_ = true;
    confirmation_.reset();
    return answer(c.request, true, kUnchangedReply);
  }
  if (!c.confirmed) {
    if (std::string why = confirmation_needed(edit); !why.empty()) {
      // The run waits at this step until the user answers: the edit applies where the question says.
      const bool paused_run = running_ || (confirmation_ && confirmation_->paused_run);
      running_ = false;
      if (steps_.busy()) steps_.stop_all(session_->state(), "a change waits for your answer");
      confirmation_ = std::make_shared<const Confirmation>(
          Confirmation{c.edit_id, why, c.changes, session_->state().step, paused_run});
      ++scene_revision_;  // the panels show the values in force until it is confirmed
      answer(c.request, false, "confirm: " + why);
      return;
    }
  }
  const bool resume = confirmation_ && confirmation_->paused_run;
  confirmation_.reset();
  if (resume) running_ = true;
  session_->apply_prepared(std::move(edit));  // throws PresetError, keeping the old parameters
  adopt_parameters();
  answer(c.request, true, "applied");
}

void SimulationThread::handle(const DeclineEdit& c) {
  if (!confirmation_) return answer(c.request, false, "no edit is waiting for confirmation");
  if (confirmation_->paused_run) running_ = true;
  confirmation_.reset();  // the panels show the values in force already (apply_edit, when it was held)
  answer(c.request, true, "declined");
}

void SimulationThread::apply(Command& command) {
  std::visit(
      [this](auto& c) {
        try {
          handle(c);
        } catch (const PresetError& e) {
          refuse(e.what());
          if constexpr (requires { c.request; }) answer(c.request, false, e.what());
        }
      },
      command);
}

// [SECTION] One handler per command

void SimulationThread::handle(const LoadScene& c) {
  set_scene(c.preset, c.source);
  ++scene_loads_;
  pace_ = scene_pace(*in_force_);
  if (c.preset.view.start_paused) running_ = false;
}

void SimulationThread::handle(const CaptureAutosave& c) {
  // A copy (the state, the parameters, the document: a few milliseconds for 10 000 particles); the writer thread
  // serialises and writes it.
  auto copy = std::make_shared<Autosave>();
  copy->info.scene = autosave_scene_name(source_);
  copy->info.source = source_;
  copy->info.step = session_->state().step;
  copy->info.time = session_->state().time;
  copy->document = session_->document();
  copy->point = session_->point();
  autosave_ = std::move(copy);
  autosave_request_ = c.request;
}

void SimulationThread::handle(const RestoreSession& c) {
  auto session = std::make_unique<Session>(c.document, c.point);  // throws PresetError, leaving the old scene
  adopt_session(std::move(session), c.source);
  restored_ = true;
  ++scene_loads_;
  pace_ = scene_pace(*in_force_);  // as a load: the scene's own pace
  running_ = false;                // the user looks first, then runs
  inform(c.note);
  answer(c.request, true, std::to_string(session_->state().step));
}

void SimulationThread::handle(const ApplyParameters& c) {
  apply_edit(c);
}

void SimulationThread::handle(const ResetScene&) {
  // The run restarts with the parameters in force: the timeline entries applied so far
  // become the scene's own parameters, those not reached yet stay (docs/session-log.md).
  set_scene(session_->folded_document(), source_);
}

void SimulationThread::handle(const SetRunning& c) {
  if (c.running && confirmation_)
    refuse("a change waits for your answer first (Apply anyway or Cancel): it applies at step " +
           std::to_string(confirmation_->step));
  else if (c.running && !session_->state().health.ok)
    refuse(
        "the run stopped on a failed check: fix the value and press Run, undo the last edit (Ctrl+Z), "
        "go back (Run panel), or reset");
  else
    running_ = c.running;
  rate_steps_ = 0;
  rate_start_ = Clock::now();
}

void SimulationThread::handle(const StepOnce& c) {
  running_ = false;
  steps_.ask(c, *session_);
}

void SimulationThread::handle(const Rewind& c) {
  session_->rewind_to_kept(c.step);  // the kept point at or before it; throws PresetError naming the kept range
  const std::int64_t left = c.step - session_->state().step;
  if (!c.snap && left > 0 && !running_) {
    // Paused: the steps from there are worked off a frame at a time like a StepOnce, so that a long replay shows its
    // progress and can be stopped; answered "rewind T now S" in step_reply.
    adopt_parameters();
    steps_.ask(
        StepOnce{static_cast<int>(std::min<std::int64_t>(left, std::numeric_limits<int>::max())), 0.0, c.request},
        *session_, c.step);
    return;
  }
  if (!c.snap) session_->rewind(c.step);  // a running scene replays at once and runs on
  adopt_parameters();
  answer(c.request, true, "now " + std::to_string(session_->state().step));
}

void SimulationThread::handle(const Undo& c) {
  undo_or_redo(/*undo=*/true, c.request);
}

void SimulationThread::handle(const Redo& c) {
  undo_or_redo(/*undo=*/false, c.request);
}

void SimulationThread::undo_or_redo(bool undo, std::uint64_t request) {
  const std::optional<std::string> what = undo ? session_->undo() : session_->redo();
  if (!what) {
    refuse(undo ? "nothing to undo" : "nothing to redo");
    answer(request, false, undo ? "nothing to undo" : "nothing to redo");
    return;
  }
  adopt_parameters();
  inform(std::string(undo ? "undone: " : "redone: ") + *what);
  answer(request, true, std::string(undo ? "undone: " : "redone: ") + *what);
}

void SimulationThread::handle(const GoBack& c) {
  if (c.seconds > 0.0) {
    session_->go_back(c.seconds);
    answer(c.request, true, "now " + std::to_string(session_->state().step));
  } else {
    const std::string what = session_->go_back_before_last_edit();
    inform("went back to before the change " + what);
    answer(c.request, true, "undone: " + what);
  }
  adopt_parameters();
}

void SimulationThread::handle(const HashState& c) {
  answer(c.request, true, hash_hex(state_hash(session_->state())));
}

void SimulationThread::handle(const SetPace& c) {
  pace_ = c;
}

void SimulationThread::handle(const CaptureFrame& c) {
  // In the scene's unit system, as the runner writes its frames.
  frame_ = std::make_shared<const FrameFields>(
      frame_in_units(frame_fields(session_->model(), session_->state()), session_->document().units));
  frame_request_ = c.request;
}

void SimulationThread::handle(const EvaluateField& c) {
  const FieldEvaluator evaluator(session_->model(), session_->state(),
                                 {.sum = c.exact ? FieldSum::Exact : FieldSum::AsForces});
  auto values = std::make_shared<FieldValues>();
  values->points = c.points;
  values->field.resize(c.points.size());
  evaluator.evaluate(values->points, values->field);
  values->step = session_->state().step;
  values->time = session_->state().time;
  field_values_ = std::move(values);
  field_request_ = c.request;
}

void SimulationThread::handle(const ComputeFieldView& c) {
  // The physics waits while the view is evaluated: every core of the machine works on it (a team of
  // its own, so that the simulation's thread count and its results stay as set).
  if (!view_team_)
    view_team_ =
        std::make_unique<ThreadTeam>(static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u)));
  field_view_ = compute_field_view(session_->model(), session_->state(), c, *view_team_);
  field_view_request_ = c.request;
}

void SimulationThread::handle(const DragParticle& c) {
  // The document follows at the release: a drag's entries come at every step it moves.
  answer_touch(c.request, [&] { return session_->drag(c.particle_id, c.target, c.relative_stiffness); });
}

void SimulationThread::handle(const ReleaseDrag& c) {
  answer_touch(c.request, [&] { return session_->release(); });
  adopt_parameters();
}

void SimulationThread::handle(const AddParticle& c) {
  answer_touch(c.request, [&] {
    return c.copy_of ? session_->add_copy(*c.copy_of, c.particle.position) : session_->add_particle(c.particle);
  });
  adopt_parameters();
}

void SimulationThread::handle(const AddClump& c) {
  answer_touch(c.request, [&] { return session_->add_clump(c.clump); });
  adopt_parameters();
}

void SimulationThread::handle(const DeleteBody& c) {
  answer_touch(c.request, [&] { return session_->delete_body(c.particle_id); });
  adopt_parameters();
}

void SimulationThread::handle(const HoldParticle& c) {
  answer_touch(c.request, [&] { return session_->hold(c.particle_id, c.hold); });
  adopt_parameters();
}

void SimulationThread::handle(const GoOn& c) {
  answer_touch(c.request, [&] { return session_->go(); });
  adopt_parameters();
}

// [SECTION] Stepping and publishing

void SimulationThread::advance_running() {
  const auto start = Clock::now();
  const auto deadline = start + kFrame;
  const double time_step = session_->model().time_step;
  std::int64_t budget = 0;  // steps to do in this frame
  switch (pace_.mode) {
    case PaceMode::Fastest: budget = std::numeric_limits<std::int64_t>::max(); break;
    case PaceMode::RealTime:
      // Simulated time per frame = factor x frame length (never more than fits in the frame).
      budget = std::max<std::int64_t>(
          1, static_cast<std::int64_t>(pace_.value * std::chrono::duration<double>(kFrame).count() / time_step));
      break;
    case PaceMode::StepsPerFrame: budget = std::max<std::int64_t>(1, static_cast<std::int64_t>(pace_.value)); break;
  }
  std::int64_t done = 0;
  while (done < budget && session_->state().health.ok) {
    session_->step();
    ++done;
    // Look at the clock and the queue every few steps: stay responsive without slowing the loop.
    if ((done & 15) == 0 && (Clock::now() >= deadline || !commands_.empty())) break;
  }
  rate_steps_ += done;
  if (!session_->state().health.ok) running_ = false;
  // Paced modes wait out the rest of the frame (a command wakes them early).
  if (pace_.mode != PaceMode::Fastest) {
    std::unique_lock<std::mutex> lock(wake_mutex_);
    wake_.wait_until(lock, deadline, [this] { return quit_.load() || !commands_.empty(); });
  }
}

const char* SimulationThread::ends_steps(const Command& c) const {
  if (const auto* r = std::get_if<SetRunning>(&c)) return r->running ? "the run was started" : "paused";
  if (std::holds_alternative<ResetScene>(c)) return "reset";
  if (std::holds_alternative<LoadScene>(c)) return "another scene was loaded";
  if (std::holds_alternative<RestoreSession>(c)) return "a session was restored";
  if (std::holds_alternative<Rewind>(c)) return "went to another moment";
  if (std::holds_alternative<GoBack>(c)) return "went back";
  if (std::holds_alternative<Undo>(c)) return "an edit was undone";
  if (std::holds_alternative<Redo>(c)) return "an edit was redone";
  return nullptr;  // edits, touches and questions apply between the steps
}

void SimulationThread::summarise_history() {
  const History* kept = session_->history();
  if (!kept) {
    history_.reset();
    return;
  }
  const UndoStack& edits = session_->edits();
  const std::string next_undo = edits.next_undo() ? edits.next_undo()->description : "";
  const std::string next_redo = edits.next_redo() ? edits.next_redo()->description : "";
  const State& now = session_->state();
  const std::int64_t head = std::max(session_->head_step(), kept->last_step());
  if (history_ && history_->head_step == head && history_->steps.size() == kept->size() &&
      (kept->empty() ||
       (history_->steps.front() == kept->first_step() && history_->steps.back() == kept->last_step())) &&
      history_->next_undo == next_undo && history_->next_redo == next_redo && history_->budget == kept->budget())
    return;
  auto summary = std::make_shared<HistorySummary>();
  summary->steps = kept->steps();
  summary->times = kept->times();
  summary->head_step = head;
  summary->head_time = now.step == head || summary->times.empty() ? now.time : summary->times.back();
  summary->bytes = kept->bytes();
  summary->budget = kept->budget();
  summary->next_undo = next_undo;
  summary->next_redo = next_redo;
  history_ = std::move(summary);
}

void SimulationThread::publish() {
  const auto now = Clock::now();
  const double window = std::chrono::duration<double>(now - rate_start_).count();
  if (window >= 0.5) {
    steps_per_second_ = static_cast<double>(rate_steps_) / window;
    rate_steps_ = 0;
    rate_start_ = now;
  }
  // A protocol phase began or a timeline entry applied.
  if (session_->state().phase != in_force_phase_ || session_->parameters_revision() != in_force_revision_) {
    const bool new_phase = session_->state().phase != in_force_phase_;
    adopt_parameters();
    // A phase that sets view.pace (a teaching scene slowing down for its quick moment) sets it as it starts.
    const auto phase = static_cast<size_t>(in_force_phase_);
    if (new_phase && phase < scene_->protocol.size() && scene_->protocol[phase].set.contains("view.pace"))
      pace_ = scene_pace(*in_force_);
  }
  Snapshot& s = snapshots_.write_buffer();
  capture_snapshot(*session_, s);
  s.sequence = ++sequence_;
  s.running = running_;
  s.pace = pace_;
  s.stepping = steps_.progress(session_->state());
  s.steps_per_second = running_ ? steps_per_second_ : s.stepping ? s.stepping->steps_per_second : 0.0;
  s.scene = scene_;
  s.in_force = in_force_;
  s.scene_revision = scene_revision_;
  s.scene_source = source_;
  s.scene_loads = scene_loads_;
  s.message = message_;
  s.message_is_error = message_is_error_;
  s.message_revision = message_revision_;
  s.acknowledged_edit = acknowledged_edit_;
  s.frame = frame_;
  s.frame_request = frame_request_;
  s.field_values = field_values_;
  s.field_request = field_request_;
  s.field_view = field_view_;
  s.field_view_request = field_view_request_;
  summarise_history();
  s.history = history_;
  s.reply = reply_;
  s.step_reply = steps_.last_answer();
  s.confirmation = confirmation_;
  s.autosave = autosave_;
  s.autosave_request = autosave_request_;
  s.restored = restored_;
  snapshots_.publish();
  std::lock_guard<std::mutex> lock(listener_mutex_);
  if (publish_listener_) publish_listener_();
}

void SimulationThread::on_publish(std::function<void()> listener) {
  std::lock_guard<std::mutex> lock(listener_mutex_);
  publish_listener_ = std::move(listener);
}

void SimulationThread::run() {
  std::vector<Command> batch;
  while (!quit_) {
    commands_.drain(batch);
    for (Command& c : batch) {
      // A command that takes the clock ends the steps asked before it, each answered "stopped: ..."; any other
      // applies between their steps (a script that waits for a step's answer keeps its order).
      if (steps_.busy())
        if (const char* why = ends_steps(c)) steps_.stop_all(session_->state(), why);
      apply(c);
    }
    if (running_) {
      advance_running();
      publish();
      continue;
    }
    if (steps_.busy()) {
      steps_.work(*session_, Clock::now() + kFrame);
      publish();
      continue;
    }
    if (!batch.empty()) publish();
    std::unique_lock<std::mutex> lock(wake_mutex_);
    wake_.wait_for(lock, kIdleWait, [this] { return quit_.load() || !commands_.empty(); });
  }
}

}  // namespace lodestone
