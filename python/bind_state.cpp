// The Python bindings of the state now: time, step, threads, phase, waiting, and the particle arrays in id order.

#include "python/bindings.hpp"
#include "python/particle_arrays.hpp"

namespace py = pybind11;
using namespace py::literals;

namespace lodestone::python {

namespace {

// A read-only property holding a fresh copy of a particle array, in id order.
void add_array(py::class_<SessionHandle>& c, const char* name, ParticleArray which, const char* doc) {
  c.def_property_readonly(
      name, [which](SessionHandle& s) { return particle_array(s.access().session().state().particles, which); }, doc);
}

}  // namespace

void bind_state(py::class_<SessionHandle>& c) {
  c.def_property_readonly(
      "time", [](SessionHandle& s) { return s.access().session().state().time; }, "Simulated time [s].");
  c.def_property_readonly(
      "step", [](SessionHandle& s) { return s.access().session().state().step; }, "Steps since the scene began.");
  c.def_property_readonly(
      "dt", [](SessionHandle& s) { return s.access().session().model().time_step; }, "The time step in use [s].");
  c.def_property(
      "threads", [](SessionHandle& s) { return s.access().session().threads(); },
      [](SessionHandle& s, int threads) {
        if (threads < 1) throw py::value_error("threads must be at least 1");
        s.access().session().set_threads(threads);
      },
      "Engine threads. Runs with the same count are bit-identical; different counts agree to round-off.");
  c.def_property_readonly(
      "phase", [](SessionHandle& s) { return s.access().session().phase_label(); },
      "The running protocol phase, '2/3 drop', or '' without a protocol.");
  c.def_property_readonly(
      "waiting", [](SessionHandle& s) { return s.access().session().phase_waits(); },
      "True while the running protocol phase waits for the user (it has 'wait', e.g. 'Switch the field on'): "
      "go() ends it; run() ends it at its duration.");
  c.def_property_readonly(
      "stopped",
      [](SessionHandle& s) -> std::optional<std::string> {
        const lodestone::Health& h = s.access().session().state().health;
        if (h.ok) return std::nullopt;
        return h.message;
      },
      "None while the run is healthy; after a failed check, its message.");
  c.def("__len__", [](SessionHandle& s) { return s.access().session().state().particles.size(); });
  c.def("__repr__", [](SessionHandle& s) {
    const lodestone::State& state = s.access().session().state();
    return "<lodestone.Session of " + s.source() + ": " + std::to_string(state.particles.size()) + " particles, step " +
           std::to_string(state.step) + ">";
  });

  c.def_property_readonly(
      "ids", [](SessionHandle& s) { return lodestone::python::ids(s.access().session().state().particles); },
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
      "images", [](SessionHandle& s) { return lodestone::python::images(s.access().session().state().particles); },
      "Periodic image flags (N, 3) int32, in id order (a copy): the box lengths each particle has crossed along x, "
      "y, z (LAMMPS's ix iy iz; 0 on axes that are not periodic). The unwrapped centre is positions + images * L.");
  c.def_property_readonly(
      "unwrapped_positions",
      [](SessionHandle& s) {
        const Session& session = s.access().session();
        return lodestone::python::unwrapped_positions(session.model(), session.state().particles);
      },
      "Unwrapped centres (N, 3) [m], in id order (a copy): positions + images * L, continuous across periodic "
      "boundaries (for mean-square displacements).");
  c.def_property_readonly(
      "radii", [](SessionHandle& s) { return lodestone::python::radii(s.access().session().state().particles); },
      "Radii (N,) [m], in id order (a copy).");
}

}  // namespace lodestone::python
