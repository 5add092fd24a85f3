#pragma once
// Small scenes for engine tests, built through the public preset path (list generator), and a
// stepping helper that fails the test on any engine warning (STYLE 13).

#include "engine/preset.hpp"
#include "engine/simulation.hpp"

#include <catch2/catch.hpp>

#include <vector>

namespace lodestone::testing {

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

// Steps and requires the run to stay healthy.
inline void run_checked(Simulation& sim, std::int64_t steps) {
  const std::int64_t done = sim.run(steps);
  INFO(sim.state().health.message);
  REQUIRE(sim.state().health.ok);
  REQUIRE(done == steps);
}

}  // namespace lodestone::testing
