#include "engine/scene/unit_values.hpp"

#include "engine/scene/preset_io.hpp"
#include "engine/scene/unit_system.hpp"

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

}  // namespace lodestone
