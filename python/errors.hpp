#pragma once
// The module's exceptions. The engine's errors keep their messages word for word; a PresetError also
// carries the JSON path at fault and the engine's message on its own (`path`, `message` attributes):
//   lodestone.PresetError(ValueError)          a bad preset or value: "$.field.strength: ..."
//   lodestone.CheckpointError(ValueError)      a checkpoint that cannot be read or written
//   lodestone.ExportError(OSError)             a frame file that cannot be written
//   lodestone.ConfirmationNeeded(ValueError)   an edit the app would ask about (a field beyond any magnet)
//   lodestone.SimulationStopped(RuntimeError)  a run stopped by a failed check (NaN, runaway overlap)

#include <pybind11/pybind11.h>

#include <stdexcept>

namespace lodestone::python {

// Thrown by the module's own code; translated to the Python exceptions of the same name.
struct ConfirmationNeeded : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct SimulationStopped : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Creates the exception classes in the module and translates the engine's exceptions into them.
void register_errors(pybind11::module_& module);

}  // namespace lodestone::python
