// The checks stage (engine/step/health.*): each way a run can blow up is provoked and must stop the run
// with a message naming the particle and a likely cause; healthy runs next to them must not stop.

#include "engine/scene/document.hpp"
#include "engine/step/health.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>
#include <limits>
#include <string>

using namespace lodestone;
using namespace lodestone::testing;
using Catch::Matchers::Contains;

namespace {

const std::string kSourceRoot = LODESTONE_SOURCE_DIR;

// tests/data/unstable-needle.json: its sphere and field, for the closed-form libration period.
constexpr double kNeedleRadius = 0.5e-3, kNeedleDensity = 7500.0, kNeedleMoment = 4.5e-4, kNeedleField = 0.1;

double needle_period() {
  const double mass = kNeedleDensity * 4.0 / 3.0 * std::acos(-1.0) * std::pow(kNeedleRadius, 3);
  const double inertia = 0.4 * mass * kNeedleRadius * kNeedleRadius;
  return 2.0 * std::acos(-1.0) * std::sqrt(inertia / (kNeedleMoment * kNeedleField));
}

Preset needle(double time_step) {
  Preset p = load_preset_file(kSourceRoot + "/tests/data/unstable-needle.json");
  p.integrator.time_step = time_step;
  return p;
}

// The number after `label` in `text`.
double number_after(const std::string& text, const std::string& label) {
  const size_t at = text.find(label);
  REQUIRE(at != std::string::npos);
  return std::stod(text.substr(at + label.size()));
}

Preset two_spheres(const Vec3& second, const Vec3& velocity = Vec3::Zero()) {
  Preset p = bare_preset();
  p.integrator.time_step = 1e-6;
  p.particles.particles = {sphere(Vec3::Zero(), 1e-3), sphere(second, 1e-3, velocity)};
  return p;
}

}  // namespace

// "particle <id of index k>"
std::string particle(const Session& session, size_t k) {
  return "particle " + std::to_string(session.state().particles.id[k]);
}

TEST_CASE("health: a NaN velocity stops the run naming the particle", "[health]") {
  Session session(two_spheres(Vec3(5e-3, 0, 0)));
  session.edit_state().particles.velocity[1].x() = std::numeric_limits<double>::quiet_NaN();
  session.step();
  REQUIRE_FALSE(session.state().health.ok);
  CHECK(session.state().health.particle_id == session.state().particles.id[1]);
  CHECK_THAT(session.state().health.message,
             Contains(particle(session, 1) + " has a NaN or infinite") && Contains("Likely cause"));
  const std::int64_t step = session.state().step;
  session.step();  // a stopped run does not go on
  CHECK(session.state().step == step);
}

TEST_CASE("health: a particle crossing more than half its radius in a step stops the run", "[health]") {
  // 0.6 R per step: 1e-3 m x 0.6 / 1e-6 s = 600 m/s.
  Session session(two_spheres(Vec3(5e-3, 0, 0), Vec3(600.0, 0, 0)));
  session.step();
  REQUIRE_FALSE(session.state().health.ok);
  CHECK(session.state().health.particle_id == session.state().particles.id[1]);
  CHECK_THAT(session.state().health.message,
             Contains(particle(session, 1) + " moves 60") && Contains("% of its radius per step"));
}

TEST_CASE("health: an overlap beyond half the radius stops the run", "[health]") {
  Session session(two_spheres(Vec3(1.2e-3, 0, 0)));  // overlap 0.8 mm of 1 mm radii
  session.step();
  REQUIRE_FALSE(session.state().health.ok);
  CHECK(session.state().health.particle_id == session.state().particles.id[0]);
  CHECK_THAT(
      session.state().health.message,
      Contains(particle(session, 0) + " overlaps " + particle(session, 1) + " by 80") && Contains("contacts too soft"));
}

TEST_CASE("health: the overlap check's threshold is half the smaller radius, on either side of it", "[health]") {
  // The check compares squared distances (no square root per listed pair): 0.45 R passes, 0.55 R stops the run.
  Session shallow(two_spheres(Vec3(1.55e-3, 0, 0)));
  shallow.step();
  CHECK(shallow.state().health.ok);
  Session deep(two_spheres(Vec3(1.45e-3, 0, 0)));
  deep.step();
  REQUIRE_FALSE(deep.state().health.ok);
  CHECK_THAT(deep.state().health.message, Contains(" by 5") && Contains("% of the smaller radius"));
}

TEST_CASE("health: an overlap that grows past half the radius during a step stops the run at that step", "[health]") {
  // 0.44 R deep at the start (healthy), closing at 0.1 R a step (100 m/s x 1 us): about 0.54 R after the first step.
  // Within a step the contact pass makes the overlap scan (RunawayOverlapWatch), the checks take its answer.
  Session session(two_spheres(Vec3(1.56e-3, 0, 0), Vec3(-100.0, 0, 0)));
  REQUIRE(session.state().health.ok);
  session.step();
  REQUIRE_FALSE(session.state().health.ok);
  CHECK(session.state().step == 1);
  CHECK_THAT(session.state().health.message,
             Contains(particle(session, 0) + " overlaps " + particle(session, 1) + " by 5"));
}

TEST_CASE("health: a particle through a wall stops the run", "[health]") {
  Preset p = two_spheres(Vec3(5e-3, 0, 0));
  p.box.x_max = SideKind::Wall;
  Session session(p);
  session.edit_state().particles.position[1].x() = 0.06;  // beyond x_max = 0.05
  session.step();
  REQUIRE_FALSE(session.state().health.ok);
  CHECK(session.state().health.particle_id == session.state().particles.id[1]);
  CHECK_THAT(session.state().health.message, Contains(particle(session, 1) + " passed through the x_max wall"));
}

TEST_CASE("health: a needle spinning up under a too long time step stops with energy growth", "[health]") {
  const double period = needle_period();  // 0.59 ms; Verlet is unstable above T / pi = 0.19 ms
  Session session(needle(0.3e-3));
  const Vec3 start = session.state().particles.position[0];
  session.run(200000);
  REQUIRE_FALSE(session.state().health.ok);
  const std::string& message = session.state().health.message;
  INFO(message << "\n(stopped at step " << session.state().step << ")");
  CHECK_THAT(message, Contains("energy grows without a source") && Contains("libration period"));
  CHECK_THAT(message, !Contains("NaN"));
  // The period the message gives is the closed form 2 pi sqrt(I / m B) (printed to 6 digits).
  CHECK(number_after(message, "libration period in the field is ") == Approx(period).epsilon(1e-5));
  // Nothing else would have caught it: the needle turns in place, nothing is NaN.
  CHECK((session.state().particles.position[0] - start).norm() == 0.0);
}

TEST_CASE("health: the same needle at a stable time step librates for long without a false alarm", "[health]") {
  Session session(needle(needle_period() / 40.0));
  run_checked(session, 200000);  // 5 000 periods
}

TEST_CASE("health: an edit that changes the energy takes a new reference, not an alarm", "[health]") {
  // Reversing the field lifts the Zeeman energy from -m B cos 30 to +m B cos 30: a jump of 1.7 m B
  // with only 0.87 m B in the system, which the check would take for growth without a source if it
  // kept comparing with the balance from before the edit.
  Session session(needle(needle_period() / 40.0));
  run_checked(session, 1000);
  Preset reversed = needle(needle_period() / 40.0);
  reversed.field.direction = -Vec3::UnitZ();
  session.edit_parameters(reversed);
  run_checked(session, 20000);
}

TEST_CASE("health: a particle beyond any wall is named, on one thread and on three", "[health][threading]") {
  // 9 000 grains in a box walled on every side, so that the walls' sweep runs in three parts: one grain at a time is
  // put just beyond each wall in turn, early, midway and late in the particle order, and the check must name it and
  // that wall, whatever the thread count; with every grain inside, nothing.
  Preset p = bare_preset();
  p.box.min = Vec3::Zero();
  p.box.max = Vec3(0.05, 0.05, 0.05);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Wall;
  p.particles.kind = GeneratorKind::Random;
  p.particles.count = 9000;
  p.particles.diameter = 1e-3;
  p.particles.seed = 11;
  Session session(p);
  const Model& model = session.model();
  for (const int threads : {1, 3}) {
    ThreadTeam team(threads);
    State inside = session.state();
    check_health(model, inside, team);
    REQUIRE(inside.health.ok);
    for (int side = 0; side < 6; ++side)
      for (const size_t i : {size_t{5}, size_t{4500}, size_t{8990}}) {
        const int axis = side / 2;
        const bool upper = side % 2 == 1;
        INFO(threads << " threads, side " << side << ", particle index " << i);
        State s = session.state();
        s.particles.position[i][axis] = upper ? model.box.max[axis] + 1e-9 : model.box.min[axis] - 1e-9;
        check_health(model, s, team);
        REQUIRE_FALSE(s.health.ok);
        CHECK(s.health.particle_id == s.particles.id[i]);
        CHECK_THAT(s.health.message,
                   Contains(std::string("passed through the ") + "xyz"[axis] + (upper ? "_max" : "_min") + " wall"));
      }
  }
}
