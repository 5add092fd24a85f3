#include "app/desktop/remote_control.hpp"

#include "app/desktop/remote_view.hpp"
#include "engine/io/field_probe.hpp"
#include "engine/io/preset_edits.hpp"
#include "engine/io/preset_io.hpp"

#include <QSocketNotifier>
#include <QTimer>
#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <vector>

namespace lodestone::desktop {

RemoteControl::RemoteControl(SimulationThread& simulation, ui::UiState& state, ui::CommandSink send, QObject* parent)
    : QObject(parent),
      simulation_(simulation),
      state_(state),
      send_(std::move(send)),
      notifier_(new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this)),
      field_poll_(new QTimer(this)),
      sync_poll_(new QTimer(this)) {
  connect(notifier_, &QSocketNotifier::activated, this, &RemoteControl::read_input);
  field_poll_->setInterval(2);
  connect(field_poll_, &QTimer::timeout, this, &RemoteControl::answer_field);
  sync_poll_->setInterval(5);
  connect(sync_poll_, &QTimer::timeout, this, &RemoteControl::answer_sync);
}

void RemoteControl::read_input() {
  char buffer[4096];
  const ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
  if (got <= 0) {  // end of input: nothing more will come
    notifier_->setEnabled(false);
    return;
  }
  pending_.append(buffer, static_cast<size_t>(got));
  execute_pending();
}

void RemoteControl::execute_pending() {
  for (size_t end; !awaiting_field_ && !awaiting_sync_ && (end = pending_.find('\n')) != std::string::npos;) {
    const std::string line = pending_.substr(0, end);
    pending_.erase(0, end + 1);
    execute(line);
  }
}

void RemoteControl::answer_field() {
  simulation_.update_snapshot();
  const Snapshot& s = simulation_.snapshot();
  if (s.field_request < field_request_ || !s.field_values || s.field_values->field.empty()) return;
  const Vec3& b = s.field_values->field.front();
  std::string reply = "field";
  for (int a = 0; a < 3; ++a) {
    reply += ' ';
    append_shortest(reply, b[a]);
  }
  std::printf("%s\n", reply.c_str());
  std::fflush(stdout);
  field_poll_->stop();
  awaiting_field_ = false;
  execute_pending();
}

void RemoteControl::answer_sync() {
  simulation_.update_snapshot();
  const Snapshot& s = simulation_.snapshot();
  if (state_.frames_drawn < sync_frames_ || s.scene_loads != 1 + state_.loads_sent ||
      state_.view_applied_load != s.scene_loads)
    return;
  std::printf("ok sync\n");
  std::fflush(stdout);
  sync_poll_->stop();
  awaiting_sync_ = false;
  execute_pending();
}

void RemoteControl::execute(const std::string& line) {
  std::istringstream in(line);
  std::string verb;
  in >> verb;
  std::string rest;
  std::getline(in >> std::ws, rest);
  auto refuse = [&](const std::string& why) {
    std::printf("refused: %s: %s\n", line.c_str(), why.c_str());
    std::fflush(stdout);
  };
  try {
    if (verb.empty()) {
      return;
    } else if (verb == "set") {
      std::istringstream words(rest);
      std::string path, value_text;
      words >> path;
      std::getline(words >> std::ws, value_text);
      if (path.empty() || value_text.empty()) return refuse("usage: set PATH VALUE (VALUE as JSON)");
      const json value = json::parse(value_text);
      json document = preset_to_json(state_.edited);
      set_json_path(document, path, value, "$");
      Preset edited = preset_from_json(document);  // the schema's checks: field, value, what is allowed
      validate_preset(edited);
      state_.edited = std::move(edited);
      ui::send_parameters(state_, send_);
      std::printf("ok set %s\n", path.c_str());
    } else if (verb == "get") {
      json document = preset_to_json(state_.edited);
      std::printf("value %s %s\n", rest.c_str(), json_at_path(document, rest, "$").dump().c_str());
    } else if (verb == "run" || verb == "pause") {
      send_(SetRunning{verb == "run"});
      std::printf("ok %s\n", verb.c_str());
    } else if (verb == "reset") {
      send_(ResetScene{});
      std::printf("ok reset\n");
    } else if (verb == "step") {
      const int steps = rest.empty() ? 1 : std::stoi(rest);
      if (steps < 1) return refuse("steps " + rest + ": allowed 1 or more");
      send_(StepOnce{steps});
      std::printf("ok step %d\n", steps);
    } else if (verb == "load") {
      ui::load_preset(state_, rest, send_);
      if (state_.notice_is_error) return refuse(state_.notice);
      std::printf("ok load %s\n", rest.c_str());
    } else if (verb == "save") {
      ui::save_preset(state_, rest);
      if (state_.notice_is_error) return refuse(state_.notice);
      std::printf("ok save %s\n", rest.c_str());
    } else if (verb == "status") {
      const Snapshot& s = simulation_.snapshot();
      std::printf("status step=%lld time=%.9g particles=%zu healthy=%d running=%d unsaved=%d edits_pending=%llu%s%s\n",
                  static_cast<long long>(s.step), s.time, s.particles.size(), s.health.ok ? 1 : 0, s.running ? 1 : 0,
                  state_.unsaved ? 1 : 0, static_cast<unsigned long long>(state_.last_edit_id - s.acknowledged_edit),
                  s.health.ok ? "" : " message=", s.health.ok ? "" : s.health.message.c_str());
    } else if (verb == "field-at") {
      std::istringstream words_in(rest);
      std::vector<std::string> words;
      for (std::string w; words_in >> w;) words.push_back(w);
      const bool exact = !words.empty() && words.back() == "exact";
      if (exact) words.pop_back();
      const Vec3 x = parse_point(words, "field-at");  // FieldInputError: refused below
      send_(EvaluateField{++field_request_, {x}, exact});
      awaiting_field_ = true;
      field_poll_->start();
    } else if (verb == "quit") {
      std::printf("ok quit\n");
      std::fflush(stdout);
      emit quit_requested();
    } else if (verb == "sync") {
      // Answers once the window shows everything sent so far: loads arrived and their view applied, two
      // frames drawn since (app/desktop/remote_view.hpp).
      sync_frames_ = state_.frames_drawn + 2;
      awaiting_sync_ = true;
      sync_poll_->start();
    } else if (execute_view_verb(verb, rest, line, simulation_.snapshot(), state_)) {
      // view, color, frame, select, sidebar, help, about (app/desktop/remote_view.hpp)
    } else {
      refuse("unknown command '" + verb +
             "'; commands: set, get, run, pause, reset, step, load, save, status, field-at, "
             "view, color, frame, select, sidebar, help, about, quit");
    }
  } catch (const PresetError& e) {
    refuse(e.what());
  } catch (const std::exception& e) {
    refuse(e.what());
  }
  std::fflush(stdout);
}

}  // namespace lodestone::desktop
