// Held particles (issue 40; engine/core/hold.hpp): `particles[].fixed` in a preset and the touch `hold` keep a
// sphere's position, orientation or both bit for bit in both integration schemes while the forces and torques on it
// are still computed; holding a moving sphere books the kinetic energy it took as hold_work, so the energy balance
// does not jump; the hold is recorded in the timeline and replays bit for bit, is undone, kept by checkpoints, and
// refused by name for a clump's pebble or a missing particle.

#include "engine/bodies/touch.hpp"
#include "engine/core/state_hash.hpp"
#include "engine/scene/checkpoint.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/touch_actions.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Two magnetised 1 mm spheres 1.6 mm apart along x, moments along z and y, in a field along z: each feels a force
// and a torque from the other and a torque from the field. Particle 0 is held as asked.
Preset two_magnets(HoldKind held) {
  Preset p = bare_preset();
  p.materials[0].magnetization = 2e5;
  p.magnetics.method = DipoleMethod::Cutoff;
  p.field.strength = 5e-3;
  ParticleEntry a = sphere(Vec3(0, 0, 0), 5e-4), b = sphere(Vec3(1.6e-3, 0, 0), 5e-4);
  b.axis = Vec3::UnitY();
  a.fixed = held;
  p.particles.particles = {a, b};
  return p;
}

double kinetic_energy(const Particles& p, size_t i) {
  return 0.5 * p.mass[i] * p.velocity[i].squaredNorm() + 0.5 * p.inertia[i] * p.angular_velocity[i].squaredNorm();
}

}  // namespace

TEST_CASE("hold: a held sphere keeps its position and orientation bit for bit, and the forces on it are still computed",
          "[hold]") {
  Session s(two_magnets(HoldKind::Both));
  const Particles& p = s.state().particles;
  const Vec3 x0 = p.position[0], x1 = p.position[1];
  const Quat q0 = p.orientation[0];
  const double balance0 = s.observe().energy_balance();
  const double drift = run_tracking_balance(s, 400, balance0);
  CHECK(same_bits(p.position[0], x0));
  CHECK(same_bits(p.orientation[0], q0));
  CHECK(p.velocity[0] == Vec3::Zero());
  CHECK(p.angular_velocity[0] == Vec3::Zero());
  // The pair's forces are equal and opposite (the only forces here): the held sphere's is there, the other moved.
  CHECK(p.force[0].norm() > 0.0);
  CHECK((p.force[0] + p.force[1]).norm() <= 1e-12 * p.force[0].norm());
  CHECK(p.torque[0].norm() > 0.0);
  CHECK((p.position[1] - x1).norm() > 1e-6);
  // The holding does no work on a sphere that never moves: the balance keeps to the integrator's error, far below the
  // energy the free sphere gained (a hold that leaked energy would show it).
  INFO("balance drift " << drift << " J, kinetic energy of the free sphere " << kinetic_energy(p, 1) << " J");
  CHECK(kinetic_energy(p, 1) > 0.0);
  CHECK(drift < 1e-3 * kinetic_energy(p, 1));
  CHECK(s.state().energy.hold_work == 0.0);
}

TEST_CASE("hold: a sphere held in place still turns, one kept from turning still moves", "[hold]") {
  SECTION("position") {
    Session s(two_magnets(HoldKind::Position));
    const Vec3 x0 = s.state().particles.position[0];
    const Quat q0 = s.state().particles.orientation[0];
    run_checked(s, 300);
    const Particles& p = s.state().particles;
    CHECK(same_bits(p.position[0], x0));
    CHECK(p.velocity[0] == Vec3::Zero());
    CHECK(p.angular_velocity[0].norm() > 0.0);
    CHECK(p.orientation[0].angularDistance(q0) > 1e-6);
  }
  SECTION("orientation") {
    Session s(two_magnets(HoldKind::Orientation));
    const Vec3 x0 = s.state().particles.position[0];
    const Quat q0 = s.state().particles.orientation[0];
    run_checked(s, 300);
    const Particles& p = s.state().particles;
    CHECK(same_bits(p.orientation[0], q0));
    CHECK(p.angular_velocity[0] == Vec3::Zero());
    CHECK((p.position[0] - x0).norm() > 1e-6);
  }
}

TEST_CASE("hold: under the overdamped scheme with thermal noise a held sphere stays, a free one wanders", "[hold]") {
  Preset p = overdamped_grains_in_walled_box();
  p.particles.kind = GeneratorKind::List;
  ParticleEntry held = sphere(Vec3(1e-3, 2e-3, 2e-3), 5e-4), free = sphere(Vec3(3e-3, 2e-3, 2e-3), 5e-4);
  held.fixed = HoldKind::Both;
  p.particles.particles = {held, free};
  p.environment.temperature = 3e11;  // Brownian steps of a visible size for a 1 mm grain
  Session s(p);
  const Particles& q = s.state().particles;
  const Vec3 x0 = q.position[0], x1 = q.position[1];
  const Quat q0 = q.orientation[0];
  run_checked(s, 50);
  CHECK(same_bits(q.position[0], x0));
  CHECK(same_bits(q.orientation[0], q0));
  CHECK((q.position[1] - x1).norm() > 0.0);  // sqrt(6 D t) ~ 1e-7 m here
}

TEST_CASE("hold: holding a moving sphere books its kinetic energy as hold_work, replays bit for bit and is undone",
          "[hold]") {
  Session s(magnets_in_walled_box());
  run_checked(s, 30);
  const std::uint64_t id = s.state().particles.id[5];
  size_t i = index_of(s, id);
  const double kinetic = kinetic_energy(s.state().particles, i);
  REQUIRE(kinetic > 0.0);
  const double before = s.observe().energy_balance();
  CHECK(s.hold(id, HoldKind::Both).find("hold particle " + std::to_string(id) + " still") != std::string::npos);
  const Particles& p = s.state().particles;
  CHECK(p.velocity[i] == Vec3::Zero());
  CHECK(p.angular_velocity[i] == Vec3::Zero());
  CHECK(s.state().energy.hold_work == -kinetic);
  CHECK(std::abs(s.observe().energy_balance() - before) <= 1e-12 * std::abs(before) + 1e-15);
  const Vec3 x_held = p.position[i];
  run_checked(s, 60);
  i = index_of(s, id);
  CHECK(same_bits(s.state().particles.position[i], x_held));

  // The saved session replays the hold at its step, bit for bit; without it the run ends elsewhere.
  const Preset saved = saved_and_loaded(s.document());
  REQUIRE(saved.timeline.size() == 1);
  CHECK(saved.timeline[0].touch == json::parse(R"({"hold": {"id": )" + std::to_string(id) + R"(, "fixed": "both"}})"));
  Session replay(saved);
  run_checked(replay, s.state().step);
  CHECK(hash_hex(state_hash(replay.state())) == hash_hex(state_hash(s.state())));
  CHECK(same_bits(replay.state().energy.hold_work, s.state().energy.hold_work));
  Preset untouched = saved;
  untouched.timeline.clear();
  Session plain(untouched);
  run_checked(plain, s.state().step);
  CHECK(state_hash(plain.state()) != state_hash(s.state()));

  // Undone: the hold it had before (none), and the sphere falls again.
  REQUIRE(s.undo());
  i = index_of(s, id);
  CHECK(s.state().particles.hold[i] == 0);
  const Vec3 x_let_go = s.state().particles.position[i];
  run_checked(s, 40);
  i = index_of(s, id);
  CHECK((s.state().particles.position[i] - x_let_go).norm() > 0.0);
}

TEST_CASE("hold: a missing particle or a clump's pebble is refused by name, changing nothing", "[hold]") {
  Session s(two_magnets(HoldKind::None));
  CHECK_THROWS_WITH(s.hold(9, HoldKind::Both),
                    Catch::Contains("touch.hold.id") && Catch::Contains("no particle has id 9"));
  ClumpEntry bar;
  bar.shape = ClumpShape::Bar;
  bar.count = 3;
  bar.pebble_radius = 5e-4;
  bar.axis = Vec3::UnitX();
  bar.position = Vec3(0, 0, 0.01);
  s.add_clump(bar);
  const std::uint64_t pebble = s.state().particles.id.back();
  const size_t entries = s.document().timeline.size();
  CHECK_THROWS_WITH(s.hold(pebble, HoldKind::Position),
                    Catch::Contains("touch.hold.id") && Catch::Contains("clump") && Catch::Contains("free spheres"));
  CHECK(s.document().timeline.size() == entries);
  CHECK(s.state().particles.hold[index_of(s, pebble)] == 0);
}

TEST_CASE(
    "hold: a particle entry's fixed key is read and written by name, a free entry leaves it out, a bad one is refused",
    "[hold]") {
  json j = preset_to_json(two_magnets(HoldKind::Orientation));
  CHECK(j["particles"]["particles"][0]["fixed"] == "orientation");
  CHECK_FALSE(j["particles"]["particles"][1].contains("fixed"));
  const Preset back = parse_preset(j.dump(), "test");
  CHECK(back.particles.particles[0].fixed == HoldKind::Orientation);
  CHECK(back.particles.particles[1].fixed == HoldKind::None);
  j["particles"]["particles"][0]["fixed"] = "sideways";
  CHECK_THROWS_WITH(parse_preset(j.dump(), "test"), Catch::Contains("$.particles.particles[0].fixed") &&
                                                        Catch::Contains("position") && Catch::Contains("both"));
  // A held entry's own velocity is not kept: it starts at rest in what it holds.
  Preset moving = two_magnets(HoldKind::Position);
  moving.particles.particles[0].velocity = Vec3(1, 0, 0);
  moving.particles.particles[0].angular_velocity = Vec3(0, 0, 5);
  Session s(moving);
  CHECK(s.state().particles.velocity[0] == Vec3::Zero());
  CHECK(s.state().particles.angular_velocity[0] == Vec3(0, 0, 5));
}

TEST_CASE("hold: a checkpoint keeps the holds and the hold work, and goes on bit for bit", "[hold]") {
  Session s(magnets_in_walled_box());
  run_checked(s, 20);
  const std::uint64_t id = s.state().particles.id[3];
  s.hold(id, HoldKind::Position);
  run_checked(s, 10);
  const Checkpoint c = checkpoint_from_bytes(checkpoint_to_bytes(s.parameters(), s.state()));
  CHECK(c.state.particles.hold == s.state().particles.hold);
  CHECK(same_bits(c.state.energy.hold_work, s.state().energy.hold_work));
  CHECK(c.state.energy.hold_work < 0.0);
  Simulation continued(make_model(c.preset), c.state);
  Simulation original(make_model(s.parameters()), s.state());
  run_checked(continued, 30);
  run_checked(original, 30);
  CHECK(hash_hex(state_hash(continued.state())) == hash_hex(state_hash(original.state())));
}
