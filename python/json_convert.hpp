#pragma once
// Python values to JSON and back, for presets given as dicts, values given to SessionHandle.set and values
// read with SessionHandle.get. The engine reads presets through their JSON form (engine/scene/preset_io.hpp), so
// a Python value reaches the same reader, with the same checks and messages, as a value in a file. Ordered
// JSON (engine/scene/schema.hpp): a dict keeps its key order, as a file does.

#include "engine/scene/schema.hpp"

#include <pybind11/pybind11.h>

namespace lodestone::python {

// None, bool, int, float, str, list, tuple and dict with str keys, numpy scalars and arrays (through
// their tolist()). Throws pybind11::type_error naming the type of anything else.
json to_json(pybind11::handle value);
// The Python value of a JSON value: dicts, lists, str, int, float, bool, None.
pybind11::object from_json(const json& value);

}  // namespace lodestone::python
