#include "app/desktop/remote_control.hpp"

#include "app/desktop/remote_view.hpp"
#include "engine/output/field_probe.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/scene/units.hpp"

#include <QSocketNotifier>
#include <QTimer>
#include <unistd.h>

#include <cstdio>
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
  poll_->setInterval(2);
  connect(poll_, &QTimer::timeout, this, &RemoteControl::poll);
  poll_->start();
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
  // Nothing runs before the panels' copy holds the scene: a `set` or `get` would otherwise act on the empty
  // scene the window starts with (the first snapshot adopted carries it).
  if (state_.adopted_revision == 0) return;
  for (size_t end; !waiting_ && (end = pending_.find('\n')) != std::string::npos;) {
    const std::string line = pending_.substr(0, end);
    pending_.erase(0, end + 1);
    execute(line);
  }
}

void RemoteControl::poll() {
  simulation_.update_snapshot();
  ui::adopt_snapshot(state_, simulation_.snapshot());  // as a frame would: `get` and `set` see the values in force
  report_stop();
  if (waiting_ && waiting_(simulation_.snapshot())) {
    std::fflush(stdout);
    waiting_ = nullptr;
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
  send_edit(std::move(edited), "lid " + argument, "lid " + argument);
}

void RemoteControl::send_edit(Preset edited, const std::string& done, const std::string& line) {
  validate_preset(edited);
  state_.edited = std::move(edited);
  const std::uint64_t request = ++state_.last_request_id;
  send_(ApplyParameters{state_.edited, ++state_.last_edit_id, false, request});
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
      if (path.empty() || value_text.empty())
        return refuse("usage: set PATH VALUE (VALUE as JSON, or text: set field.strength 40 mT)");
      // JSON (0.04, "40 mT", [0, 0, 1], true); other text is taken as a string, as a preset would write it,
      // so that `set field.strength 40 mT` works and a bad value is refused by the schema, which names the
      // field, the value and what is allowed (not by the JSON parser).
      json value;
      try {
        value = json::parse(value_text);
      } catch (const json::parse_error&) {
        value = value_text;
      }
      json document = preset_to_json(state_.edited);
      set_json_path(document, path, value, "$");
      Preset edited = preset_from_json(document);  // the schema's checks: field, value, what is allowed
      send_edit(std::move(edited), "set " + path, line);
    } else if (verb == "confirm") {
      const Snapshot& s = simulation_.snapshot();
      if (!s.confirmation) return refuse("no edit is waiting for confirmation");
      const std::uint64_t request = ++state_.last_request_id;
      send_(ApplyParameters{s.confirmation->preset, ++state_.last_edit_id, true, request});
      await_reply(request, [line](const Reply& r) {
        if (r.ok)
          std::printf("ok confirm\n");
        else
          std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
      });
    } else if (verb == "get") {
      json document = preset_to_json(state_.edited);
      std::printf("value %s %s\n", rest.c_str(), json_at_path(document, rest, "$").dump().c_str());
    } else if (verb == "run" || verb == "pause") {
      send_(SetRunning{verb == "run"});
      std::printf("ok %s\n", verb.c_str());
    } else if (verb == "reset") {
      send_(ResetScene{});
      std::printf("ok reset\n");
    } else if (verb == "step" || verb == "advance") {
      StepOnce step{1, 0.0, ++state_.last_request_id};
      if (verb == "step") {
        std::size_t used = 0;
        const long long steps = rest.empty() ? 1 : std::stoll(rest, &used);
        if (!rest.empty() && used != rest.size()) return refuse("steps '" + rest + "': allowed a whole number");
        if (steps < 1 || steps > 1000000000) return refuse("steps " + rest + ": allowed 1 to 1000000000");
        step.steps = static_cast<int>(steps);
      } else {
        std::string error;
        if (!parse_quantity_or_si(rest, Quantity::Time, step.seconds, error) || !(step.seconds > 0.0))
          return refuse("time '" + rest + "': allowed a simulated time above 0 (e.g. 2 ms, 0.5 s)" +
                        (error.empty() ? "" : "; " + error));
      }
      send_(step);
      await_reply(step.request, [verb, line](const Reply& r) {
        if (r.ok)
          std::printf("ok %s %s\n", verb.c_str(), r.text.substr(r.text.find(' ') + 1).c_str());
        else
          std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
      });
    } else if (verb == "hash") {
      const std::uint64_t request = ++state_.last_request_id;
      send_(HashState{request});
      await_reply(request, [](const Reply& r) { std::printf("hash %s\n", r.text.c_str()); });
    } else if (verb == "history") {
      const std::uint64_t request = ++state_.last_request_id;
      send_(HashState{request});  // any answered command: the snapshot carrying it is up to date
      waiting_ = [request](const Snapshot& s) {
        if (s.reply.request != request) return false;
        if (!s.history || s.history->steps.empty()) {
          std::printf("history none\n");
          return true;
        }
        const HistorySummary& h = *s.history;
        std::printf("history %lld %lld now=%lld head=%lld points=%zu memory=%.1fMiB budget=%.0fMiB\n",
                    static_cast<long long>(h.steps.front()), static_cast<long long>(h.steps.back()),
                    static_cast<long long>(s.step), static_cast<long long>(h.head_step), h.steps.size(),
                    static_cast<double>(h.bytes) / (1 << 20), static_cast<double>(h.budget) / (1 << 20));
        return true;
      };
    } else if (verb == "rewind") {
      std::size_t used = 0;
      const long long target = std::stoll(rest, &used);
      if (used != rest.size()) return refuse("step '" + rest + "': allowed a whole number");
      const std::uint64_t request = ++state_.last_request_id;
      send_(Rewind{target, false, request});
      await_reply(request, [line, target](const Reply& r) {
        if (r.ok)
          std::printf("ok rewind %lld %s\n", target, r.text.c_str());
        else
          std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
      });
    } else if (verb == "undo" || verb == "redo" || verb == "recover") {
      const std::uint64_t request = ++state_.last_request_id;
      if (verb == "undo")
        send_(Undo{request});
      else if (verb == "redo")
        send_(Redo{request});
      else
        send_(GoBack{0.0, request});
      await_reply(request, [](const Reply& r) { std::printf(r.ok ? "%s\n" : "refused: %s\n", r.text.c_str()); });
    } else if (verb == "back") {
      GoBack back{0.0, ++state_.last_request_id};
      std::string error;
      if (!parse_quantity_or_si(rest, Quantity::Time, back.seconds, error) || !(back.seconds > 0.0))
        return refuse("time '" + rest + "': allowed a simulated time above 0 (e.g. 2 ms, 0.5 s)" +
                      (error.empty() ? "" : "; " + error));
      send_(back);
      await_reply(back.request, [line](const Reply& r) {
        if (r.ok)
          std::printf("ok back %s\n", r.text.c_str());
        else
          std::printf("refused: %s: %s\n", line.c_str(), r.text.c_str());
      });
    } else if (verb == "load") {
      const std::uint64_t revision = simulation_.snapshot().message_revision;
      ui::load_preset(state_, rest, send_);
      if (state_.notice_is_error) return refuse(state_.notice);
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
    } else if (verb == "save") {
      simulation_.update_snapshot();  // the newest document (adopted once every edit is acknowledged)
      ui::adopt_snapshot(state_, simulation_.snapshot());
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
    } else if (verb == "drag") {
      std::istringstream words_in(rest);
      std::vector<std::string> words;
      for (std::string w; words_in >> w;) words.push_back(w);
      if (words.size() != 4 && words.size() != 5)
        return refuse(
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
          return refuse("drag.stiffness: '" + words[4] + "' is not a number; allowed 0.01 to 50 (1: the default feel)");
      }
      send_touch(d, line);
    } else if (verb == "release") {
      send_touch(ReleaseDrag{}, line);
    } else if (verb == "add") {
      if (rest.empty())
        return refuse("usage: add JSON, e.g. add {\"position\": [0, 0, \"2 mm\"], \"radius\": \"0.5 mm\"}");
      Command add = parse_add(rest);
      std::visit(
          [&](auto& c) {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, AddParticle> || std::is_same_v<T, AddClump>) send_touch(c, line);
          },
          add);
    } else if (verb == "delete") {
      send_touch(DeleteBody{0, parse_id(rest, "delete.id")}, line);
    } else if (verb == "lid") {
      if (rest.empty()) return refuse("usage: lid PRESSURE | off (PRESSURE with units: 0.5 atm, 2 bar, 500 Pa)");
      set_lid(rest);
    } else if (verb == "quit") {
      std::printf("ok quit\n");
      std::fflush(stdout);
      emit quit_requested();
    } else if (verb == "sync") {
      // Answers once the window shows everything sent so far: loads arrived and their view applied, two
      // frames drawn since (app/desktop/remote_view.hpp).
      const std::uint64_t frames = state_.frames_drawn + 2;
      waiting_ = [this, frames](const Snapshot& s) {
        if (state_.frames_drawn < frames || s.scene_loads != 1 + state_.loads_sent ||
            state_.view_applied_load != s.scene_loads)
          return false;
        std::printf("ok sync\n");
        return true;
      };
    } else if (execute_view_verb(verb, rest, line, simulation_.snapshot(), state_)) {
      // view, color, frame, select, sidebar, help, about (app/desktop/remote_view.hpp)
    } else {
      refuse("unknown command '" + verb +
             "'; commands: set, confirm, get, run, pause, reset, step, advance, hash, history, rewind, undo, "
             "redo, recover, back, load, save, status, field-at, drag, release, add, delete, lid, sync, view, "
             "field-view, color, "
             "frame, select, sidebar, help, "
             "about, quit");
    }
  } catch (const PresetError& e) {
    refuse(e.what());
  } catch (const std::exception& e) {
    refuse(e.what());
  }
  std::fflush(stdout);
}

}  // namespace lodestone::desktop
