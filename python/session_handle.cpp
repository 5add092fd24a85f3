#include "python/session_handle.hpp"

#include "engine/output/export_frames.hpp"
#include "engine/output/frame_fields.hpp"
#include "engine/scene/checkpoint.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/scene/preset_locations.hpp"
#include "engine/scene/unit_values.hpp"
#include "python/errors.hpp"
#include "python/json_convert.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

namespace py = pybind11;

namespace lodestone::python {
namespace {

// Where a preset named without a path ("two-dipoles") is looked for when no such file is here: the presets installed
// with this module (<prefix>/share/lodestone/presets above the module's file), else the source tree's, whose path the
// build compiled in (as lodestone-run finds them: engine/scene/preset_locations.hpp).
std::string module_presets_directory() {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path file = py::module_::import("lodestone").attr("__file__").cast<std::string>();
  for (fs::path dir = file.parent_path(); dir.has_relative_path(); dir = dir.parent_path())
    if (fs::is_directory(dir / "share" / "lodestone" / "presets", error))
      return (dir / "share" / "lodestone" / "presets").string();
  return LODESTONE_PRESETS_DIR;
}

// The preset of SessionHandle(preset) and a name for it.
std::pair<Preset, std::string> read_preset(py::handle preset) {
  if (preset.is_none()) return {default_preset(), "built-in default preset"};
  if (py::isinstance<py::dict>(preset)) return {document_from_json(to_json(preset)), "dict"};
  if (py::isinstance<py::str>(preset)) {
    const std::string text = preset.cast<std::string>();
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') return {parse_preset(text, "preset text"), "JSON text"};
    const std::string path = resolve_preset_argument(text, module_presets_directory());  // "two-dipoles" works too
    return {load_preset_file(path), path};
  }
  if (py::hasattr(preset, "__fspath__")) {
    const std::string path = py::module_::import("os").attr("fspath")(preset).cast<std::string>();
    return {load_preset_file(path), path};
  }
  throw py::type_error("Session(preset): a path, JSON text, a dict or None (the default scene), not " +
                       std::string(py::str(py::type::of(preset).attr("__name__"))));
}

int thread_count(std::optional<int> threads) {
  if (threads) {
    if (*threads < 1) throw py::value_error("threads must be at least 1, not " + std::to_string(*threads));
    return *threads;
  }
  // As a cluster job or an OpenMP user sets it: OMP_NUM_THREADS, then SLURM_CPUS_PER_TASK, then every hardware thread.
  for (const char* variable : {"OMP_NUM_THREADS", "SLURM_CPUS_PER_TASK"}) {
    const char* value = std::getenv(variable);
    if (value == nullptr || *value == '\0') continue;
    char* end = nullptr;
    const long count = std::strtol(value, &end, 10);
    if (*end != '\0' || count < 1 || count > 4096)
      throw py::value_error(std::string(variable) + "='" + value +
                            "' is not a thread count: allowed a whole number from 1 to 4096 (or pass threads=N)");
    return static_cast<int>(count);
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::string stopped_message(const Session& session) {
  return "the run stopped on a failed check: " + session.state().health.message;
}

}  // namespace

SessionHandle::SessionHandle(std::unique_ptr<Session> session, std::string source, std::optional<int> threads)
    : session_(std::move(session)), source_(std::move(source)) {
  session_->set_threads(thread_count(threads));
}

SessionHandle::SessionHandle(py::object preset, std::optional<int> threads) {
  auto [document, source] = read_preset(preset);
  session_ = std::make_unique<Session>(document);  // PresetError when the scene cannot be built
  source_ = std::move(source);
  session_->set_threads(thread_count(threads));
}

std::unique_ptr<SessionHandle> SessionHandle::from_checkpoint(const std::string& path, std::optional<int> threads) {
  return std::unique_ptr<SessionHandle>(
      new SessionHandle(std::make_unique<Session>(load_checkpoint(path)), "checkpoint " + path, threads));
}

SessionHandle::Access::Access(SessionHandle& simulation)
    : lock_(simulation.busy_, std::try_to_lock), session_(*simulation.session_) {
  if (!lock_.owns_lock()) throw std::runtime_error("the simulation is busy: run() is in progress in another thread");
}

std::int64_t SessionHandle::run(std::optional<std::int64_t> steps, std::optional<double> time, py::object progress) {
  if (steps.has_value() == time.has_value()) throw py::value_error("run() takes steps=N or time=SECONDS, one of them");
  if (steps && *steps < 0) throw py::value_error("steps must be 0 or more, not " + std::to_string(*steps));
  if (time && !(std::isfinite(*time) && *time >= 0.0))
    throw py::value_error("time must be a finite number of seconds, 0 or more");
  Access a = access();
  Session& session = a.session();
  if (!session.state().health.ok) throw SimulationStopped(stopped_message(session));

  // As lodestone-run decides it (app/runner/main.cpp, RunLength::reached): the relative tolerance keeps a
  // time that is a whole number of steps from taking one more for round-off in the summed time.
  const double start = session.state().time;
  auto done = [&](std::int64_t count) {
    if (steps) return count >= *steps;
    return session.state().time - start >= *time * (1.0 - 1e-12);
  };
  auto fraction = [&](std::int64_t count) {
    const double f = steps ? (*steps > 0 ? static_cast<double>(count) / static_cast<double>(*steps) : 1.0)
                           : (*time > 0.0 ? (session.state().time - start) / *time : 1.0);
    return std::clamp(f, 0.0, 1.0);
  };
  std::int64_t count = 0;
  {
    py::gil_scoped_release unlocked;
    using Clock = std::chrono::steady_clock;
    auto last_check = Clock::now(), last_progress = last_check;
    while (!done(count)) {
      session.step();
      if (!session.state().health.ok) break;
      ++count;
      // Ctrl+C reaches Python only through the interpreter: look for it a few times a second.
      if (Clock::now() - last_check > std::chrono::milliseconds(100)) {
        py::gil_scoped_acquire locked;
        try {
          if (PyErr_CheckSignals() != 0) throw py::error_already_set();
          if (!progress.is_none() && Clock::now() - last_progress > std::chrono::milliseconds(500)) {
            progress(fraction(count), count);
            last_progress = Clock::now();
          }
        } catch (py::error_already_set& e) {
          // Ctrl+C, seen here or while the progress callback ran: say where the run stopped.
          if (e.matches(PyExc_KeyboardInterrupt)) interrupted(session, count, steps, time);
          throw;
        }
        last_check = Clock::now();
      }
    }
  }
  if (!session.state().health.ok) throw SimulationStopped(stopped_message(session));
  if (!progress.is_none()) progress(fraction(count), count);
  return count;
}

void SessionHandle::interrupted(const Session& session, std::int64_t count, std::optional<std::int64_t> steps,
                                std::optional<double> time) {
  char text[256];
  std::snprintf(text, sizeof text,
                "run() interrupted at step %lld (t = %.9g s) after %lld of %s; the state is kept there",
                static_cast<long long>(session.state().step), session.state().time, static_cast<long long>(count),
                steps ? (std::to_string(*steps) + " steps").c_str() : (std::to_string(*time) + " s").c_str());
  PyErr_SetString(PyExc_KeyboardInterrupt, text);
  throw py::error_already_set();
}

void SessionHandle::reset() {
  Access a = access();
  auto fresh = std::make_unique<Session>(a.session().folded_document());  // PresetError: the old scene stays
  fresh->set_threads(a.session().threads());
  session_ = std::move(fresh);  // `a` holds the lock, not the session: nothing reads the old one after this
}

void SessionHandle::set(py::handle path, py::handle value, bool confirm) {
  // The panels' edit: each dotted path with its value as given, read by that field's reader in the Session (field,
  // value, what is allowed), only the sections it touches checked again.
  // A bare number in the preset's own unit system (units.system), as its file reads it.
  const DisplayUnits units = access().session().document().units;
  std::vector<ParameterChange> changes;
  if (py::isinstance<py::dict>(path) && value.is_none()) {
    for (auto [key, item] : path.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key))
        throw py::type_error("set({...}): the keys are dotted paths (str), not " +
                             std::string(py::str(py::type::of(key).attr("__name__"))));
      changes.push_back({key.cast<std::string>(), value_in_si(units, key.cast<std::string>(), to_json(item))});
    }
  } else if (py::isinstance<py::str>(path)) {
    changes.push_back({path.cast<std::string>(), value_in_si(units, path.cast<std::string>(), to_json(value))});
  } else {
    throw py::type_error("set(path, value) or set({path: value, ...}): a dotted path (str) or a dict of them");
  }
  Access a = access();
  Session& session = a.session();
  PreparedEdit edit = session.prepare_edit(changes);  // throws PresetError, changing nothing
  if (!confirm)
    if (std::optional<std::string> why = session.edit_warning(edit)) {
      std::string paths;
      for (const ParameterChange& c : changes) paths += (paths.empty() ? "" : ", ") + c.path;
      throw ConfirmationNeeded(paths + ": " + *why + " (set(..., confirm=True) applies it)");
    }
  session.apply_prepared(std::move(edit));
}

py::object SessionHandle::get(const std::string& path) {
  Access a = access();
  const Session& session = a.session();
  return from_json(value_in_document_units(session.document().units, path, session.value_at(path)));
}

std::string SessionHandle::hold(std::uint64_t particle_id, const std::string& what) {
  const auto* found = std::find(std::begin(kHoldNames), std::end(kHoldNames), what);
  if (found == std::end(kHoldNames))
    throw PresetError("hold.what", "'" + what +
                                       "' is not what can be held; allowed: position, orientation, both, none "
                                       "(none lets the particle go)");
  return access().session().hold(particle_id, static_cast<HoldKind>(found - std::begin(kHoldNames)));
}

std::string SessionHandle::go() {
  return access().session().go();
}

std::optional<std::string> SessionHandle::undo() {
  return access().session().undo();
}

std::optional<std::string> SessionHandle::redo() {
  return access().session().redo();
}

void SessionHandle::save_preset(const std::string& path) {
  save_preset_file(access().session().document(), path);
}

void SessionHandle::save_checkpoint(const std::string& path) {
  Access a = access();
  // As lodestone-run --checkpoint: the timeline entries applied so far folded into the parameters.
  lodestone::save_checkpoint(path, a.session().folded_document(), a.session().state());
}

void SessionHandle::export_frame(const std::string& path, const std::string& vtk_encoding) {
  const std::optional<VtkEncoding> encoding = vtk_encoding_of(vtk_encoding);
  if (!encoding) throw std::invalid_argument("vtk_encoding '" + vtk_encoding + "': allowed are ascii, base64 and raw");
  Access a = access();
  lodestone::export_frame(path, frame_fields(a.session().model(), a.session().state()), *encoding);
}

py::dict SessionHandle::document() {
  return from_json(preset_to_json(access().session().document())).cast<py::dict>();
}

}  // namespace lodestone::python
