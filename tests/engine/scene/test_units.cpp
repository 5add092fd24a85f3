// Unit strings of presets: "<number> <unit>" into SI, the per-quantity unit lists, and the
// display conversions (engine/scene/units.hpp).

#include "engine/core/math.hpp"
#include "engine/scene/units.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace lodestone;

namespace {

// Parses and requires success; returns the SI value.
double si(const std::string& text, Quantity q) {
  double value = -12345.0;
  std::string error;
  INFO("parsing '" << text << "'");
  const bool ok = parse_quantity(text, q, value, error);
  INFO("error: " << error);
  REQUIRE(ok);
  return value;
}

// Parses and requires failure; returns the message.
std::string parse_error(const std::string& text, Quantity q) {
  double value = -12345.0;
  std::string error;
  INFO("parsing '" << text << "'");
  const bool ok = parse_quantity(text, q, value, error);
  INFO("value: " << value);
  REQUIRE_FALSE(ok);
  REQUIRE_FALSE(error.empty());
  return error;
}

const Quantity kAllQuantities[] = {
    Quantity::Dimensionless, Quantity::Length,          Quantity::Time,           Quantity::Mass,
    Quantity::Velocity,      Quantity::AngularVelocity, Quantity::Acceleration,   Quantity::Density,
    Quantity::Pressure,      Quantity::Force,           Quantity::Stiffness,      Quantity::LinearDamping,
    Quantity::FluxDensity,   Quantity::FieldGradient,   Quantity::MagneticMoment, Quantity::Magnetization,
    Quantity::Frequency,     Quantity::Angle,           Quantity::Energy,         Quantity::EnergyDensity,
    Quantity::SurfaceEnergy, Quantity::Temperature};

}  // namespace

TEST_CASE("parse_quantity converts the documented examples to SI", "[units]") {
  // Oe is a unit of H; presets give B, so B = mu0 H: 40 kOe = 40e3 * (1e3/4pi) A/m * mu0 = 4 T.
  CHECK(si("40 kOe", Quantity::FluxDensity) == Approx(4.0).epsilon(1e-12));
  CHECK(si("40 kOe", Quantity::FluxDensity) == Approx(mu0 * 40e3 * 1e3 / (4.0 * pi)).epsilon(1e-12));
  CHECK(si("0.5 atm", Quantity::Pressure) == Approx(50662.5).epsilon(1e-12));
  CHECK(si("1 um", Quantity::Length) == Approx(1e-6).epsilon(1e-12));
  CHECK(si("1 µm", Quantity::Length) == Approx(1e-6).epsilon(1e-12));  // micro sign U+00B5
  CHECK(si("3 µs", Quantity::Time) == Approx(3e-6).epsilon(1e-12));
}

TEST_CASE("\"G\" is emu/cm^3 for a magnetisation but gauss for a flux density", "[units]") {
  // CGS magnetisation: 1 emu/cm^3 = 1e3 A/m (so 4 pi M in gauss would be a different number).
  CHECK(si("380 G", Quantity::Magnetization) == Approx(3.8e5).epsilon(1e-12));
  CHECK(si("380 emu/cm^3", Quantity::Magnetization) == Approx(3.8e5).epsilon(1e-12));
  CHECK(si("380 G", Quantity::FluxDensity) == Approx(0.038).epsilon(1e-12));
  CHECK(si("1 kG", Quantity::FluxDensity) == Approx(0.1).epsilon(1e-12));
  CHECK(si("1 Oe", Quantity::FluxDensity) == Approx(1e-4).epsilon(1e-12));
}

TEST_CASE("parse_quantity knows the SI and common units of every quantity", "[units]") {
  CHECK(si("2.5 m", Quantity::Length) == 2.5);
  CHECK(si("3 cm", Quantity::Length) == Approx(0.03).epsilon(1e-12));
  CHECK(si("4 mm", Quantity::Length) == Approx(4e-3).epsilon(1e-12));
  CHECK(si("7 nm", Quantity::Length) == Approx(7e-9).epsilon(1e-12));
  CHECK(si("2 min", Quantity::Time) == Approx(120.0).epsilon(1e-12));
  CHECK(si("20 ms", Quantity::Time) == Approx(0.02).epsilon(1e-12));
  CHECK(si("5 g", Quantity::Mass) == Approx(5e-3).epsilon(1e-12));
  CHECK(si("5 mg", Quantity::Mass) == Approx(5e-6).epsilon(1e-12));
  CHECK(si("3 cm/s", Quantity::Velocity) == Approx(0.03).epsilon(1e-12));
  CHECK(si("60 rpm", Quantity::AngularVelocity) == Approx(2.0 * pi).epsilon(1e-12));
  CHECK(si("180 deg/s", Quantity::AngularVelocity) == Approx(pi).epsilon(1e-12));
  CHECK(si("1 g0", Quantity::Acceleration) == Approx(9.80665).epsilon(1e-12));
  CHECK(si("7.5 g/cm^3", Quantity::Density) == Approx(7500.0).epsilon(1e-12));
  CHECK(si("1 GPa", Quantity::Pressure) == Approx(1e9).epsilon(1e-12));
  CHECK(si("2 bar", Quantity::Pressure) == Approx(2e5).epsilon(1e-12));
  CHECK(si("3 mN", Quantity::Force) == Approx(3e-3).epsilon(1e-12));
  CHECK(si("2 kN/m", Quantity::Stiffness) == Approx(2e3).epsilon(1e-12));
  CHECK(si("5e-4 N s/m", Quantity::LinearDamping) == Approx(5e-4).epsilon(1e-12));
  CHECK(si("5e-4 kg/s", Quantity::LinearDamping) == Approx(5e-4).epsilon(1e-12));
  CHECK(si("30 mT", Quantity::FluxDensity) == Approx(0.03).epsilon(1e-12));
  CHECK(si("10 mT/mm", Quantity::FieldGradient) == Approx(10.0).epsilon(1e-12));
  CHECK(si("10 mT/m", Quantity::FieldGradient) == Approx(0.01).epsilon(1e-12));
  CHECK(si("2 emu", Quantity::MagneticMoment) == Approx(2e-3).epsilon(1e-12));
  CHECK(si("2 A m^2", Quantity::MagneticMoment) == Approx(2.0).epsilon(1e-12));
  CHECK(si("80 kA/m", Quantity::Magnetization) == Approx(8e4).epsilon(1e-12));
  CHECK(si("1.2 MA/m", Quantity::Magnetization) == Approx(1.2e6).epsilon(1e-12));
  CHECK(si("3 kHz", Quantity::Frequency) == Approx(3e3).epsilon(1e-12));
  CHECK(si("90 deg", Quantity::Angle) == Approx(pi / 2.0).epsilon(1e-12));
  CHECK(si("1e7 erg", Quantity::Energy) == Approx(1.0).epsilon(1e-12));
  CHECK(si("1 eV", Quantity::Energy) == Approx(1.602176634e-19).epsilon(1e-12));
  // [Erokhin-Berkov]'s Sr-ferrite anisotropy: 3.5e6 erg/cm^3 = 3.5e5 J/m^3 (1 erg = 1e-7 J, 1 cm^3 = 1e-6 m^3).
  CHECK(si("3.5e6 erg/cm^3", Quantity::EnergyDensity) == Approx(3.5e5).epsilon(1e-12));
  CHECK(si("25 erg/cm^2", Quantity::SurfaceEnergy) == Approx(0.025).epsilon(1e-12));  // 1 erg/cm^2 = 1e-7 J / 1e-4 m^2
  CHECK(si("25 mJ/m^2", Quantity::SurfaceEnergy) == Approx(0.025).epsilon(1e-12));
  // Dimensionless values are plain numbers.
  CHECK(si("0.25", Quantity::Dimensionless) == 0.25);

  // Every quantity accepts its own SI symbol with factor 1, listed first.
  for (Quantity q : kAllQuantities) {
    const auto& units = accepted_units(q);
    REQUIRE_FALSE(units.empty());
    CHECK(units.front().symbol == si_unit(q));
    CHECK(units.front().to_si == 1.0);
    if (q == Quantity::Dimensionless) continue;
    CHECK(si("2 " + std::string(si_unit(q)), q) == 2.0);
  }
}

TEST_CASE("the space between number and unit is optional and surrounding blanks are ignored", "[units]") {
  CHECK(si("20mT", Quantity::FluxDensity) == Approx(0.02).epsilon(1e-12));
  CHECK(si("20 mT", Quantity::FluxDensity) == Approx(0.02).epsilon(1e-12));
  CHECK(si("  20   mT  ", Quantity::FluxDensity) == Approx(0.02).epsilon(1e-12));
  CHECK(si("1e-3m", Quantity::Length) == Approx(1e-3).epsilon(1e-12));
  CHECK(si("-2.5e-1 T", Quantity::FluxDensity) == Approx(-0.25).epsilon(1e-12));
  CHECK(si("1.5kOe", Quantity::FluxDensity) == Approx(0.15).epsilon(1e-12));
}

TEST_CASE("units of another quantity are rejected", "[units]") {
  // An energy density (anisotropy constants are written in erg/cm^3) is neither a magnetisation
  // nor a flux density; erg alone is an energy, not a pressure.
  for (Quantity q : {Quantity::Magnetization, Quantity::FluxDensity, Quantity::Pressure, Quantity::Density}) {
    const std::string e = parse_error("3.5e6 erg/cm^3", q);
    CHECK_THAT(e, Catch::Contains("erg/cm^3"));
    CHECK_THAT(e, Catch::Contains("not accepted"));
  }
  parse_error("3.5e6 erg", Quantity::Pressure);
  parse_error("1 T", Quantity::Magnetization);
  parse_error("1 A/m", Quantity::FluxDensity);
  parse_error("1 kg", Quantity::Length);
  parse_error("1 mm", Quantity::Time);
  parse_error("1 G", Quantity::Mass);  // G is not g: units are case sensitive
  parse_error("1 MM", Quantity::Length);
  parse_error("1 emu", Quantity::Magnetization);
}

TEST_CASE("an unknown unit names itself and lists the accepted units", "[units]") {
  const std::string e = parse_error("3 parsecs", Quantity::Length);
  CHECK_THAT(e, Catch::Contains("'parsecs'"));
  CHECK_THAT(e, Catch::Contains(accepted_units_text(Quantity::Length)));
  CHECK(accepted_units_text(Quantity::Length) == "m, cm, mm, um, µm, nm");

  const std::string f = parse_error("30 gauss", Quantity::FluxDensity);
  CHECK_THAT(f, Catch::Contains("gauss"));
  for (const char* unit : {"T", "mT", "G", "Oe", "kOe"}) CHECK_THAT(f, Catch::Contains(unit));
}

TEST_CASE("a value without a number, or a unit on a dimensionless value, is rejected with a reason", "[units]") {
  for (const char* text : {"mm", "", "   ", "abc mm", ". mm"}) {
    const std::string e = parse_error(text, Quantity::Length);
    CHECK_THAT(e, Catch::Contains("number"));
  }
  // A dimensional string without a unit is ambiguous: the message offers SI or a unit.
  const std::string no_unit = parse_error("5", Quantity::Length);
  CHECK_THAT(no_unit, Catch::Contains("no unit"));
  CHECK_THAT(no_unit, Catch::Contains("mm"));

  const std::string dimensionless = parse_error("0.3 mm", Quantity::Dimensionless);
  CHECK_THAT(dimensionless, Catch::Contains("dimensionless"));
  parse_error("0.3 %", Quantity::Dimensionless);
}

TEST_CASE("non-finite numbers are rejected", "[units]") {
  for (const char* text : {"inf T", "-inf T", "nan T", "infinity mm", "NaN"}) {
    const Quantity q = std::string(text) == "NaN"                          ? Quantity::Dimensionless
                       : std::string(text).find("mm") != std::string::npos ? Quantity::Length
                                                                           : Quantity::FluxDensity;
    const std::string e = parse_error(text, q);
    CHECK_THAT(e, Catch::Contains("finite"));
  }
}

TEST_CASE("a number too large for a double is reported as such, not as a missing number", "[units]") {
  // std::from_chars reports 1e400 as out of range; the text does start with a number, so the
  // message must not send the user looking for a missing one.
  const std::string overflow = parse_error("1e400 mT", Quantity::FluxDensity);
  CHECK_THAT(overflow, !Catch::Contains("does not start with a number"));
}

TEST_CASE("si_to_unit and unit_to_si are inverse and agree with parse_quantity", "[units]") {
  for (Quantity q : kAllQuantities) {
    for (const auto& u : accepted_units(q)) {
      INFO("unit '" << std::string(u.symbol) << "'");
      CHECK(is_accepted_unit(q, u.symbol));
      const double value = 3.75;
      const double in_si = unit_to_si(value, q, u.symbol);
      CHECK(in_si == Approx(value * u.to_si).epsilon(1e-15));
      CHECK(si_to_unit(in_si, q, u.symbol) == Approx(value).epsilon(1e-14));
      if (!u.symbol.empty()) CHECK(si("3.75 " + std::string(u.symbol), q) == Approx(in_si).epsilon(1e-15));
    }
  }
  CHECK(si_to_unit(4.0, Quantity::FluxDensity, "kOe") == Approx(40.0).epsilon(1e-12));
  CHECK(si_to_unit(0.03, Quantity::FluxDensity, "mT") == Approx(30.0).epsilon(1e-12));
  CHECK(si_to_unit(101325.0, Quantity::Pressure, "atm") == Approx(1.0).epsilon(1e-12));
  CHECK(unit_to_si(2.0, Quantity::Length, "mm") == Approx(2e-3).epsilon(1e-12));
  // Not a unit of this quantity: the value stays in SI, and is_accepted_unit says so.
  CHECK_FALSE(is_accepted_unit(Quantity::FluxDensity, "mm"));
  CHECK_FALSE(is_accepted_unit(Quantity::Length, "parsec"));
  CHECK(si_to_unit(0.5, Quantity::FluxDensity, "mm") == 0.5);
  CHECK(unit_to_si(0.5, Quantity::FluxDensity, "mm") == 0.5);
}

TEST_CASE("parse_quantity_or_si takes a value with a unit, or a bare number as SI", "[units]") {
  double v = 0.0;
  std::string error;
  CHECK(parse_quantity_or_si("20 ms", Quantity::Time, v, error));
  CHECK(v == Approx(0.02).epsilon(1e-15));
  CHECK(parse_quantity_or_si("0.5", Quantity::Time, v, error));  // seconds
  CHECK(v == 0.5);
  CHECK(parse_quantity_or_si("2e-8", Quantity::Length, v, error));
  CHECK(v == 2e-8);
  // Neither: parse_quantity's message, and the value untouched.
  v = 7.0;
  CHECK_FALSE(parse_quantity_or_si("fast", Quantity::Time, v, error));
  CHECK_THAT(error, Catch::Contains("'fast' does not start with a number"));
  CHECK_FALSE(parse_quantity_or_si("3 parsecs", Quantity::Length, v, error));
  CHECK_THAT(error, Catch::Contains("unit 'parsecs' is not accepted here"));
  CHECK_FALSE(parse_quantity_or_si("1e400", Quantity::Time, v, error));
  CHECK(v == 7.0);
}
