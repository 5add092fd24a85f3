#pragma once
// lodestone.Session (also lodestone.Simulation, its earlier name): the engine's Session (engine/session/session.hpp)
// driven from Python, behind a lock. Three names kept apart: the engine's Simulation steps a model and a state; a
// Session runs a scene document; this SessionHandle is the Python object holding a Session. Everything that changes
// the run goes through the Session as it does for the app and the runner: a preset is read by the preset reader,
// set() is the edit of the app's panels (recorded in the timeline, so a saved preset replays the run), and
// run() steps the Session exactly as lodestone-run does, so the same preset and thread count give the same
// bits. The particle arrays are copies ordered by id (particle_arrays.hpp).

#include "engine/session/session.hpp"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace lodestone::python {

class SessionHandle {
 public:
  // `preset`: None (the built-in default scene), a dict, JSON text (a str starting with '{') or a path (str
  // or os.PathLike). `threads`: engine threads, default all hardware threads (as lodestone-run).
  SessionHandle(pybind11::object preset, std::optional<int> threads);
  // Continues a checkpoint (save_checkpoint or lodestone-run --checkpoint) bit-identically.
  static std::unique_ptr<SessionHandle> from_checkpoint(const std::string& path, std::optional<int> threads);

  // Runs `steps` steps or `time` seconds of simulated time (exactly one of them), without the GIL; Ctrl+C
  // interrupts between steps (KeyboardInterrupt saying where: the state is kept there). `progress`, when not None,
  // is called as progress(fraction, steps_done) about twice a second and once at the end. Returns the steps done;
  // throws SimulationStopped when a check fails.
  std::int64_t run(std::optional<std::int64_t> steps, std::optional<double> time, pybind11::object progress);

  // The panels' edit: the value at a dotted path ("field.strength", "materials.0.friction"; units allowed,
  // "40 mT"), or a dict of them applied as one edit, each read by its field's reader, applied between steps and
  // recorded in the timeline.
  void set(pybind11::handle path, pybind11::handle value, bool confirm);
  // The value in force at a dotted path (SI, as a save writes it).
  pybind11::object get(const std::string& path);
  // The undo and redo of the app's Edit menu: what changed, or None when there is nothing to undo or redo.
  std::optional<std::string> undo();
  std::optional<std::string> redo();
  // The app's Reset: back to t = 0 with the parameters in force (the edits so far become the scene's own, so a changed
  // generator, particles.count or particles.seed, takes effect here), on the same thread count.
  void reset();
  // The app's "Hold still" (engine/core/hold.hpp): `what` is position, orientation, both or none (lets go); recorded
  // in the timeline like the app's touches. Returns what it did.
  std::string hold(std::uint64_t particle_id, const std::string& what);
  // The app's "Switch the field on" (the button of a protocol phase with `wait`, the remote verb go): the waiting
  // phase ends now and the next starts, recorded in the timeline. Returns what it did; throws PresetError when the
  // running phase does not wait.
  std::string go();

  void save_preset(const std::string& path);
  void save_checkpoint(const std::string& path);
  void export_frame(const std::string& path, const std::string& vtk_encoding = "ascii");
  pybind11::dict document();  // the preset a save writes: the loaded one with its timeline of edits

  // Serialises access: run() holds the lock without the GIL, so another Python thread that calls in meanwhile
  // is told the simulation is busy instead of reading a state being written.
  class Access {
   public:
    explicit Access(SessionHandle& simulation);
    Session& session() { return session_; }

   private:
    std::unique_lock<std::mutex> lock_;
    Session& session_;
  };
  Access access() { return Access(*this); }

  const std::string& source() const { return source_; }

 private:
  SessionHandle(std::unique_ptr<Session> session, std::string source, std::optional<int> threads);
  // Ctrl+C during run(): raises a KeyboardInterrupt that says where the run stopped.
  [[noreturn]] static void interrupted(const Session& session, std::int64_t count, std::optional<std::int64_t> steps,
                                       std::optional<double> time);

  std::unique_ptr<Session> session_;
  std::string source_;  // where the scene came from, for repr()
  std::mutex busy_;
};

}  // namespace lodestone::python
