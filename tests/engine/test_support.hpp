#pragma once
// Small scenes for engine tests, built through the public preset path (list generator), and a
// stepping helper that fails the test on any engine warning.

#include "engine/bodies/generator.hpp"
#include "engine/bodies/touch.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/session/session.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace lodestone::testing {

inline constexpr double kEps = std::numeric_limits<double>::epsilon();
inline constexpr double kGravity = 9.81;  // [m/s^2]

// One material, no gravity, no damping, no field, dipoles off, all six box sides open,
// a 10 cm box around the origin. Tests switch on what they need.
inline Preset bare_preset() {
  Preset p;
  p.materials = {Material{}};
  p.materials[0].name = "test";
  p.magnetics.method = DipoleMethod::Off;
  p.box.min = Vec3::Constant(-0.05);
  p.box.max = Vec3::Constant(0.05);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Open;
  p.particles.kind = GeneratorKind::List;
  return p;
}

inline ParticleEntry sphere(const Vec3& position, double radius, const Vec3& velocity = Vec3::Zero()) {
  ParticleEntry e;
  e.position = position;
  e.radius = radius;
  e.velocity = velocity;
  return e;
}

// The Simulation of a preset's scene without a Session (no protocol, no timeline): for tests of the step
// and of Simulation::set_model itself.
inline Simulation simulation_of(const Preset& preset) {
  return Simulation(make_model(preset), generate_state(preset));
}

// A Session of p must refuse the preset with a PresetError; returns it (for its path and message). `what` names the
// refused case in the failure message.
inline PresetError session_refusal(const Preset& p, const std::string& what) {
  try {
    const Session session(p);
  } catch (const PresetError& e) {
    return e;
  }
  FAIL(what << " was accepted");
  throw std::logic_error("unreachable: FAIL ends the test");
}

// A preset as a saved session file gives it back: written to text and parsed again.
inline Preset saved_and_loaded(const Preset& document) {
  return parse_preset(preset_to_text(document), "saved session");
}

// Steps and requires the run to stay healthy (a Session or a Simulation).
template <class Run>
void run_checked(Run& sim, std::int64_t steps) {
  const std::int64_t done = sim.run(steps);
  INFO(sim.state().health.message);
  REQUIRE(sim.state().health.ok);
  REQUIRE(done == steps);
}

// The index of the particle with id `id` in a session's state (it must be there).
inline size_t index_of(const Session& s, std::uint64_t id) {
  const long i = index_of_id(s.state().particles, id);
  REQUIRE(i >= 0);
  return static_cast<size_t>(i);
}

// Steps a Session `steps` times, one step at a time, failing on any engine warning; the largest drift of its energy
// balance (total + dissipated - field work) from `balance0` seen after a step.
template <class Run>
double run_tracking_balance(Run& session, std::int64_t steps, double balance0) {
  double largest = 0.0;
  for (std::int64_t n = 0; n < steps; ++n) {
    run_checked(session, 1);
    largest = std::max(largest, std::abs(session.observe().energy_balance() - balance0));
  }
  return largest;
}

// Magnets in a walled box with gravity and a field: dipoles (cutoff lists), Hertz-Mindlin contacts whose
// shear springs carry history, walls: every kind of state a restart or a changed dipole stage must carry.
inline Preset magnets_in_walled_box() {
  Preset p = bare_preset();
  p.materials[0].magnetization = 2e5;
  p.materials[0].youngs_modulus = 1e7;
  p.materials[0].friction = 0.4;
  p.magnetics.method = DipoleMethod::Cutoff;
  p.contact.law = ContactLaw::HertzMindlin;
  p.contact.hertz_mindlin.damping_ratio_n = 0.3;
  p.contact.hertz_mindlin.damping_ratio_t = 0.3;
  p.box.min = Vec3::Zero();
  p.box.max = Vec3(6e-3, 6e-3, 6e-3);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Wall;
  p.environment.gravity = Vec3(0, 0, -9.81);
  p.field.strength = 5e-3;
  p.particles.kind = GeneratorKind::Random;
  p.particles.count = 40;
  p.particles.diameter = 8e-4;
  p.particles.velocity_spread = 0.05;
  p.particles.seed = 7;
  return p;
}

// 30 grains of 1 mm dropped anywhere in a 4 mm walled box (overlaps allowed), overdamped Heun with
// Hertz-Coulomb contacts: the start of a protocol whose first phase removes the overlaps.
inline Preset overdamped_grains_in_walled_box() {
  Preset p = bare_preset();
  p.box.min = Vec3::Zero();
  p.box.max = Vec3(4e-3, 4e-3, 4e-3);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Wall;
  p.contact.law = ContactLaw::HertzCoulomb;
  p.environment.translational_damping = 1.0;
  p.environment.rotational_damping = 1.0;
  p.integrator.scheme = IntegratorScheme::OverdampedHeun;
  p.integrator.time_step = 1e-5;
  p.integrator.max_displacement = 1e-5;
  p.particles.kind = GeneratorKind::Random;
  p.particles.count = 30;
  p.particles.diameter = 1e-3;
  p.particles.allow_overlap = true;
  return p;
}

// A phase that runs until no overlap exceeds 1e-3 of the smaller radius (at most 10 s).
inline ProtocolPhase overlap_removal_phase() {
  ProtocolPhase remove;
  remove.name = "overlap removal";
  remove.until = PhaseEnd::NoOverlap;
  remove.threshold = 1e-3;
  remove.duration = 10.0;
  return remove;
}

// A preset file of the repository's presets/ directory.
inline Preset repository_preset(const char* name) {
  return load_preset_file((std::filesystem::path(LODESTONE_SOURCE_DIR) / "presets" / name).string());
}

// Steps until the simulated time reaches `time`, failing on any engine warning.
template <class Run>
void run_until(Run& sim, double time) {
  while (sim.state().time < time * (1.0 - 1e-12) && sim.state().health.ok) sim.step();
  INFO(sim.state().health.message);
  REQUIRE(sim.state().health.ok);
}

// The RMS relative difference of two vector sets (forces, torques, fields) against a reference b:
// sqrt(sum |a - b|^2 / sum |b|^2).
inline double rms_relative(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - b[i]).squaredNorm();
    den += b[i].squaredNorm();
  }
  return std::sqrt(num / den);
}

}  // namespace lodestone::testing
