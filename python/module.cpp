// The Python module `lodestone` (docs/python.md): the bindings and their docstrings. The work is done in
// simulation.cpp (the Session), particle_arrays.cpp, observations.cpp and errors.cpp.

#include "engine/core/state_hash.hpp"
#include "engine/magnetic/field_evaluation.hpp"
#include "python/errors.hpp"
#include "python/observations.hpp"
#include "python/particle_arrays.hpp"
#include "python/simulation.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace py = pybind11;
using namespace py::literals;
using lodestone::python::ParticleArray;
using lodestone::python::Simulation;

namespace {

// A read-only property holding a fresh copy of a particle array, in id order.
void add_array(py::class_<Simulation>& c, const char* name, ParticleArray which, const char* doc) {
  c.def_property_readonly(
      name, [which](Simulation& s) { return particle_array(s.access().session().state().particles, which); }, doc);
}

// os.PathLike or str, as the engine's file functions take it.
std::string path_text(py::handle path) {
  return py::module_::import("os").attr("fspath")(path).cast<std::string>();
}

}  // namespace

PYBIND11_MODULE(lodestone, m) {
  m.doc() =
      "Lodestone, a simulator of magnetic granular matter, from Python (docs/python.md).\n\n"
      "    sim = lodestone.Simulation('presets/two-dipoles.json', threads=1)\n"
      "    sim.run(steps=200)\n"
      "    sim.set('field.strength', '40 mT')\n"
      "    sim.positions   # (N, 3) numpy array [m], rows in particle id order";
  m.attr("__version__") = LODESTONE_VERSION;
  lodestone::python::register_errors(m);

  py::class_<Simulation> c(m, "Simulation",
                           "A scene being run: the engine's Session, as in the app and lodestone-run. The same preset "
                           "and thread count give the same bits as `lodestone-run`.");
  c.def(py::init<py::object, std::optional<int>>(), "preset"_a = py::none(), py::kw_only(), "threads"_a = py::none(),
        "Builds the scene of a preset: a path (str or os.PathLike), JSON text (a str starting with '{'), a dict "
        "(the JSON object of a preset file), or None for the built-in default scene. threads: engine threads "
        "(default: all hardware threads, as lodestone-run). Raises PresetError naming the JSON path at fault.");
  c.def_static(
      "from_checkpoint",
      [](py::handle path, std::optional<int> threads) { return Simulation::from_checkpoint(path_text(path), threads); },
      "path"_a, py::kw_only(), "threads"_a = py::none(),
      "Continues a checkpoint (save_checkpoint, lodestone-run --checkpoint) with its own preset: with the same "
      "thread count the next steps are bit-identical to those the saved run would have made.");

  c.def("run", &Simulation::run, py::kw_only(), "steps"_a = py::none(), "time"_a = py::none(),
        "Runs `steps` steps or `time` seconds of simulated time (one of them), releasing the GIL; Ctrl+C "
        "interrupts between steps. Protocol phases and timeline entries apply as the run reaches them. Returns "
        "the steps done. Raises SimulationStopped when a check fails (the state it stopped on is kept).");
  c.def("set", &Simulation::set, "path"_a, "value"_a, py::kw_only(), "confirm"_a = false,
        "Changes a parameter at a dotted path, as the app's panels do: sim.set('field.strength', '40 mT'), "
        "sim.set('materials.0.friction', 0.3). Units are allowed where a preset file allows them. The change "
        "applies before the next step and is recorded in the timeline, so save_preset() replays it. Raises "
        "PresetError (path, value, what is allowed), or ConfirmationNeeded for a change the app would ask about "
        "unless confirm=True.");
  c.def("get", &Simulation::get, "path"_a,
        "The value in force at a dotted path, in SI as a saved preset holds it: sim.get('field.strength').");
  c.def("undo", &Simulation::undo, "Undoes the last set(); returns what it undid, or None.");
  c.def("redo", &Simulation::redo, "Redoes the last undone set(); returns what it redid, or None.");

  c.def_property_readonly(
      "time", [](Simulation& s) { return s.access().session().state().time; }, "Simulated time [s].");
  c.def_property_readonly(
      "step", [](Simulation& s) { return s.access().session().state().step; }, "Steps since the scene began.");
  c.def_property_readonly(
      "dt", [](Simulation& s) { return s.access().session().model().time_step; }, "The time step in use [s].");
  c.def_property(
      "threads", [](Simulation& s) { return s.access().session().threads(); },
      [](Simulation& s, int threads) {
        if (threads < 1) throw py::value_error("threads must be at least 1");
        s.access().session().set_threads(threads);
      },
      "Engine threads. Runs with the same count are bit-identical; different counts agree to round-off.");
  c.def_property_readonly(
      "phase", [](Simulation& s) { return s.access().session().phase_label(); },
      "The running protocol phase, '2/3 drop', or '' without a protocol.");
  c.def_property_readonly(
      "stopped",
      [](Simulation& s) -> std::optional<std::string> {
        const lodestone::Health& h = s.access().session().state().health;
        if (h.ok) return std::nullopt;
        return h.message;
      },
      "None while the run is healthy; after a failed check, its message.");
  c.def("__len__", [](Simulation& s) { return s.access().session().state().particles.size(); });
  c.def("__repr__", [](Simulation& s) {
    const lodestone::State& state = s.access().session().state();
    return "<lodestone.Simulation of " + s.source() + ": " + std::to_string(state.particles.size()) +
           " particles, step " + std::to_string(state.step) + ">";
  });

  c.def_property_readonly(
      "ids", [](Simulation& s) { return lodestone::python::ids(s.access().session().state().particles); },
      "Particle ids, ascending (N,) uint64: row k of every particle array belongs to ids[k].");
  add_array(c, "positions", ParticleArray::Positions, "Centres (N, 3) [m], in id order (a copy).");
  add_array(c, "velocities", ParticleArray::Velocities, "Velocities (N, 3) [m/s], in id order (a copy).");
  add_array(c, "angular_velocities", ParticleArray::AngularVelocities,
            "Angular velocities (N, 3) [rad/s], world frame, in id order (a copy).");
  add_array(c, "orientations", ParticleArray::Orientations,
            "Orientations (N, 4), unit quaternions body -> world as x, y, z, w (scalar last, as "
            "scipy.spatial.transform.Rotation.from_quat), in id order (a copy).");
  add_array(c, "moments", ParticleArray::Moments,
            "Magnetic moments (N, 3) [A m^2], world frame, in id order (a copy).");
  add_array(c, "easy_axes", ParticleArray::EasyAxes, "Easy axes (N, 3), unit, world frame, in id order (a copy).");
  add_array(c, "forces", ParticleArray::Forces,
            "Total forces of the last force pass (N, 3) [N], in id order (a copy).");
  add_array(c, "torques", ParticleArray::Torques,
            "Total torques of the last force pass (N, 3) [N m], in id order (a copy).");
  c.def_property_readonly(
      "radii", [](Simulation& s) { return lodestone::python::radii(s.access().session().state().particles); },
      "Radii (N,) [m], in id order (a copy).");

  c.def(
      "observe",
      [](Simulation& s) {
        Simulation::Access a = s.access();
        return lodestone::python::series_row_dict(a.session().model(), a.session().state());
      },
      "The time-series row of now as a dict, keyed by the columns of lodestone-run --series (docs/outputs.md): "
      "energies, alignment, magnetisation, contacts, clusters...");
  c.def(
      "clusters", [](Simulation& s) { return lodestone::python::cluster_dict(s.access().session().state()); },
      "Clusters of particles in contact, as a dict of numpy arrays, one row per cluster: label (its smallest "
      "particle id), size, contacts, moment (K, 3) [A m^2], chain, ring; and particle_cluster, the label of each "
      "particle's cluster in id order.");
  c.def(
      "field_at",
      [](Simulation& s, const py::array_t<double, py::array::c_style | py::array::forcecast>& points, bool exact,
         bool applied, bool moments) {
        const std::vector<lodestone::Vec3> at = lodestone::python::points_from(points);
        lodestone::FieldEvaluationSettings settings;
        settings.sum = exact ? lodestone::FieldSum::Exact : lodestone::FieldSum::AsForces;
        settings.applied = applied;
        settings.moments = moments;
        std::vector<lodestone::Vec3> field;
        {
          Simulation::Access a = s.access();
          field = lodestone::evaluate_field(a.session().model(), a.session().state(), at, settings);
        }
        return lodestone::python::vectors_like(field, points.ndim() == 1);
      },
      "points"_a, py::kw_only(), "exact"_a = false, "applied"_a = true, "moments"_a = true,
      "The total magnetic field B [T] at points [m] of shape (3,) or (M, 3): the applied field plus every moment "
      "summed as the forces do (magnetics.method), or all of them with exact=True; inside a sphere its own term "
      "is the uniform interior field (docs/physics.md, 'Field evaluation'). applied=False or moments=False leave "
      "that part out.");
  c.def(
      "state_hash",
      [](Simulation& s) { return lodestone::hash_hex(lodestone::state_hash(s.access().session().state())); },
      "A 64-bit hash of every particle's id, position, velocity and orientation in id order, as 16 hex digits: "
      "the app's `hash` remote command. Equal hashes mean bit-identical motion.");

  c.def(
      "save_preset", [](Simulation& s, py::handle path) { s.save_preset(path_text(path)); }, "path"_a,
      "Writes the preset with the timeline of set() changes (atomically): lodestone-run on it replays this run.");
  c.def(
      "save_checkpoint", [](Simulation& s, py::handle path) { s.save_checkpoint(path_text(path)); }, "path"_a,
      "Writes the whole state and its preset (atomically), bit for bit: Simulation.from_checkpoint and "
      "lodestone-run --restart continue it.");
  c.def(
      "export_frame",
      [](Simulation& s, py::handle path, const std::string& vtk_encoding) {
        s.export_frame(path_text(path), vtk_encoding);
      },
      "path"_a, "vtk_encoding"_a = "ascii",
      "Writes the particles now to a file whose extension picks the format: .vtp (ParaView), .xyz (OVITO), .dump "
      "or .lammpstrj (LAMMPS), .csv (docs/outputs.md); bonds included. vtk_encoding: a .vtp's arrays as ascii, "
      "base64 or raw (binary appended). Raises ExportError, or ValueError for an unknown encoding.");
  c.def_property_readonly("preset", &Simulation::document,
                          "The preset save_preset writes, as a dict: the one loaded, with its timeline of changes.");
}
