#pragma once
// Physical quantities and the unit strings presets may use ("40 kOe", "0.5 atm", "1 um").
// The engine works in SI; this is the only place where other units are converted.

#include <string>
#include <string_view>
#include <vector>

namespace lodestone {

enum class Quantity {
  Dimensionless,
  Length,           // [m]
  Time,             // [s]
  Mass,             // [kg]
  Velocity,         // [m/s]
  AngularVelocity,  // [rad/s]
  Acceleration,     // [m/s^2]
  Density,          // [kg/m^3]
  Pressure,         // [Pa]  (also elastic moduli)
  Force,            // [N]
  Stiffness,        // [N/m]
  LinearDamping,    // [N s/m]
  FluxDensity,      // [T]   field strength B; Oe accepted via B = mu0 H
  FieldGradient,    // [T/m]
  MagneticMoment,   // [A m^2]
  Magnetization,    // [A/m]; "G" here means emu/cm^3 (CGS magnetisation)
  Frequency,        // [Hz]
  Angle,            // [rad]
  Energy,           // [J]
  EnergyDensity,    // [J/m^3] anisotropy constant; erg/cm^3 = 0.1 J/m^3
  SurfaceEnergy,    // [J/m^2] surface energy gamma; erg/cm^2 = mJ/m^2
  Temperature,      // [K]   thermal noise; kelvin only (a Celsius offset is not a factor)
};

struct UnitFactor {
  std::string_view symbol;
  double to_si;  // value_in_si = value * to_si
};

// The SI unit of a quantity as written in docs ("m", "T", "" for dimensionless).
std::string_view si_unit(Quantity q);
// Every unit accepted for a quantity, SI first.
const std::vector<UnitFactor>& accepted_units(Quantity q);
// "m, mm, um, µm, nm, cm" for error messages and docs.
std::string accepted_units_text(Quantity q);

// Parses "<number> <unit>" (the space is optional) into SI. Returns false and fills `error`
// (without the JSON path) when the text is not a number followed by an accepted unit.
bool parse_quantity(std::string_view text, Quantity q, double& value_si, std::string& error);
// parse_quantity, or else a bare number (all of the text, as std::stod reads it) taken as SI: "0.5"
// as a time is 0.5 s. How the command-line programs read a value that may carry a unit. On failure
// `error` is parse_quantity's message.
bool parse_quantity_or_si(std::string_view text, Quantity q, double& value_si, std::string& error);

// Converts an SI value into the given display unit (e.g. 4 T -> 40 kOe). Unknown unit: SI.
double si_to_unit(double value_si, Quantity q, std::string_view unit);
double unit_to_si(double value, Quantity q, std::string_view unit);
bool is_accepted_unit(Quantity q, std::string_view unit);

// Appends a number as every frame format, the time series and unit notes print it: the shortest decimal that
// reads back as the same double (std::to_chars, at most 17 significant digits), so a value parsed back with strtod
// is bit-identical to the one written. Non-finite values print as nan, inf, -inf.
void append_number(std::string& out, double value);

}  // namespace lodestone
