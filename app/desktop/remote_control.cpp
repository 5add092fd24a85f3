#include "app/desktop/remote_control.hpp"

#include "app/desktop/remote_view.hpp"
#include "engine/output/field_probe.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"
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

RemoteControl::RemoteControl(SimulationThread& simulation, ui::UiState& state, ui::CommandSink send, QObject* parent)
    : QObject(parent),
      simulation_(simulation),
      state_(state),
      send_(std::move(send)),
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
    if (verb == "quit" && more.empty()) return verb_quit("", line);
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

// A particle id: a non-negative integer, named in the error.
std::uint64_t parse_id(const std::string& text, const std::string& what) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw PresetError(what, "'" + text +
                                "' is not a particle id; allowed: a non-negative integer (the inspector shows "
                                "a particle's id)");
  return std::stoull(text);
}

// The answer to a command that cannot be carried out; it changes nothing.
void refuse(const std::string& line, const std::string& why) {
  std::printf("refused: %s: %s\n", line.c_str(), why.c_str());
  std::fflush(stdout);
}

// A simulated time above 0 ("2 ms", 0.5 s); false, with the refusal's text in `why`, when `text` is not one.
bool read_simulated_time(const std::string& text, double& seconds, std::string& why) {
  std::string error;
  if (parse_quantity_or_si(text, Quantity::Time, seconds, error) && seconds > 0.0) return true;
  why =
      "time '" + text + "': allowed a simulated time above 0 (e.g. 2 ms, 0.5 s)" + (error.empty() ? "" : "; " + error);
  return false;
}

// A whole number, all of `text`; false when it is not one (or out of range).
bool read_whole(const std::string& text, long long& value) {
  std::size_t used = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == text.size();
}

// The words of `text`, split at white space.
std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

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

Command RemoteControl::parse_add(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw PresetError("add", "'" + text + "' is not JSON (" + e.what() +
                                 "); e.g. {\"position\": [\"1 mm\", 0, \"2 mm\"], "
                                 "\"radius\": \"0.5 mm\"}");
  }
  detail::expect_object(j, "add");
  if (j.contains("shape")) {
    AddClump c;
    read_object(c.clump, j, "add", clump_schema());
    return c;
  }
  AddParticle a;
  if (j.contains("copy")) {
    a.copy_of = detail::read_unsigned(j["copy"], "add.copy");
    if (!j.contains("position")) throw PresetError("add.position", "missing; a copy needs a position");
    j.erase("copy");
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.key() != "position")
        throw PresetError("add." + it.key(), "a copy takes only a position (the rest is the copied particle's)");
  }
  read_object(a.particle, j, "add", particle_entry_schema());
  return a;
}

void RemoteControl::set_lid(const std::string& argument) {
  Preset edited = state_.edited;
  if (argument == "off") {
    if (edited.pressure.method != PressureMethod::Lid) throw PresetError("lid", "there is no lid to take off");
    edited.pressure.method = PressureMethod::None;
  } else {
    json value = argument;  // "0.5 atm"; a bare number is in pascals
    if (!argument.empty() && argument.find_first_not_of("0123456789.eE+-") == std::string::npos) {
      try {
        value = json::parse(argument);
      } catch (const json::parse_error&) {
      }
    }
    const double pressure = detail::read_real(value, Quantity::Pressure, ranges::non_negative(), "lid.pressure");
    if (edited.box.z_max == SideKind::Periodic)
      throw PresetError("lid",
                        "the box is periodic along z (box.z_max \"periodic\"): a lid needs a top side that is "
                        "a wall or open");
    edited.box.z_max = SideKind::Wall;  // the lid replaces the top side
    edited.pressure.method = PressureMethod::Lid;
    edited.pressure.pressure = pressure;
  }
  std::vector<ParameterChange> changes;
  for (const char* path : {"box.z_max", "pressure.method", "pressure.pressure"})
    changes.push_back({path, value_at(edited, path)});
  send_edit(std::move(changes), "lid " + argument, "lid " + argument);
}

void RemoteControl::send_edit(std::vector<ParameterChange> changes, const std::string& done, const std::string& line) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(ApplyParameters{std::move(changes), ++state_.last_edit_id, false, request});
  await_reply(request, [done, line](const Reply& r) {
    if (r.ok)
      std::printf("ok %s\n", done.c_str());
    else if (r.text.rfind("confirm: ", 0) == 0)
      std::printf("%s (send 'confirm' to apply it)\n", r.text.c_str());
    else
      std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
  });
}

void RemoteControl::execute(const std::string& line) {
  std::istringstream in(line);
  std::string verb;
  in >> verb;
  std::string rest;
  std::getline(in >> std::ws, rest);
  if (verb.empty()) return;
  // The verbs listed in remote_control.hpp, each carried out by one member; the view's verbs come after them.
  static const std::map<std::string, VerbHandler> handlers = {
      {"set", &RemoteControl::verb_set},           {"confirm", &RemoteControl::verb_confirm},
      {"get", &RemoteControl::verb_get},           {"run", &RemoteControl::verb_run},
      {"pause", &RemoteControl::verb_pause},       {"reset", &RemoteControl::verb_reset},
      {"step", &RemoteControl::verb_step},         {"advance", &RemoteControl::verb_advance},
      {"hash", &RemoteControl::verb_hash},         {"history", &RemoteControl::verb_history},
      {"rewind", &RemoteControl::verb_rewind},     {"undo", &RemoteControl::verb_undo},
      {"redo", &RemoteControl::verb_redo},         {"recover", &RemoteControl::verb_recover},
      {"back", &RemoteControl::verb_back},         {"load", &RemoteControl::verb_load},
      {"save", &RemoteControl::verb_save},         {"status", &RemoteControl::verb_status},
      {"field-at", &RemoteControl::verb_field_at}, {"drag", &RemoteControl::verb_drag},
      {"release", &RemoteControl::verb_release},   {"add", &RemoteControl::verb_add},
      {"delete", &RemoteControl::verb_delete},     {"lid", &RemoteControl::verb_lid},
      {"quit", &RemoteControl::verb_quit},         {"sync", &RemoteControl::verb_sync},
      {"cancel", &RemoteControl::verb_cancel},     {"key", &RemoteControl::verb_key},
  };
  try {
    if (const auto found = handlers.find(verb); found != handlers.end()) {
      (this->*found->second)(rest, line);
    } else if (execute_view_verb(verb, rest, line, simulation_.snapshot(), state_)) {
      // view, field-view, color, frame, select, sidebar, help, about (app/desktop/remote_view.hpp)
    } else {
      refuse(line,
             "unknown command '" + verb +
                 "'; commands: set, confirm, get, run, pause, reset, step, advance, hash, history, rewind, undo, "
                 "redo, recover, back, load, save, status, field-at, drag, release, add, delete, lid, sync, key, view, "
                 "field-view, color, frame, select, sidebar, help, about, quit");
    }
  } catch (const PresetError& e) {
    refuse(line, e.what());
  } catch (const std::exception& e) {
    refuse(line, e.what());
  }
  std::fflush(stdout);
}

void RemoteControl::verb_set(const std::string& rest, const std::string& line) {
  std::istringstream words(rest);
  std::string path, value_text;
  words >> path;
  std::getline(words >> std::ws, value_text);
  if (path.empty() || value_text.empty())
    return refuse(line, "usage: set PATH VALUE (VALUE as JSON, or text: set field.strength 40 mT)");
  // JSON (0.04, "40 mT", [0, 0, 1], true); other text is taken as a string, as a preset would write it,
  // so that `set field.strength 40 mT` works and a bad value is refused by the schema, which names the
  // field, the value and what is allowed (not by the JSON parser).
  json value;
  try {
    value = json::parse(value_text);
  } catch (const json::parse_error&) {
    value = value_text;
  }
  // The simulation thread reads it with the field's reader: a refusal names the field, the value and what is
  // allowed.
  send_edit({{path, value}}, "set " + path, line);
}

void RemoteControl::verb_confirm(const std::string&, const std::string& line) {
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

void RemoteControl::verb_cancel(const std::string&, const std::string& line) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(DeclineEdit{request});
  await_reply(request, [line](const Reply& r) {
    if (r.ok)
      std::printf("ok cancel\n");
    else
      std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
  });
}

void RemoteControl::verb_get(const std::string& rest, const std::string&) {
  // The parameters in force; the generator's list of particles is the document's alone (Session::value_at).
  const bool listed = rest.rfind("particles.particles", 0) == 0 && state_.document;
  std::printf("value %s %s\n", rest.c_str(),
              value_at(listed ? *state_.document : state_.edited, rest, "$").dump().c_str());
}

void RemoteControl::verb_run(const std::string&, const std::string&) {
  send_(SetRunning{true});
  std::printf("ok run\n");
}

void RemoteControl::verb_pause(const std::string&, const std::string&) {
  send_(SetRunning{false});
  if (step_request_ == 0) {
    std::printf("ok pause\n");
    return;
  }
  // A long step under way ends: its "stopped: ..." first, then this answer.
  ++pauses_due_;
  waiting_ = [this](const Snapshot& s) { return step_answered(s); };
}

void RemoteControl::verb_reset(const std::string&, const std::string&) {
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

void RemoteControl::verb_step(const std::string& rest, const std::string& line) {
  StepOnce step{1, 0.0, ++state_.last_request_id};
  long long steps = 1;
  if (!rest.empty() && !read_whole(rest, steps))
    return refuse(line, "steps '" + rest + "': allowed a whole number, 1 to 1000000000");
  if (steps < 1 || steps > 1000000000) return refuse(line, "steps " + rest + ": allowed 1 to 1000000000");
  step.steps = static_cast<int>(steps);
  send_step(step, step.request, print_ok("step"), line);
}

void RemoteControl::verb_advance(const std::string& rest, const std::string& line) {
  StepOnce step{1, 0.0, ++state_.last_request_id};
  std::string why;
  if (!read_simulated_time(rest, step.seconds, why)) return refuse(line, why);
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

void RemoteControl::verb_hash(const std::string&, const std::string&) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(HashState{request});
  await_reply(request, [](const Reply& r) { std::printf("hash %s\n", r.text.c_str()); });
}

void RemoteControl::verb_history(const std::string&, const std::string&) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(HashState{request});  // any answered command: the snapshot carrying it is up to date
  waiting_ = [request](const Snapshot& s) {
    if (s.reply.request != request) return false;
    print_history(s);
    return true;
  };
}

void RemoteControl::verb_rewind(const std::string& rest, const std::string& line) {
  long long target = 0;
  if (!read_whole(rest, target)) return refuse(line, "step '" + rest + "': allowed a whole number (see `history`)");
  const std::uint64_t request = ++state_.last_request_id;
  // Answered "now S" at once, or "rewind T now S" after a replay: "ok rewind T now S" either way.
  send_step(
      Rewind{target, false, request}, request,
      [target](const std::string& text) {
        std::printf("ok rewind %lld %s\n", target, text.substr(text.find("now ")).c_str());
      },
      line);
}

void RemoteControl::verb_undo(const std::string&, const std::string&) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(Undo{request});
  await_undo_reply(request);
}

void RemoteControl::verb_redo(const std::string&, const std::string&) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(Redo{request});
  await_undo_reply(request);
}

void RemoteControl::verb_recover(const std::string&, const std::string&) {
  const std::uint64_t request = ++state_.last_request_id;
  send_(GoBack{0.0, request});
  await_undo_reply(request);
}

void RemoteControl::await_undo_reply(std::uint64_t request) {
  await_reply(request, [](const Reply& r) { std::printf(r.ok ? "%s\n" : "refused: %s\n", r.text.c_str()); });
}

void RemoteControl::verb_back(const std::string& rest, const std::string& line) {
  GoBack back{0.0, ++state_.last_request_id};
  std::string why;
  if (!read_simulated_time(rest, back.seconds, why)) return refuse(line, why);
  send_(back);
  await_reply(back.request, [line](const Reply& r) {
    if (r.ok)
      std::printf("ok back %s\n", r.text.c_str());
    else
      std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
  });
}

void RemoteControl::verb_load(const std::string& rest, const std::string& line) {
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

void RemoteControl::verb_save(const std::string& rest, const std::string& line) {
  simulation_.update_snapshot();  // the newest document (adopted once every edit is acknowledged)
  ui::adopt_snapshot(state_, simulation_.snapshot());
  ui::save_preset(state_, rest);
  if (state_.notice_is_error) return refuse(line, state_.notice);
  std::printf("ok save %s\n", rest.c_str());
}

void RemoteControl::verb_status(const std::string&, const std::string&) {
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
  std::printf("status step=%lld time=%.9g particles=%zu healthy=%d running=%d unsaved=%d edits_pending=%llu%s%s%s\n",
              static_cast<long long>(s.step), s.time, s.particles.size(), s.health.ok ? 1 : 0, s.running ? 1 : 0,
              state_.unsaved ? 1 : 0, static_cast<unsigned long long>(state_.last_edit_id - s.acknowledged_edit),
              stepping.c_str(), s.health.ok ? "" : " message=", s.health.ok ? "" : s.health.message.c_str());
}

void RemoteControl::verb_field_at(const std::string& rest, const std::string&) {
  std::vector<std::string> words = split_words(rest);
  const bool exact = !words.empty() && words.back() == "exact";
  if (exact) words.pop_back();
  const Vec3 x = parse_point(words, "field-at");  // FieldInputError: refused by execute
  const std::uint64_t request = ++field_request_;
  send_(EvaluateField{request, {x}, exact});
  waiting_ = [request](const Snapshot& s) {
    if (s.field_request < request || !s.field_values || s.field_values->field.empty()) return false;
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

void RemoteControl::verb_drag(const std::string& rest, const std::string& line) {
  const std::vector<std::string> words = split_words(rest);
  if (words.size() != 4 && words.size() != 5)
    return refuse(line,
                  "usage: drag ID X Y Z [STIFFNESS] (coordinates in metres or with units, STIFFNESS relative, 1 "
                  "the default)");
  DragParticle d;
  d.particle_id = parse_id(words[0], "drag.id");
  d.target = parse_point({words[1], words[2], words[3]}, "drag");
  if (words.size() == 5) {
    std::size_t used = 0;
    try {
      d.relative_stiffness = std::stod(words[4], &used);
    } catch (const std::exception&) {
    }
    if (used == 0 || used != words[4].size())
      return refuse(line,
                    "drag.stiffness: '" + words[4] + "' is not a number; allowed 0.01 to 50 (1: the default feel)");
  }
  send_touch(d, line);
}

void RemoteControl::verb_release(const std::string&, const std::string& line) {
  send_touch(ReleaseDrag{}, line);
}

void RemoteControl::verb_add(const std::string& rest, const std::string& line) {
  if (rest.empty())
    return refuse(line, "usage: add JSON, e.g. add {\"position\": [0, 0, \"2 mm\"], \"radius\": \"0.5 mm\"}");
  Command add = parse_add(rest);
  std::visit(
      [&](auto& c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, AddParticle> || std::is_same_v<T, AddClump>) send_touch(c, line);
      },
      add);
}

void RemoteControl::verb_delete(const std::string& rest, const std::string& line) {
  send_touch(DeleteBody{0, parse_id(rest, "delete.id")}, line);
}

void RemoteControl::verb_lid(const std::string& rest, const std::string& line) {
  if (rest.empty()) return refuse(line, "usage: lid PRESSURE | off (PRESSURE with units: 0.5 atm, 2 bar, 500 Pa)");
  set_lid(rest);
}

void RemoteControl::verb_quit(const std::string&, const std::string&) {
  std::printf("ok quit\n");
  std::fflush(stdout);
  quitting_ = true;  // nothing read after it is carried out
  waiting_ = nullptr;
  emit quit_requested();
}

void RemoteControl::verb_key(const std::string& rest, const std::string& line) {
  static const std::map<std::string, int> keys = {
      {"space", Qt::Key_Space}, {"escape", Qt::Key_Escape}, {"delete", Qt::Key_Delete}, {"r", Qt::Key_R},
      {"f", Qt::Key_F},         {"tab", Qt::Key_Tab},       {"f1", Qt::Key_F1},
  };
  const auto found = keys.find(rest);
  if (found == keys.end()) return refuse(line, "key '" + rest + "': allowed space, escape, delete, r, f, tab, f1");
  emit key_requested(found->second);
  std::printf("ok key %s\n", rest.c_str());
}

void RemoteControl::verb_sync(const std::string&, const std::string&) {
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
