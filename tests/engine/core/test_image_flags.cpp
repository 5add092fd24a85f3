// Periodic image flags (engine/core/image_flags.hpp, issue 42): the box lengths a particle has crossed, counted
// where its position is wrapped, so that position + image * L is its unwrapped path. Checked for the wrap itself
// (several boxes at once, the rounding edge), velocity Verlet, overdamped Heun (whose two stages both start from
// the step's origin), a clump's pebbles, and a delete that reorders the particles.

#include "engine/bodies/clumps.hpp"
#include "engine/core/image_flags.hpp"
#include "engine/core/model.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// A box of 10 mm, periodic on all axes, not centred on the origin.
Preset periodic_box(double dt) {
  Preset p = bare_preset();
  p.box.min = Vec3(-0.003, 0.0, -0.007);
  p.box.max = Vec3(0.007, 0.01, 0.003);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Periodic;
  p.integrator.time_step = dt;
  return p;
}

// Largest |position + image L - expected(id)| over the particles now.
template <class Expected>
double unwrapped_error(const Session& session, Expected&& expected) {
  const Particles& s = session.state().particles;
  double worst = 0.0;
  for (size_t i = 0; i < s.size(); ++i) {
    const Vec3 x = unwrapped_position(s.position[i], s.image[i], session.model().periodic_length);
    worst = std::max(worst, (x - expected(s.id[i])).norm());
  }
  return worst;
}

int largest_image(const Particles& p) {
  int most = 0;
  for (const ImageFlags& f : p.image)
    for (int n : f) most = std::max(most, std::abs(n));
  return most;
}

}  // namespace

TEST_CASE("the wrap counts every box length it takes off", "[image]") {
  const double lo = -0.003, length = 0.01;
  double x = lo + 3.5 * length;
  CHECK(wrap_coordinate(x, lo, length) == 3);
  CHECK(x == Approx(lo + 0.5 * length));
  x = lo - 2.25 * length;
  CHECK(wrap_coordinate(x, lo, length) == -3);
  CHECK(x == Approx(lo + 0.75 * length));
  x = lo + 0.25 * length;
  CHECK(wrap_coordinate(x, lo, length) == 0);
  // Just below lo, x + L can round up to lo + L: the wrap puts it at lo, in the box it is in, so it crossed nothing.
  x = -1e-20;
  CHECK(wrap_coordinate(x, 0.0, length) == 0);
  CHECK(x == 0.0);
  // Where it does not round up, x lands just below lo + L, one box down: x + crossed L is where it was.
  x = std::nextafter(lo, -1.0);
  const int crossed = wrap_coordinate(x, lo, length);
  CHECK(crossed == -1);
  CHECK((x >= lo && x < lo + length));
  CHECK(x + crossed * length == Approx(lo).margin(1e-18));
  double nan = std::nan("");
  CHECK(wrap_coordinate(nan, lo, length) == 0);
}

TEST_CASE("velocity Verlet: position + image L is the free flight across many boxes", "[image]") {
  // Spheres in rigid translation at ~2.5 m/s cross the 10 mm box about 50 times in 2000 steps.
  const double dt = 1e-4;
  Preset p = periodic_box(dt);
  const Vec3 velocity(2.1, -1.3, 0.9);
  std::vector<Vec3> x0;
  for (int k = 0; k < 4; ++k) {
    x0.push_back(Vec3(-0.002 + 0.002 * k, 0.001 + 0.002 * k, -0.006 + 0.002 * k));
    p.particles.particles.push_back(sphere(x0.back(), 1e-3, velocity));
  }
  Session session(p);
  double worst = 0.0;
  for (int n = 1; n <= 2000; ++n) {
    run_checked(session, 1);
    const double t = session.state().time;
    worst = std::max(worst, unwrapped_error(session, [&](std::uint64_t id) -> Vec3 { return x0[id] + t * velocity; }));
  }
  const Particles& s = session.state().particles;
  CHECK(s.image[0][0] == static_cast<int>(std::floor((x0[0].x() + 0.2 * velocity.x() - p.box.min.x()) / 0.01)));
  CHECK(largest_image(s) >= 40);
  CHECK(worst <= 1e-13);  // rounding of 0.6 m of path in 2000 steps (test_integrator.cpp)
  CHECK(session.state().events.total(EventKind::ContactActivated) == 0);
}

TEST_CASE("overdamped Heun: the images count each crossing once, not once per stage", "[image]") {
  // Terminal velocity m g / gamma along a tilted gravity: several boxes in 2500 steps.
  Preset p = periodic_box(2e-4);
  p.integrator.scheme = IntegratorScheme::OverdampedHeun;
  p.environment.translational_damping = 1e-4;
  p.environment.rotational_damping = 1e-4;
  p.environment.gravity = Vec3(3.0, -2.0, 1.0);
  const Vec3 x0(0.001, 0.004, -0.002);
  p.particles.particles = {sphere(x0, 1e-3)};
  Session session(p);
  const double m = session.state().particles.mass[0];
  const Vec3 v = m * p.environment.gravity / p.environment.translational_damping;
  run_checked(session, 2500);
  const double t = session.state().time;
  CHECK(largest_image(session.state().particles) >= 3);
  CHECK(unwrapped_error(session, [&](std::uint64_t) -> Vec3 { return x0 + t * v; }) <= 1e-12);
}

TEST_CASE("a clump's pebbles carry the clump's images: their unwrapped centres move rigidly", "[image]") {
  Preset p = periodic_box(5e-6);
  ClumpEntry e;
  e.shape = ClumpShape::Bar;
  e.position = Vec3(0.002, 0.005, -0.002);
  e.axis = Vec3(1.0, 1.0, 0.0).normalized();
  e.count = 3;
  e.pebble_radius = 0.5e-3;
  e.velocity = Vec3(20.0, -12.0, 6.0);
  p.clumps = {e};
  Session session(p);
  const Particles& s = session.state().particles;
  std::vector<Vec3> start(s.size());
  for (size_t i = 0; i < s.size(); ++i) start[s.id[i]] = s.position[i];
  run_checked(session, 4000);  // 0.4 m along x: 40 boxes
  const double t = session.state().time;
  const Vec3 shift = t * e.velocity;  // no spin: a pure translation
  CHECK(largest_image(session.state().particles) >= 30);
  CHECK(unwrapped_error(session, [&](std::uint64_t id) -> Vec3 { return start[id] + shift; }) <= 1e-11);
  const ImageFlags& clump = session.state().clumps.image[0];
  CHECK(std::abs(clump[0]) >= 30);
}

TEST_CASE("images stay with their particles when another is deleted", "[image]") {
  Preset p = periodic_box(1e-4);
  const Vec3 velocity(2.0, 0.0, 0.0);
  std::vector<Vec3> x0;
  for (int k = 0; k < 3; ++k) {
    x0.push_back(Vec3(-0.002 + 0.003 * k, 0.002 + 0.003 * k, -0.005 + 0.003 * k));
    p.particles.particles.push_back(sphere(x0.back(), 1e-3, velocity + Vec3(0.0, 0.1 * k, 0.0)));
  }
  Session session(p);
  run_checked(session, 300);  // 6 cm: 6 boxes
  session.delete_body(0);
  run_checked(session, 300);
  const double t = session.state().time;
  REQUIRE(session.state().particles.size() == 2);
  CHECK(largest_image(session.state().particles) >= 10);
  CHECK(unwrapped_error(session, [&](std::uint64_t id) -> Vec3 {
          return x0[id] + t * (velocity + Vec3(0.0, 0.1 * static_cast<double>(id), 0.0));
        }) <= 1e-13);
}
