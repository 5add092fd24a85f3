#include "engine/scene/unit_values.hpp"

#include "engine/scene/preset_io.hpp"
#include "engine/scene/unit_system.hpp"

#include <cstdio>
#include <cstdlib>

namespace lodestone {
namespace {

// SI per shown unit of q in a reduced-units document; 0 where the document shows q as an SI one would.
double lj_unit_of(Quantity q, const DisplayUnits& units) {
  if (units.system != UnitSystem::Lj) return 0.0;
  const double unit = LjUnits(units.lj).of(q);
  return unit == 1.0 ? 0.0 : unit;
}

}  // namespace

std::string shown_unit(Quantity q, const DisplayUnits& units) {
  return lj_unit_of(q, units) > 0.0 ? "lj" : display_unit(q, units);
}

double si_to_shown(double si, Quantity q, const DisplayUnits& units) {
  const double lj = lj_unit_of(q, units);
  return lj > 0.0 ? si / lj : si_to_unit(si, q, display_unit(q, units));
}

double shown_to_si(double shown, Quantity q, const DisplayUnits& units) {
  const double lj = lj_unit_of(q, units);
  return lj > 0.0 ? shown * lj : unit_to_si(shown, q, display_unit(q, units));
}

json value_as_shown(const std::string& dotted_path, const json& value, const DisplayUnits& units,
                    const std::string& typed_unit) {
  json shown = value;
  try {
    convert_at(shown, preset_schema(), lodestone::dotted_path(dotted_path, "$").segments, 0,
               [&](Quantity q, double si) -> json {
                 const bool typed = !typed_unit.empty() && is_accepted_unit(q, typed_unit);
                 const std::string unit = typed ? typed_unit : shown_unit(q, units);
                 const double number = typed ? si_to_unit(si, q, typed_unit) : si_to_shown(si, q, units);
                 char text[64];
                 std::snprintf(text, sizeof text, "%.4g%s%s", number, unit.empty() ? "" : " ", unit.c_str());
                 return text;
               });
  } catch (const std::exception&) {
    return value;  // a path the table does not know: as it is
  }
  return shown;
}

std::string typed_unit_of(const json& value) {
  if (!value.is_string()) return {};
  const std::string& text = value.get_ref<const std::string&>();
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return {};  // not a number first
  std::string unit(end);
  const size_t first = unit.find_first_not_of(' '), last = unit.find_last_not_of(' ');
  return first == std::string::npos ? std::string() : unit.substr(first, last - first + 1);
}

}  // namespace lodestone
