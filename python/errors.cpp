#include "python/errors.hpp"

#include "engine/core/preset_error.hpp"
#include "engine/output/export_frames.hpp"
#include "engine/scene/checkpoint.hpp"

#include <exception>

namespace py = pybind11;

namespace lodestone::python {
namespace {

// The classes, created once when the module is imported (and alive as long as it is: the module holds them).
PyObject* preset_error = nullptr;
PyObject* checkpoint_error = nullptr;
PyObject* export_error = nullptr;
PyObject* confirmation_needed = nullptr;
PyObject* simulation_stopped = nullptr;

PyObject* add_class(py::module_& module, const char* name, PyObject* base, const char* doc) {
  const std::string qualified = std::string("lodestone.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!type) throw py::error_already_set();
  module.add_object(name, py::reinterpret_borrow<py::object>(type));
  return type;
}

}  // namespace

void register_errors(py::module_& module) {
  preset_error = add_class(module, "PresetError", PyExc_ValueError,
                           "A bad preset or value. str(e) is the engine's message; e.path the JSON path at fault "
                           "(\"$.field.strength\"), e.message what is wrong and what is allowed.");
  checkpoint_error = add_class(module, "CheckpointError", PyExc_ValueError,
                               "A checkpoint that cannot be read (damaged, another version) or written.");
  export_error = add_class(module, "ExportError", PyExc_OSError, "A frame file that cannot be written.");
  confirmation_needed =
      add_class(module, "ConfirmationNeeded", PyExc_ValueError,
                "An edit the app would ask about first (a field beyond any laboratory magnet, a time step that "
                "collapses); set(..., confirm=True) applies it.");
  simulation_stopped = add_class(module, "SimulationStopped", PyExc_RuntimeError,
                                 "The run stopped on a failed check (NaN, runaway overlap, a particle through a "
                                 "wall); the message names the particle and the likely cause. The state is kept.");

  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const PresetError& e) {
      py::object error = py::reinterpret_borrow<py::object>(preset_error)(e.what());
      error.attr("path") = e.path();
      error.attr("message") = e.message();
      PyErr_SetObject(preset_error, error.ptr());
    } catch (const CheckpointError& e) {
      PyErr_SetString(checkpoint_error, e.what());
    } catch (const ExportError& e) {
      PyErr_SetString(export_error, e.what());
    } catch (const ConfirmationNeeded& e) {
      PyErr_SetString(confirmation_needed, e.what());
    } catch (const SimulationStopped& e) {
      PyErr_SetString(simulation_stopped, e.what());
    }
  });
}

}  // namespace lodestone::python
