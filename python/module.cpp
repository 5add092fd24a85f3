// The Python module `lodestone` (docs/python.md): the module, its errors and its one class, bound by topic in
// bind_run.cpp, bind_state.cpp and bind_outputs.cpp. The work is done in simulation.cpp (the Session),
// particle_arrays.cpp, observations.cpp and errors.cpp.

#include "python/bindings.hpp"
#include "python/errors.hpp"

namespace py = pybind11;

namespace lodestone::python {

std::string path_text(py::handle path) {
  return py::module_::import("os").attr("fspath")(path).cast<std::string>();
}

}  // namespace lodestone::python

PYBIND11_MODULE(lodestone, m) {
  using lodestone::python::SessionHandle;
  m.doc() =
      "Lodestone, a simulator of magnetic granular matter, from Python (docs/python.md).\n\n"
      "    sim = lodestone.Session('presets/two-dipoles.json', threads=1)\n"
      "    sim.run(steps=200)\n"
      "    sim.set('field.strength', '40 mT')\n"
      "    sim.positions   # (N, 3) numpy array [m], rows in particle id order";
  m.attr("__version__") = LODESTONE_VERSION;
  lodestone::python::register_errors(m);

  py::class_<SessionHandle> c(m, "Session",
                              "A scene being run: the engine's Session, as in the app and lodestone-run (also named "
                              "Simulation, its earlier name). The same preset and thread count give the same bits as "
                              "`lodestone-run`.");
  lodestone::python::bind_running(c);
  lodestone::python::bind_state(c);
  lodestone::python::bind_outputs(c);
  // The earlier name: scripts written for it keep working.
  m.attr("Simulation") = m.attr("Session");
}
