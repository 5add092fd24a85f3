#include "python/json_convert.hpp"

#include <string>

namespace py = pybind11;

namespace lodestone::python {

json to_json(py::handle value) {
  if (value.is_none()) return nullptr;
  // bool before int: Python's bool is a subclass of int, and a preset's true must stay a boolean.
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) {
    // Negative values as signed, the rest as unsigned so that 64-bit ids and seeds survive.
    if (value.cast<py::int_>() < py::int_(0)) return value.cast<long long>();
    return value.cast<unsigned long long>();
  }
  if (py::isinstance<py::float_>(value)) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::dict>(value)) {
    json object = json::object();
    for (auto item : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(item.first))
        throw py::type_error("preset keys are strings, found a key of type " +
                             std::string(py::str(py::type::of(item.first).attr("__name__"))));
      object[item.first.cast<std::string>()] = to_json(item.second);
    }
    return object;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    json array = json::array();
    for (auto item : value) array.push_back(to_json(item));
    return array;
  }
  // numpy scalars and arrays (np.float32(2.0), np.array([0, 0, 1])) become Python values first.
  if (py::hasattr(value, "tolist")) return to_json(value.attr("tolist")());
  throw py::type_error("cannot pass a value of type " + std::string(py::str(py::type::of(value).attr("__name__"))) +
                       " as JSON: use None, bool, int, float, str, list or dict");
}

py::object from_json(const json& value) {
  switch (value.type()) {
    case json::value_t::null: return py::none();
    case json::value_t::boolean: return py::bool_(value.get<bool>());
    case json::value_t::number_integer: return py::int_(value.get<long long>());
    case json::value_t::number_unsigned: return py::int_(value.get<unsigned long long>());
    case json::value_t::number_float: return py::float_(value.get<double>());
    case json::value_t::string: return py::str(value.get<std::string>());
    case json::value_t::array: {
      py::list list;
      for (const auto& item : value) list.append(from_json(item));
      return list;
    }
    case json::value_t::object: {
      py::dict dict;
      for (auto it = value.begin(); it != value.end(); ++it) dict[py::str(it.key())] = from_json(it.value());
      return dict;
    }
    default: return py::none();  // binary and discarded values never come out of a preset
  }
}

}  // namespace lodestone::python
