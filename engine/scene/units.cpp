#include "engine/scene/units.hpp"

#include "engine/core/math.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

namespace lodestone {
namespace {

// 1 Oe is the H that gives B = 1e-4 T in vacuum (B = mu0 H); 1 G (flux) = 1e-4 T.
// CGS magnetisation: 1 emu/cm^3 = 1e3 A/m; the powder literature writes it "G" ([Erokhin-Berkov]: Ms = 380 G).
const std::vector<UnitFactor> kDimensionless = {{"", 1.0}};
const std::vector<UnitFactor> kLength = {{"m", 1.0},   {"cm", 1e-2}, {"mm", 1e-3},
                                         {"um", 1e-6}, {"µm", 1e-6}, {"nm", 1e-9}};
const std::vector<UnitFactor> kTime = {{"s", 1.0},   {"ms", 1e-3}, {"us", 1e-6},
                                       {"µs", 1e-6}, {"ns", 1e-9}, {"min", 60.0}};
const std::vector<UnitFactor> kMass = {{"kg", 1.0}, {"g", 1e-3}, {"mg", 1e-6}};
const std::vector<UnitFactor> kVelocity = {{"m/s", 1.0}, {"cm/s", 1e-2}, {"mm/s", 1e-3}, {"um/s", 1e-6}};
const std::vector<UnitFactor> kAngularVelocity = {{"rad/s", 1.0}, {"deg/s", pi / 180.0}, {"rpm", 2.0 * pi / 60.0}};
const std::vector<UnitFactor> kAcceleration = {{"m/s^2", 1.0}, {"g0", 9.80665}};
const std::vector<UnitFactor> kDensity = {{"kg/m^3", 1.0}, {"g/cm^3", 1e3}};
const std::vector<UnitFactor> kPressure = {{"Pa", 1.0},  {"kPa", 1e3},      {"MPa", 1e6},
                                           {"GPa", 1e9}, {"atm", 101325.0}, {"bar", 1e5}};
const std::vector<UnitFactor> kForce = {{"N", 1.0}, {"mN", 1e-3}, {"uN", 1e-6}, {"µN", 1e-6}, {"nN", 1e-9}};
const std::vector<UnitFactor> kStiffness = {{"N/m", 1.0}, {"kN/m", 1e3}, {"MN/m", 1e6}};
const std::vector<UnitFactor> kLinearDamping = {{"N s/m", 1.0}, {"kg/s", 1.0}};
const std::vector<UnitFactor> kFluxDensity = {{"T", 1.0},  {"mT", 1e-3}, {"uT", 1e-6}, {"µT", 1e-6},
                                              {"G", 1e-4}, {"kG", 0.1},  {"Oe", 1e-4}, {"kOe", 0.1}};
const std::vector<UnitFactor> kFieldGradient = {{"T/m", 1.0}, {"mT/m", 1e-3}, {"mT/mm", 1.0}};
const std::vector<UnitFactor> kMagneticMoment = {{"A m^2", 1.0}, {"emu", 1e-3}};
const std::vector<UnitFactor> kMagnetization = {
    {"A/m", 1.0}, {"kA/m", 1e3}, {"MA/m", 1e6}, {"G", 1e3}, {"emu/cm^3", 1e3}};
const std::vector<UnitFactor> kFrequency = {{"Hz", 1.0}, {"kHz", 1e3}, {"MHz", 1e6}};
const std::vector<UnitFactor> kAngle = {{"rad", 1.0}, {"deg", pi / 180.0}};
const std::vector<UnitFactor> kEnergyDensity = {{"J/m^3", 1.0}, {"kJ/m^3", 1e3}, {"MJ/m^3", 1e6}, {"erg/cm^3", 0.1}};
const std::vector<UnitFactor> kSurfaceEnergy = {{"J/m^2", 1.0}, {"mJ/m^2", 1e-3}, {"erg/cm^2", 1e-3}};
const std::vector<UnitFactor> kEnergy = {{"J", 1.0}, {"erg", 1e-7}, {"eV", 1.602176634e-19}};
const std::vector<UnitFactor> kTemperature = {{"K", 1.0}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

const std::vector<UnitFactor>& accepted_units(Quantity q) {
  switch (q) {
    case Quantity::Dimensionless: return kDimensionless;
    case Quantity::Length: return kLength;
    case Quantity::Time: return kTime;
    case Quantity::Mass: return kMass;
    case Quantity::Velocity: return kVelocity;
    case Quantity::AngularVelocity: return kAngularVelocity;
    case Quantity::Acceleration: return kAcceleration;
    case Quantity::Density: return kDensity;
    case Quantity::Pressure: return kPressure;
    case Quantity::Force: return kForce;
    case Quantity::Stiffness: return kStiffness;
    case Quantity::LinearDamping: return kLinearDamping;
    case Quantity::FluxDensity: return kFluxDensity;
    case Quantity::FieldGradient: return kFieldGradient;
    case Quantity::MagneticMoment: return kMagneticMoment;
    case Quantity::Magnetization: return kMagnetization;
    case Quantity::Frequency: return kFrequency;
    case Quantity::Angle: return kAngle;
    case Quantity::Energy: return kEnergy;
    case Quantity::EnergyDensity: return kEnergyDensity;
    case Quantity::SurfaceEnergy: return kSurfaceEnergy;
    case Quantity::Temperature: return kTemperature;
  }
  return kDimensionless;
}

std::string_view si_unit(Quantity q) {
  return accepted_units(q).front().symbol;
}

std::string accepted_units_text(Quantity q) {
  std::string out;
  for (const auto& u : accepted_units(q)) {
    if (u.symbol.empty()) continue;
    if (!out.empty()) out += ", ";
    out += u.symbol;
  }
  return out;
}

bool is_accepted_unit(Quantity q, std::string_view unit) {
  for (const auto& u : accepted_units(q))
    if (u.symbol == unit) return true;
  return false;
}

double unit_to_si(double value, Quantity q, std::string_view unit) {
  for (const auto& u : accepted_units(q))
    if (u.symbol == unit) return value * u.to_si;
  return value;
}

double si_to_unit(double value_si, Quantity q, std::string_view unit) {
  for (const auto& u : accepted_units(q))
    if (u.symbol == unit) return value_si / u.to_si;
  return value_si;
}

bool parse_quantity(std::string_view text, Quantity q, double& value_si, std::string& error) {
  text = trim(text);
  double number = 0.0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (begin != end && *begin == '+') ++begin;  // from_chars does not take a leading plus
  auto [ptr, ec] = std::from_chars(begin, end, number);
  if (ec == std::errc::result_out_of_range) {
    error = "'" + std::string(text) + "' has a number too large or too small for a double";
    return false;
  }
  if (ec != std::errc() || ptr == begin) {
    error = "'" + std::string(text) + "' does not start with a number";
    return false;
  }
  if (!std::isfinite(number)) {
    error = "'" + std::string(text) + "' is not a finite number";
    return false;
  }
  const std::string_view unit = trim(std::string_view(ptr, static_cast<size_t>(end - ptr)));
  for (const auto& u : accepted_units(q)) {
    if (u.symbol == unit) {
      value_si = number * u.to_si;
      return true;
    }
  }
  if (unit.empty()) {
    error = "'" + std::string(text) + "' has no unit; write a plain number for SI (" + std::string(si_unit(q)) +
            ") or add one of: " + accepted_units_text(q);
  } else if (q == Quantity::Dimensionless) {
    error = "'" + std::string(text) + "' has a unit, but this value is dimensionless";
  } else {
    error = "unit '" + std::string(unit) + "' is not accepted here; use one of: " + accepted_units_text(q);
  }
  return false;
}

bool parse_quantity_or_si(std::string_view text, Quantity q, double& value_si, std::string& error) {
  if (parse_quantity(text, q, value_si, error)) return true;
  const std::string number(text);
  try {
    size_t used = 0;
    const double value = std::stod(number, &used);
    if (used != number.size()) return false;
    value_si = value;
    return true;
  } catch (const std::exception&) {  // not a number, or beyond a double's range
    return false;
  }
}

void append_number(std::string& out, double value) {
  char buffer[32];  // the longest shortest form, -2.2250738585072014e-308, has 24 characters
  const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, r.ptr);
}

}  // namespace lodestone
