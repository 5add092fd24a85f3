// Reduced LJ-style dipolar units (units.system lj; engine/scene/unit_system.hpp, docs/physics.md "Reduced (LJ-style
// dipolar) units"): presets read and written in sigma, m, epsilon with mu0/4pi = 1, outputs converted at the edge.
// Not [Erokhin-Berkov]'s App. B scaling, which test_reduced_units.cpp covers.

#include "engine/output/export_frames.hpp"
#include "engine/output/output_units.hpp"
#include "engine/output/series.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/scene/unit_system.hpp"
#include "engine/scene/unit_values.hpp"
#include "engine/session/session.hpp"
#include "tests/engine/test_support.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <sstream>
#include <string>

using namespace lodestone;

namespace {

// Scales with no power-of-two relation to each other or to 1, so that every conversion rounds.
constexpr double kSigma = 2e-3;   // [m] a 2 mm sphere's diameter
constexpr double kMass = 3.3e-5;  // [kg]
constexpr double kEnergy = 4e-7;  // [J]

// The derived units written out again from their definitions, independently of LjUnits, so that a wrong
// scale in the engine shows up as a mismatch here (mu0/4pi = 1e-7 T m/A in SI).
const double kTau = kSigma * std::sqrt(kMass / kEnergy);                          // [s]
const double kUnitMoment = std::sqrt(kSigma * kSigma * kSigma * kEnergy / 1e-7);  // [A m^2]
const double kUnitField = kEnergy / kUnitMoment;                                  // [T], since m* B* = m B / epsilon

json lj_units_section() {
  return {{"system", "lj"}, {"lj", {{"sigma", kSigma}, {"mass", kMass}, {"energy", kEnergy}}}};
}

json open_box(double half) {
  return {{"min", {-half, -half, -half}},
          {"max", {half, half, half}},
          {"x_min", "open"},
          {"x_max", "open"},
          {"y_min", "open"},
          {"y_max", "open"},
          {"z_min", "open"},
          {"z_max", "open"}};
}

// Two spheres carrying moment `moment`, head to tail along z at centre distance `distance`, dipoles summed
// directly (no cutoff, no cap): the whole dipole energy is the one pair's.
json two_dipoles(double radius, double distance, double moment, double box_half) {
  json particle = {{"position", {0.0, 0.0, 0.0}}, {"radius", radius}, {"axis", {0, 0, 1}}, {"moment", moment}};
  json second = particle;
  second["position"] = {0.0, 0.0, distance};
  return {{"version", kPresetVersion},
          {"materials", {{{"name", "magnet"}}}},
          {"magnetics", {{"method", "direct"}}},
          {"box", open_box(box_half)},
          {"particles", {{"kind", "list"}, {"particles", {particle, second}}}}};
}

double relative_difference(double a, double b) {
  return std::abs(a - b) / std::max(std::abs(a), std::abs(b));
}

}  // namespace

TEST_CASE("two dipoles head to tail in lj units have U = -2 m^2 / r^3 to round-off", "[lj_units]") {
  const double m = 1.5, r = 2.25;  // lj moment and distance; spheres of diameter 1 sigma, not touching
  json j = two_dipoles(0.5, r, m, 10.0);
  j["units"] = lj_units_section();
  const Preset preset = parse_preset(j.dump(), "two dipoles (lj)");
  const Session session(preset);
  const Observables observed = observables_in_units(session.observe(), preset.units);
  const double expected = -2.0 * m * m / (r * r * r);  // mu0/4pi = 1: U = -(m1 m2 / r^3) (3 cos^2 0 - 1)
  // The engine's pair energy in SI: position and moment each scaled once, about six operations in the kernel,
  // one division by epsilon: a few round-offs of 1.1e-16 each. 4e-15 (some 18 ulp) leaves room and still fails
  // for any mistake in a scale (a missing factor 4 pi is a factor, not 1e-15).
  INFO("U* = " << observed.dipole << ", expected " << expected << ", relative difference "
               << relative_difference(observed.dipole, expected));
  CHECK(relative_difference(observed.dipole, expected) < 4e-15);
  CHECK(observed.zeeman == 0.0);

  // The same energy in SI is -2 (mu0/4pi) m^2 / r^3 with the SI moment and distance, and equals epsilon U*.
  const double m_si = m * kUnitMoment, r_si = r * kSigma;
  CHECK(relative_difference(session.observe().dipole, -2e-7 * m_si * m_si / (r_si * r_si * r_si)) < 4e-15);
  CHECK(relative_difference(session.observe().dipole, kEnergy * expected) < 4e-15);
}

TEST_CASE("a moment in an lj field has the Zeeman energy -m* B*", "[lj_units]") {
  json j = two_dipoles(0.5, 2.25, 1.5, 10.0);
  j["units"] = lj_units_section();
  j["magnetics"]["method"] = "off";
  j["field"] = {{"strength", 0.8}, {"direction", {0, 0, 1}}};
  const Preset preset = parse_preset(j.dump(), "moments in a field (lj)");
  CHECK(relative_difference(preset.field.strength, 0.8 * kUnitField) < 1e-15);
  const Observables observed = observables_in_units(Session(preset).observe(), preset.units);
  CHECK(relative_difference(observed.zeeman, -2.0 * 1.5 * 0.8) < 4e-15);
}

TEST_CASE("the lj units follow from sigma, m and epsilon", "[lj_units]") {
  const LjUnits u(LjScales{kSigma, kMass, kEnergy});
  CHECK(relative_difference(u.time, kTau) < 1e-15);
  CHECK(relative_difference(u.moment, kUnitMoment) < 1e-15);
  CHECK(relative_difference(u.flux_density, kUnitField) < 1e-15);
  // Dimensional checks, each an identity of the definitions: kinetic energy m (sigma/tau)^2 = epsilon, force
  // times length = epsilon, pressure times volume = epsilon, k_B T* = epsilon, damping times velocity = force.
  const double velocity = u.of(Quantity::Velocity);
  CHECK(relative_difference(u.mass * velocity * velocity, kEnergy) < 1e-15);
  CHECK(relative_difference(u.of(Quantity::Force) * kSigma, kEnergy) < 1e-15);
  CHECK(relative_difference(u.of(Quantity::Pressure) * kSigma * kSigma * kSigma, kEnergy) < 1e-15);
  CHECK(relative_difference(u.of(Quantity::Temperature) * 1.380649e-23, kEnergy) < 1e-15);
  CHECK(relative_difference(u.of(Quantity::LinearDamping) * velocity, u.of(Quantity::Force)) < 1e-15);
  CHECK(relative_difference(u.of(Quantity::Acceleration) * u.mass, u.of(Quantity::Force)) < 1e-15);
  CHECK(relative_difference(u.of(Quantity::Magnetization) * kSigma * kSigma * kSigma, kUnitMoment) < 1e-15);
  CHECK(relative_difference(u.of(Quantity::FieldGradient) * kSigma, kUnitField) < 1e-15);
  CHECK(u.of(Quantity::Angle) == 1.0);
  CHECK(u.of(Quantity::Dimensionless) == 1.0);
}

namespace {

// A scene that touches most quantities: spheres with moments from a magnetisation and one given directly, a
// rotating field with a gradient, gravity, viscous damping, linear contacts that collide during the run, a time
// step. `lj` writes every dimensional number in lj units (the SI value divided by its unit from the constants
// above); the physics is the same.
json busy_scene(bool lj) {
  const double L = lj ? kSigma : 1.0, T = lj ? kTau : 1.0, M = lj ? kMass : 1.0, E = lj ? kEnergy : 1.0;
  const double B = lj ? kUnitField : 1.0, mu = lj ? kUnitMoment : 1.0;
  const double V = L / T, F = E / L;
  json materials = {{{"name", "ferrite"},
                     {"density", 5000.0 / (M / (L * L * L))},
                     {"kn", 2e3 / (F / L)},
                     {"ks", 1.5e3 / (F / L)},
                     {"friction", 0.3},
                     {"magnetization", 2e5 / (mu / (L * L * L))}}};
  json particles = json::array();
  const double radius = 1e-3;
  for (int k = 0; k < 4; ++k) {
    const double x = 2.05e-3 * k;
    json p = {{"position", {x / L, 0.3e-3 * k / L, 0.0}},
              {"radius", radius / L},
              {"velocity", {(k == 0 ? 0.05 : 0.0) / V, 0.01 * k / V, 0.0}},
              {"angular_velocity", {0.0, 3.0 * k * T, 0.0}},
              {"axis", {1.0, 0.2 * k, 0.1}}};
    if (k == 3) p["moment"] = 2e-4 / mu;  // the others take M V
    particles.push_back(p);
  }
  json field = {
      {"program", "rotating"},  {"strength", 5e-3 / B},
      {"direction", {1, 0, 0}}, {"rotation_axis", {0, 0, 1}},
      {"frequency", 20.0 * T},  {"gradient", {{0.1 / (B / L), 0.0, 0.0}, {0.0, -0.1 / (B / L), 0.0}, {0.0, 0.0, 0.0}}}};
  json j = {{"version", kPresetVersion},
            {"materials", materials},
            {"contact", {{"law", "linear"}, {"linear", {{"dp_nratio", 0.2}, {"dp_sratio", 0.1}}}}},
            {"magnetics", {{"method", "direct"}}},
            {"field", field},
            {"environment",
             {{"gravity", {0.0, 0.0, -9.81 / (L / (T * T))}},
              {"translational_damping", 1e-4 / (M / T)},
              {"rotational_damping", 2e-4 / (M / T)}}},
            {"box", open_box(0.05 / L)},
            {"integrator", {{"time_step", 2e-6 / T}}},
            {"particles", {{"kind", "list"}, {"particles", particles}}}};
  if (lj) j["units"] = lj_units_section();
  return j;
}

}  // namespace

TEST_CASE("the same scene in SI and in lj units runs the same trajectory after conversion", "[lj_units]") {
  const Preset si = parse_preset(busy_scene(false).dump(), "busy scene (SI)");
  const Preset lj = parse_preset(busy_scene(true).dump(), "busy scene (lj)");
  REQUIRE(lj.units.system == UnitSystem::Lj);
  // The parameters agree after conversion to within the round-off of writing them in lj and reading them back.
  CHECK(relative_difference(lj.field.strength, si.field.strength) < 1e-15);
  CHECK(relative_difference(*lj.integrator.time_step, *si.integrator.time_step) < 1e-15);
  CHECK(relative_difference(lj.environment.gravity.z(), si.environment.gravity.z()) < 1e-15);

  Session a(si), b(lj);
  a.set_threads(1);
  b.set_threads(1);
  const std::int64_t steps = 4000;  // 8 ms: the first sphere runs into the second, the field turns 58 deg
  testing::run_checked(a, steps);
  testing::run_checked(b, steps);
  const Observables end = a.observe();
  // Contacts happened: the comparison covers them.
  REQUIRE(end.events[static_cast<size_t>(EventKind::ContactActivated)] > 0);

  // The lj run's frame, converted by the output path, against the SI run's divided by the independent units.
  const FrameFields fa = frame_fields(a.model(), a.state());
  const FrameFields fb = frame_in_units(frame_fields(b.model(), b.state()), lj.units);
  REQUIRE(fa.size() == fb.size());
  // Each quantity compared relative to its largest value in the scene (a coordinate near 0 has no relative
  // error of its own): positions to the box's scale, the others to the fastest, most strongly turning particle.
  const double V = kSigma / kTau;
  const auto worst_of = [&](auto si_in_lj, auto lj) {
    double scale = 0.0, difference = 0.0;
    for (size_t i = 0; i < fa.size(); ++i) {
      scale = std::max(scale, si_in_lj(i).norm());
      difference = std::max(difference, (si_in_lj(i) - lj(i)).norm());
    }
    return difference / scale;
  };
  const double position = worst_of([&](size_t i) -> Vec3 { return fa.position[i] / kSigma; },
                                   [&](size_t i) -> Vec3 { return fb.position[i]; });
  const double velocity =
      worst_of([&](size_t i) -> Vec3 { return fa.velocity[i] / V; }, [&](size_t i) -> Vec3 { return fb.velocity[i]; });
  const double spin = worst_of([&](size_t i) -> Vec3 { return fa.angular_velocity[i] * kTau; },
                               [&](size_t i) -> Vec3 { return fb.angular_velocity[i]; });
  const double moment = worst_of([&](size_t i) -> Vec3 { return fa.moment[i] / kUnitMoment; },
                                 [&](size_t i) -> Vec3 { return fb.moment[i]; });
  double orientation = 0.0;
  for (size_t i = 0; i < fa.size(); ++i)
    orientation = std::max(orientation, (fa.orientation[i].coeffs() - fb.orientation[i].coeffs()).norm());
  const double worst = std::max({position, velocity, spin, moment, orientation});
  INFO("position " << position << ", velocity " << velocity << ", angular velocity " << spin << ", moment " << moment
                   << ", orientation " << orientation);
  INFO("largest relative difference " << worst);
  CHECK(worst < 1e-12);
  CHECK(relative_difference(fa.time / kTau, fb.time) < 1e-14);
  const Observables eb = observables_in_units(b.observe(), lj.units);
  CHECK(relative_difference(end.total_energy() / kEnergy, eb.total_energy()) < 1e-12);
}

TEST_CASE("a unit system that does not exist is refused with its path, value and the allowed ones", "[lj_units]") {
  json j = two_dipoles(0.5, 2.25, 1.5, 10.0);
  j["units"] = {{"system", "reduced"}};
  try {
    parse_preset(j.dump(), "bad units");
    FAIL("an unknown unit system was accepted");
  } catch (const PresetError& e) {
    CHECK(e.path() == "bad units $.units.system");
    CHECK_THAT(e.message(), Catch::Contains("si, lj") && Catch::Contains("\"reduced\""));
  }
  j["units"] = {{"system", "lj"}, {"lj", {{"sigma", -1.0}}}};
  CHECK_THROWS_WITH(parse_preset(j.dump(), "bad units"),
                    Catch::Contains("$.units.lj.sigma") && Catch::Contains("out of the allowed range"));
}

TEST_CASE("a preset loaded in lj units saves in lj units and loads back to the same scene", "[lj_units]") {
  json j = busy_scene(true);
  // Values a user types, which must come back as typed.
  j["particles"]["particles"][0]["radius"] = 0.5;
  j["particles"]["particles"][0]["position"] = {1.5, -0.25, 0.0};
  j["field"]["strength"] = 0.3;
  j["protocol"] = {{{"name", "settle"},
                    {"duration", 20.0},
                    {"until", "settled"},
                    {"threshold", 0.01},
                    {"set", {{"field.strength", 0.6}, {"materials.0.kn", 7.0}}}},
                   {{"name", "hold"}, {"duration", 5.0}}};
  j["timeline"] = {{{"step", 10}, {"set", {{"field.strength", 0.45}}}}};
  const Preset loaded = parse_preset(j.dump(), "lj preset");

  // Inside, SI: the phase's set values and the settled threshold (a speed) converted too.
  CHECK(relative_difference(loaded.protocol[0].duration, 20.0 * kTau) < 1e-15);
  CHECK(relative_difference(loaded.protocol[0].threshold, 0.01 * kSigma / kTau) < 1e-15);
  CHECK(relative_difference(phase_preset(loaded, 0).field.strength, 0.6 * kUnitField) < 1e-15);
  CHECK(relative_difference(phase_preset(loaded, 0).materials[0].kn, 7.0 * kEnergy / (kSigma * kSigma)) < 1e-15);
  CHECK(relative_difference(loaded.timeline[0].set["field.strength"].get<double>(), 0.45 * kUnitField) < 1e-15);

  const std::string saved = preset_to_text(loaded);
  const json w = json::parse(saved);
  CHECK(w["units"]["system"] == "lj");
  CHECK(w["particles"]["particles"][0]["radius"] == 0.5);
  CHECK(w["particles"]["particles"][0]["position"] == json({1.5, -0.25, 0.0}));
  CHECK(w["field"]["strength"] == 0.3);
  CHECK(w["protocol"][0]["duration"] == 20.0);
  CHECK(w["protocol"][0]["threshold"] == 0.01);
  CHECK(w["protocol"][0]["set"]["field.strength"] == 0.6);
  CHECK(w["protocol"][0]["set"]["materials.0.kn"] == 7.0);
  CHECK(w["timeline"][0]["set"]["field.strength"] == 0.45);
  CHECK(w["units"]["lj"]["sigma"] == kSigma);  // the scales stay SI

  // Loading the save gives the same scene bit for bit, and saving that gives the same text.
  // (dump() compares the printed doubles, so -0 and 0 differ as their bits do.)
  const Preset reloaded = parse_preset(saved, "saved lj preset");
  CHECK(preset_to_json(reloaded).dump() == preset_to_json(loaded).dump());
  CHECK(preset_to_text(reloaded) == saved);
}

TEST_CASE("an SI value with no exact lj double is saved with its SI unit, so a reload is exact", "[lj_units]") {
  const LjUnits units(LjScales{kSigma, kMass, kEnergy});
  const ConvertNumber to_lj = si_to_lj(units), to_si = lj_to_si(units);
  std::mt19937_64 random(24);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  int as_numbers = 0, as_strings = 0;
  for (int k = 0; k < 20000; ++k) {
    const auto q = k % 2 ? Quantity::FluxDensity : Quantity::Length;
    const double si = (k % 3 ? 1.0 : -1.0) * mantissa(random) * 1e-3;
    const json written = to_lj(q, si);
    double back = 0.0;
    if (written.is_number()) {
      ++as_numbers;
      back = to_si(q, written.get<double>()).get<double>();
    } else {
      ++as_strings;
      std::string error;
      REQUIRE(parse_quantity(written.get<std::string>(), q, back, error));
    }
    REQUIRE(back == si);
  }
  // Zero keeps its sign (a search across zero could land on -0 for +0).
  for (const double zero : {0.0, -0.0}) {
    const json written = to_lj(Quantity::Length, zero);
    REQUIRE(written.is_number());
    CHECK(std::signbit(written.get<double>()) == std::signbit(zero));
  }
  // How often no lj double exists depends on the scales' mantissas; most values are numbers.
  INFO(as_numbers << " numbers, " << as_strings << " strings");
  CHECK(as_numbers > as_strings);

  // An SI preset given lj units afterwards (as the app would save it) reloads exactly too.
  Preset p = parse_preset(busy_scene(false).dump(), "busy scene (SI)");
  p.units.system = UnitSystem::Lj;
  p.units.lj = LjScales{kSigma, kMass, kEnergy};
  const Preset back = parse_preset(preset_to_text(p), "saved");
  CHECK(preset_to_json(back).dump() == preset_to_json(p).dump());
}

TEST_CASE("frames and series in lj units say so in their headers, SI ones do not change", "[lj_units]") {
  json j = two_dipoles(0.5, 2.25, 1.5, 10.0);
  const Preset si = parse_preset(j.dump(), "si");
  j["units"] = lj_units_section();
  const Preset lj = parse_preset(j.dump(), "lj");
  const Session a(si), b(lj);
  const FrameFields fa = frame_in_units(frame_fields(a.model(), a.state()), si.units);
  const FrameFields fb = frame_in_units(frame_fields(b.model(), b.state()), lj.units);
  CHECK(fa.units.empty());
  CHECK(frame_file_text(FrameFormat::ExtendedXyz, fa) ==
        frame_file_text(FrameFormat::ExtendedXyz, frame_fields(a.model(), a.state())));
  CHECK_THAT(frame_file_text(FrameFormat::ExtendedXyz, fb), Catch::Contains("Units=\"lj: sigma = 0.002 m"));
  CHECK_THAT(frame_file_text(FrameFormat::Csv, fb),
             Catch::StartsWith(csv_version_comment() + "# units: lj: sigma = 0.002 m"));
  CHECK_THAT(frame_file_text(FrameFormat::LammpsDump, fb), Catch::StartsWith("ITEM: UNITS\nlj\nITEM: TIMESTEP"));
  CHECK_THAT(frame_file_text(FrameFormat::VtkPolyData, fb), Catch::Contains("<!-- units: lj: sigma"));
  CHECK(relative_difference(fb.position[1].z(), 2.25) < 1e-15);  // 2.25 sigma in, 2.25 out (times and divided by sigma)
  CHECK(relative_difference(fb.radius[0], 0.5) < 1e-15);
  CHECK(series_header(unit_system_note(si.units)) == series_header());
  CHECK_THAT(series_header(unit_system_note(lj.units)), Catch::StartsWith("# units: lj: sigma = 0.002 m, mass = "
                                                                          "3.3e-05 kg, energy = 4e-07 J"));
}

TEST_CASE("the panels show a preset in reduced units in lj units, an SI one in its display units", "[lj_units]") {
  // engine/scene/unit_values.hpp shown_unit / si_to_shown / shown_to_si (issue 42: the panels read and answer in the
  // preset's unit system). Units written out independently above (kUnitField, kTau).
  DisplayUnits lj;
  lj.system = UnitSystem::Lj;
  lj.lj = LjScales{kSigma, kMass, kEnergy};
  CHECK(shown_unit(Quantity::FluxDensity, lj) == "lj");
  CHECK(relative_difference(si_to_shown(0.5 * kUnitField, Quantity::FluxDensity, lj), 0.5) < 1e-15);
  CHECK(relative_difference(shown_to_si(3.0, Quantity::Length, lj), 3.0 * kSigma) < 1e-15);
  CHECK(relative_difference(si_to_shown(2.0 * kTau, Quantity::Time, lj), 2.0) < 1e-15);
  // Dimensionless values and angles read the same in both systems: shown as an SI preset shows them.
  CHECK(shown_unit(Quantity::Dimensionless, lj).empty());
  CHECK(si_to_shown(0.3, Quantity::Dimensionless, lj) == 0.3);
  CHECK(shown_unit(Quantity::Angle, lj) == shown_unit(Quantity::Angle, DisplayUnits{}));
  // An SI preset: its display units (mT, mm by default, atm), as before.
  const DisplayUnits si;
  CHECK(shown_unit(Quantity::FluxDensity, si) == "mT");
  CHECK(relative_difference(si_to_shown(0.04, Quantity::FluxDensity, si), 40.0) < 1e-15);
  CHECK(relative_difference(shown_to_si(2.5, Quantity::Length, si), 2.5e-3) < 1e-15);
  CHECK(shown_unit(Quantity::Velocity, si) == "m/s");
}
