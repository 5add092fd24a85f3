#include "app/desktop/remote_control.hpp"

#include "app/desktop/remote_view.hpp"
#include "engine/output/field_probe.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/unit_values.hpp"
#include "engine/scene/units.hpp"
#include "ui/step_progress.hpp"

#include <QSocketNotifier>
#include <QTimer>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <type_traits>
#include <variant>
#include <vector>

namespace lodestone::desktop {

RemoteControl::RemoteControl(SimulationThread& simulation, ui::UiState& state, ui::CommandSink send,
                             AutosaveKeeper& autosaves, QObject* parent)
    : QObject(parent),
      simulation_(simulation),
      state_(state),
      send_(std::move(send)),
      autosaves_(autosaves),
      notifier_(new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this)),
      poll_(new QTimer(this)) {
  connect(notifier_, &QSocketNotifier::activated, this, &RemoteControl::read_input);
  // An answer is printed as soon as the snapshot that carries it is published: the simulation thread asks for a
  // poll on this thread. The timer is only a fallback (a wake-up costs a few microseconds; only with --remote).
  simulation_.on_publish([this] { QMetaObject::invokeMethod(this, &RemoteControl::poll, Qt::QueuedConnection); });
  poll_->setInterval(20);
  connect(poll_, &QTimer::timeout, this, &RemoteControl::poll);
  poll_->start();
}

RemoteControl::~RemoteControl() {
  simulation_.on_publish(nullptr);
}

void RemoteControl::read_input() {
  if (quitting_) return;
  char buffer[65536];  // a script in a file arrives at once: its lines keep their order (take_urgent_lines)
  const ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
  if (got <= 0) {  // end of input: nothing more will come
    notifier_->setEnabled(false);
    return;
  }
  pending_.append(buffer, static_cast<size_t>(got));
  execute_pending();
}

void RemoteControl::execute_pending() {
  // Nothing runs before the panels' copy holds the scene: a `set` or `get` would otherwise act on the empty
  // scene the window starts with (the first snapshot adopted carries it).
  if (state_.adopted_revision == 0 || quitting_) return;
  if (waiting_ && step_request_ != 0) take_urgent_lines();
  for (size_t end; !waiting_ && !quitting_ && (end = pending_.find('\n')) != std::string::npos;) {
    const std::string line = pending_.substr(0, end);
    pending_.erase(0, end + 1);
    execute(line);
    if (!waiting_) emit acted();
  }
}

void RemoteControl::take_urgent_lines() {
  // Only lines read after the step was sent: a script read at once (a file) keeps its order.
  std::string kept = pending_.substr(0, std::min(read_before_step_, pending_.size()));
  size_t begin = kept.size();
  for (size_t end; (end = pending_.find('\n', begin)) != std::string::npos; begin = end + 1) {
    const std::string line = pending_.substr(begin, end - begin);
    std::istringstream words(line);
    std::string verb, more;
    words >> verb >> more;
    if (verb == "quit" && more.empty()) return verb_quit({}, line);
    if (verb == "pause" && more.empty()) {
      send_(SetRunning{false});  // ends a step under way, answered "stopped: ..."
      ++pauses_due_;
      continue;
    }
    kept += line + '\n';
  }
  pending_ = kept + pending_.substr(begin);
}

void RemoteControl::poll() {
  if (quitting_) return;  // nothing is printed after "ok quit"
  simulation_.update_snapshot();
  ui::adopt_snapshot(state_, simulation_.snapshot());  // as a frame would: `get` and `set` see the values in force
  report_stop();
  const Snapshot& s = simulation_.snapshot();
  if (step_detached_) step_answered(s);  // a long step's answer when it ends (before "ok pause" or "ok load")
  if (waiting_ && waiting_(s)) {
    for (; pauses_due_ > 0; --pauses_due_) std::printf("ok pause\n");
    std::fflush(stdout);
    waiting_ = nullptr;
    waits_for_frames_ = false;
    emit acted();
  } else if (waiting_ && waits_for_frames_) {
    emit acted();  // the view draws until the frames waited for are drawn, however long each takes
  }
  execute_pending();
}

void RemoteControl::report_stop() {
  const Snapshot& s = simulation_.snapshot();
  if (s.health.ok) {
    reported_stop_.clear();
    return;
  }
  const std::string key = std::to_string(s.step) + s.health.message;
  if (key == reported_stop_) return;
  reported_stop_ = key;
  std::printf("stopped: %s\n", s.health.message.c_str());
  std::fflush(stdout);
}

void RemoteControl::await_reply(std::uint64_t request, std::function<void(const Reply&)> print) {
  waiting_ = [request, print = std::move(print)](const Snapshot& s) {
    if (s.reply.request != request) return false;
    print(s.reply);
    return true;
  };
}

template <class TouchCommand>
void RemoteControl::send_touch(TouchCommand command, const std::string& line) {
  // One count with the panels' touches, so that the window shows the answer as a notice too.
  command.request = ui::next_touch_request(state_);
  const std::uint64_t request = command.request;
  send_(std::move(command));
  await_reply(request, [line](const Reply& r) {
    if (r.ok)
      std::printf("ok %s\n", r.text.c_str());
    else
      std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
  });
}

namespace {

// The `history` answer from the snapshot that carries the reply.
void print_history(const Snapshot& s) {
  if (!s.history || s.history->steps.empty()) {
    std::printf("history none\n");
    return;
  }
  const HistorySummary& h = *s.history;
  std::printf("history %lld %lld now=%lld head=%lld points=%zu memory=%.1fMiB budget=%.0fMiB\n",
              static_cast<long long>(h.steps.front()), static_cast<long long>(h.steps.back()),
              static_cast<long long>(s.step), static_cast<long long>(h.head_step), h.steps.size(),
              static_cast<double>(h.bytes) / (1 << 20), static_cast<double>(h.budget) / (1 << 20));
}

}  // namespace

void RemoteControl::send_edit(std::vector<ParameterChange> changes, const std::string& done, const std::string& line) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(ApplyParameters{std::move(changes), ++state_.last_edit_id, false, request});
  await_reply(request, [done, line](const Reply& r) {
    if (r.ok && r.text == kUnchangedReply)
      std::printf("ok %s (unchanged: it had that value already; nothing to undo)\n", done.c_str());
    else if (r.ok)
      std::printf("ok %s\n", done.c_str());
    else if (r.text.rfind("confirm: ", 0) == 0)
      std::printf("%s (send 'confirm' to apply it)\n", r.text.c_str());
    else
      std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
  });
}

void RemoteControl::execute(const std::string& line) {
  // The verbs listed in remote_control.hpp, each carried out by one member; the view's verbs come after them.
  static const std::map<std::string, VerbHandler> handlers = {
      {"set", &RemoteControl::verb_set},         {"confirm", &RemoteControl::verb_confirm},
      {"get", &RemoteControl::verb_get},         {"run", &RemoteControl::verb_run},
      {"pause", &RemoteControl::verb_pause},     {"reset", &RemoteControl::verb_reset},
      {"step", &RemoteControl::verb_step},       {"advance", &RemoteControl::verb_advance},
      {"hash", &RemoteControl::verb_hash},       {"history", &RemoteControl::verb_history},
      {"rewind", &RemoteControl::verb_rewind},   {"undo", &RemoteControl::verb_undo},
      {"redo", &RemoteControl::verb_redo},       {"recover", &RemoteControl::verb_recover},
      {"back", &RemoteControl::verb_back},       {"load", &RemoteControl::verb_load},
      {"save", &RemoteControl::verb_save},       {"status", &RemoteControl::verb_status},
      {"restore", &RemoteControl::verb_restore}, {"field-at", &RemoteControl::verb_field_at},
      {"drag", &RemoteControl::verb_drag},       {"release", &RemoteControl::verb_release},
      {"add", &RemoteControl::verb_add},         {"delete", &RemoteControl::verb_delete},
      {"lid", &RemoteControl::verb_lid},         {"quit", &RemoteControl::verb_quit},
      {"sync", &RemoteControl::verb_sync},       {"cancel", &RemoteControl::verb_cancel},
      {"key", &RemoteControl::verb_key},         {"hold", &RemoteControl::verb_hold},
      {"ids", &RemoteControl::verb_ids},         {"go", &RemoteControl::verb_go},
  };
  try {
    // An unknown verb or bad arguments are refused here, before anything is sent or shown.
    const remote::Request request = remote::parse_remote_line(line, state_.edited);
    if (request.verb.empty()) return;
    if (const auto found = handlers.find(request.verb); found != handlers.end())
      (this->*found->second)(request, line);
    else
      execute_view_verb(request, line, simulation_.snapshot(), state_);  // app/desktop/remote_view.hpp
  } catch (const std::exception& e) {
    refuse(line, e.what());  // remote::Refusal, PresetError, FieldInputError: why, naming the value
  }
  std::fflush(stdout);
}

void RemoteControl::verb_set(const remote::Request& request, const std::string& line) {
  // A bare number in the scene's own unit system (units.system), as its file reads it.
  std::vector<ParameterChange> changes = request.edit;
  for (ParameterChange& c : changes) c.value = value_in_si(state_.edited.units, c.path, std::move(c.value));
  send_edit(std::move(changes), "set " + request.edit.front().path, line);
}

void RemoteControl::verb_confirm(const remote::Request&, const std::string& line) {
  const Snapshot& s = simulation_.snapshot();
  if (!s.confirmation) return refuse(line, "no edit is waiting for confirmation");
  const std::uint64_t request = ++state_.last_request_id;
  send_(ApplyParameters{s.confirmation->changes, ++state_.last_edit_id, true, request});
  await_reply(request, [line](const Reply& r) {
    if (r.ok)
      std::printf("ok confirm\n");
    else
      std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
  });
}

void RemoteControl::verb_cancel(const remote::Request&, const std::string& line) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(DeclineEdit{request});
  await_reply(request, [line](const Reply& r) {
    if (r.ok)
      std::printf("ok cancel\n");
    else
      std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
  });
}

void RemoteControl::verb_get(const remote::Request& request, const std::string&) {
  // The parameters in force; the generator's list of particles is the document's alone (Session::value_at).
  const std::string& path = request.rest;
  const bool listed = path.rfind("particles.particles", 0) == 0 && state_.document;
  const json si = value_at(listed ? *state_.document : state_.edited, path, "$");
  std::printf("value %s %s\n", path.c_str(), value_in_document_units(state_.edited.units, path, si).dump().c_str());
}

void RemoteControl::verb_run(const remote::Request&, const std::string&) {
  send_(SetRunning{true});
  std::printf("ok run\n");
}

void RemoteControl::verb_pause(const remote::Request&, const std::string&) {
  send_(SetRunning{false});
  if (step_request_ == 0) {
    std::printf("ok pause\n");
    return;
  }
  // A long step under way ends: its "stopped: ..." first, then this answer.
  ++pauses_due_;
  waiting_ = [this](const Snapshot& s) { return step_answered(s); };
}

void RemoteControl::verb_reset(const remote::Request&, const std::string&) {
  send_(ResetScene{});
  std::printf("ok reset\n");
}

namespace {
// "ok VERB ..." from a step's answer "step N now S": the words after the first.
std::function<void(const std::string&)> print_ok(const std::string& verb) {
  return [verb](const std::string& text) {
    std::printf("ok %s %s\n", verb.c_str(), text.substr(text.find(' ') + 1).c_str());
  };
}
}  // namespace

void RemoteControl::verb_step(const remote::Request& request, const std::string& line) {
  StepOnce step = std::get<StepOnce>(*request.command);
  step.request = ++state_.last_request_id;
  send_step(step, step.request, print_ok("step"), line);
}

void RemoteControl::verb_advance(const remote::Request& request, const std::string& line) {
  StepOnce step = std::get<StepOnce>(*request.command);
  step.request = ++state_.last_request_id;
  send_step(step, step.request, print_ok("advance"), line);
}

void RemoteControl::send_step(Command command, std::uint64_t request, std::function<void(const std::string&)> done,
                              const std::string& line) {
  if (step_request_ != 0) {
    const std::optional<StepProgress>& p = simulation_.snapshot().stepping;
    return refuse(line, "a step is under way (" + (p ? ui::step_progress_text(*p) : std::string("ending")) +
                            "): send 'pause' to stop it first");
  }
  send_(std::move(command));
  read_before_step_ = pending_.size();
  step_request_ = request;
  step_done_ = std::move(done);
  step_line_ = line;
  waiting_ = [this](const Snapshot& s) { return step_answered(s); };
}

bool RemoteControl::step_answered(const Snapshot& s) {
  if (step_request_ == 0) return true;
  // Steps are answered in step_reply; a rewind with nothing to replay, or refused at once, in reply.
  const Reply* answer = s.step_reply.request == step_request_ ? &s.step_reply
                        : s.reply.request == step_request_    ? &s.reply
                                                              : nullptr;
  if (answer) {
    const Reply& r = *answer;
    if (r.ok)
      step_done_(r.text);
    else if (r.text.rfind("stopped: ", 0) == 0)
      std::printf("%s\n", r.text.c_str());
    else
      std::printf("refused: %s: %s\n", step_line_.c_str(), r.text.c_str());
    std::fflush(stdout);
    step_request_ = 0;
    step_detached_ = false;
    return true;
  }
  // Estimated from its first steps: one that takes over a minute is answered now, and the input goes on (unless a
  // pause read meanwhile ends it: its answer comes before the pause's).
  if (!step_detached_ && pauses_due_ == 0 && s.stepping && s.stepping->request == step_request_ &&
      s.stepping->wall_seconds_left > ui::kLongRequestSeconds) {
    std::printf("running: %s: %s at %.4g steps/s; 'pause' stops it, its answer comes when it ends\n",
                step_line_.c_str(), (ui::wall_time_text(s.stepping->wall_seconds_left) + " left").c_str(),
                s.stepping->steps_per_second);
    step_detached_ = true;
    return true;
  }
  return false;
}

void RemoteControl::verb_hash(const remote::Request&, const std::string&) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(HashState{request});
  await_reply(request, [](const Reply& r) { std::printf("hash %s\n", r.text.c_str()); });
}

void RemoteControl::verb_history(const remote::Request&, const std::string&) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(HashState{request});  // any answered command: the snapshot carrying it is up to date
  waiting_ = [request](const Snapshot& s) {
    if (s.reply.request != request) return false;
    print_history(s);
    return true;
  };
}

void RemoteControl::verb_rewind(const remote::Request& request, const std::string& line) {
  Rewind rewind = std::get<Rewind>(*request.command);
  rewind.request = ++state_.last_request_id;
  // Answered "now S" at once, or "rewind T now S" after a replay: "ok rewind T now S" either way.
  const long long target = rewind.step;
  send_step(
      rewind, rewind.request,
      [target](const std::string& text) {
        std::printf("ok rewind %lld %s\n", target, text.substr(text.find("now ")).c_str());
      },
      line);
}

void RemoteControl::verb_undo(const remote::Request&, const std::string&) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(Undo{request});
  await_undo_reply(request);
}

void RemoteControl::verb_redo(const remote::Request&, const std::string&) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(Redo{request});
  await_undo_reply(request);
}

void RemoteControl::verb_recover(const remote::Request&, const std::string&) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(GoBack{0.0, request});
  await_undo_reply(request);
}

void RemoteControl::await_undo_reply(std::uint64_t request) {
  await_reply(request, [](const Reply& r) { std::printf(r.ok ? "%s\n" : "refused: %s\n", r.text.c_str()); });
}

void RemoteControl::verb_back(const remote::Request& request, const std::string& line) {
  GoBack back = std::get<GoBack>(*request.command);
  back.request = ++state_.last_request_id;
  send_(back);
  await_reply(back.request, [line](const Reply& r) {
    if (r.ok)
      std::printf("ok back %s\n", r.text.c_str());
    else
      std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
  });
}

void RemoteControl::verb_load(const remote::Request& request, const std::string& line) {
  const std::string& rest = request.rest;
  const std::uint64_t revision = simulation_.snapshot().message_revision;
  ui::load_preset(state_, rest, send_);
  if (state_.notice_is_error) return refuse(line, state_.notice);
  // Answered once the simulation thread holds the scene and the panels' copy has adopted it (poll adopts
  // before it asks), so that a `set` or `get` after it acts on the new scene; or when the thread refused it.
  waiting_ = [this, line, rest, revision](const Snapshot& s) {
    if (s.scene_loads == 1 + state_.loads_sent) {
      std::printf("ok load %s\n", rest.c_str());
      return true;
    }
    if (s.message_revision == revision || !s.message_is_error) return false;
    std::printf("refused: %s: %s\n", line.c_str(), s.message.c_str());
    return true;
  };
}

void RemoteControl::verb_save(const remote::Request& request, const std::string& line) {
  const std::string& rest = request.rest;
  simulation_.update_snapshot();  // the newest document (adopted once every edit is acknowledged)
  ui::adopt_snapshot(state_, simulation_.snapshot());
  ui::save_preset(state_, rest);
  if (state_.notice_is_error) return refuse(line, state_.notice);
  std::printf("ok save %s\n", rest.c_str());
}

void RemoteControl::verb_restore(const remote::Request&, const std::string& line) {
  // Read and checked whole here (a damaged autosave is refused by name, and moved aside, before anything is sent).
  const std::uint64_t request = autosaves_.restore(send_);  // throws AutosaveError: "refused: restore: why"
  await_reply(request, [line](const Reply& r) {
    if (r.ok)
      std::printf("ok restore %s\n", r.text.c_str());
    else
      std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
  });
}

void RemoteControl::verb_status(const remote::Request&, const std::string&) {
  const Snapshot& s = simulation_.snapshot();
  std::string stepping;
  if (s.stepping) {
    stepping = " stepping=" + std::to_string(s.stepping->done_steps) + "/";
    if (s.stepping->asked_steps > 0) {
      stepping += std::to_string(s.stepping->asked_steps);
    } else {
      append_shortest(stepping, s.stepping->asked_seconds);
      stepping += "s";
    }
  }
  if (autosaves_.enabled()) {
    const std::int64_t step = autosaves_.autosaved_step();
    stepping += " autosaved=" + (step < 0 ? std::string("none") : std::to_string(step));
  }
  std::printf(
      "status step=%lld time=%.9g particles=%zu healthy=%d running=%d unsaved=%d edits_pending=%llu waiting=%d%s%s%s\n",
      static_cast<long long>(s.step), s.time, s.particles.size(), s.health.ok ? 1 : 0, s.running ? 1 : 0,
      state_.unsaved ? 1 : 0, static_cast<unsigned long long>(state_.last_edit_id - s.acknowledged_edit),
      s.waiting_button.empty() ? 0 : 1, stepping.c_str(),
      s.health.ok ? "" : " message=", s.health.ok ? "" : s.health.message.c_str());
}

void RemoteControl::verb_ids(const remote::Request&, const std::string&) {
  std::string line = "ids";
  for (const std::uint64_t id : simulation_.snapshot().particles.id) {
    line += ' ';
    line += std::to_string(id);
  }
  std::printf("%s\n", line.c_str());
}

void RemoteControl::verb_field_at(const remote::Request& request, const std::string&) {
  EvaluateField evaluate = std::get<EvaluateField>(*request.command);
  evaluate.request = ++field_request_;
  const std::uint64_t sent = evaluate.request;
  send_(std::move(evaluate));
  waiting_ = [sent](const Snapshot& s) {
    if (s.field_request < sent || !s.field_values || s.field_values->field.empty()) return false;
    const Vec3& b = s.field_values->field.front();
    std::string reply = "field";
    for (int a = 0; a < 3; ++a) {
      reply += ' ';
      append_shortest(reply, b[a]);
    }
    std::printf("%s\n", reply.c_str());
    return true;
  };
}

void RemoteControl::verb_drag(const remote::Request& request, const std::string& line) {
  send_touch(std::get<DragParticle>(*request.command), line);
}

void RemoteControl::verb_release(const remote::Request&, const std::string& line) {
  send_touch(ReleaseDrag{}, line);
}

void RemoteControl::verb_add(const remote::Request& request, const std::string& line) {
  std::visit(
      [&](auto c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, AddParticle> || std::is_same_v<T, AddClump>) send_touch(c, line);
      },
      *request.command);
}

void RemoteControl::verb_delete(const remote::Request& request, const std::string& line) {
  send_touch(std::get<DeleteBody>(*request.command), line);
}

void RemoteControl::verb_hold(const remote::Request& request, const std::string& line) {
  send_touch(std::get<HoldParticle>(*request.command), line);
}

void RemoteControl::verb_go(const remote::Request&, const std::string& line) {
  send_touch(GoOn{}, line);  // the Run panel's button of a waiting phase ("Switch the field on")
}

void RemoteControl::verb_lid(const remote::Request& request, const std::string& line) {
  send_edit(request.edit, "lid " + request.rest, line);
}

void RemoteControl::verb_quit(const remote::Request&, const std::string&) {
  std::printf("ok quit\n");
  std::fflush(stdout);
  quitting_ = true;  // nothing read after it is carried out
  waiting_ = nullptr;
  emit quit_requested();
}

void RemoteControl::verb_key(const remote::Request& request, const std::string&) {
  // In the order of remote::kKeyNames.
  static const int keys[] = {Qt::Key_Space, Qt::Key_Escape, Qt::Key_Delete, Qt::Key_R,
                             Qt::Key_F,     Qt::Key_Tab,    Qt::Key_F1};
  static_assert(std::size(keys) == remote::kKeyNames.size());
  emit key_requested(keys[request.key]);
  std::printf("ok key %s\n", request.rest.c_str());
}

void RemoteControl::verb_sync(const remote::Request&, const std::string&) {
  // Answers once the window shows everything sent so far: loads arrived and their view applied, two
  // frames drawn since (app/desktop/remote_view.hpp).
  const std::uint64_t frames = state_.frames_drawn + 2;
  waits_for_frames_ = true;
  waiting_ = [this, frames](const Snapshot& s) {
    if (state_.frames_drawn < frames || s.scene_loads != 1 + state_.loads_sent ||
        state_.view_applied_load != s.scene_loads)
      return false;
    std::printf("ok sync\n");
    return true;
  };
}

}  // namespace lodestone::desktop
