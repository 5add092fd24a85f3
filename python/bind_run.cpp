// The Python bindings of building a scene, running it and editing it (docs/python.md).

#include "python/bindings.hpp"

namespace py = pybind11;
using namespace py::literals;

namespace lodestone::python {

void bind_running(py::class_<SessionHandle>& c) {
  c.def(py::init<py::object, std::optional<int>>(), "preset"_a = py::none(), py::kw_only(), "threads"_a = py::none(),
        "Builds the scene of a preset: a path (str or os.PathLike), JSON text (a str starting with '{'), a dict "
        "(the JSON object of a preset file), or None for the built-in default scene. threads: engine threads "
        "(default: all hardware threads, as lodestone-run). Raises PresetError naming the JSON path at fault.");
  c.def_static(
      "from_checkpoint",
      [](py::handle path, std::optional<int> threads) {
        return SessionHandle::from_checkpoint(path_text(path), threads);
      },
      "path"_a, py::kw_only(), "threads"_a = py::none(),
      "Continues a checkpoint (save_checkpoint, lodestone-run --checkpoint) with its own preset: with the same "
      "thread count the next steps are bit-identical to those the saved run would have made.");

  c.def("run", &SessionHandle::run, py::kw_only(), "steps"_a = py::none(), "time"_a = py::none(),
        "progress"_a = py::none(),
        "Runs `steps` steps or `time` seconds of simulated time (one of them), releasing the GIL; Ctrl+C "
        "interrupts between steps (KeyboardInterrupt says at which step; the state is kept there). Protocol phases "
        "and timeline entries apply as the run reaches them. progress: a callable, called as progress(fraction, "
        "steps_done) about twice a second and once at the end (e.g. to drive a progress bar). Returns the steps "
        "done. Raises SimulationStopped when a check fails (the state it stopped on is kept).");
  c.def("set", &SessionHandle::set, "path"_a, "value"_a = py::none(), py::kw_only(), "confirm"_a = false,
        "Changes a parameter at a dotted path, as the app's panels do: sim.set('field.strength', '40 mT'), "
        "sim.set('materials.0.friction', 0.3); or several at once, as one edit: sim.set({'field.strength': "
        "'40 mT', 'materials.0.friction': 0.3}). Units are allowed where a preset file allows them; a bare number is "
        "in the preset's unit system (in a preset "
        "in reduced units, 0.5 of its field unit), as its file reads it. The change "
        "applies before the next step and is recorded in the timeline, so save_preset() replays it. Raises "
        "PresetError (path, value, what is allowed), or ConfirmationNeeded for a change the app would ask about "
        "unless confirm=True.");
  c.def("get", &SessionHandle::get, "path"_a,
        "The value in force at a dotted path, in the preset's unit system as its saved file holds it (SI, or the "
        "reduced units of a preset in units lj): sim.get('field.strength').");
  c.def("undo", &SessionHandle::undo, "Undoes the last set(); returns what it undid, or None.");
  c.def("reset", &SessionHandle::reset,
        "Back to t = 0 with the parameters in force, as the app's Reset: the set() edits so far become the scene's "
        "own, so a changed generator (particles.count, particles.seed) takes effect here.");
  c.def("redo", &SessionHandle::redo, "Redoes the last undone set(); returns what it redid, or None.");
  c.def("hold", &SessionHandle::hold, "particle_id"_a, "what"_a = "both",
        "Holds a sphere still from now on, as the app's 'Hold still': what='position' (it may still turn), "
        "'orientation' (it may still move), 'both', or 'none' to let it go. The forces and torques on it are still "
        "computed; its held velocities become zero (their kinetic energy is booked as hold_work). Recorded in the "
        "timeline, so save_preset() replays it. Raises PresetError for an unknown id or a clump's pebble.");
  c.def("go", &SessionHandle::go,
        "Ends the running protocol phase that waits for the user (a phase with 'wait', field-switch-on's 'Switch "
        "the field on') and starts the next, as the app's button: sim.go() -> 'went on: now phase 2/2 field on'. A "
        "script need not call it (run() ends such a phase at its duration, as lodestone-run does), but a go() ends "
        "it now. Recorded in the timeline, so save_preset() replays it. Raises PresetError when the running phase "
        "does not wait (see waiting).");
}

}  // namespace lodestone::python
