// The integrator (engine/step/integrator.cpp): velocity Verlet for translation and the exact quaternion
// update for the rotation of spheres, renormalised every step ([Dominik-Nubold] App. A.3, eq. 32).
// Cases where the discrete motion equals the exact one: free flight, constant force, constant
// angular velocity; the unit quaternion; the periodic wrap.

#include "engine/contact/contacts.hpp"
#include "engine/core/random.hpp"
#include "engine/core/thread_team.hpp"
#include "engine/magnetic/field.hpp"
#include "engine/step/integrator.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>
#include <limits>
#include <vector>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Spheres 10 mm apart on a line (no contacts), no forces of any kind (bare_preset), random
// velocities and angular velocities.
Preset free_spheres(int count, double dt, std::uint64_t seed) {
  Preset p = bare_preset();
  p.integrator.time_step = dt;
  Random rng(seed);
  for (int k = 0; k < count; ++k) {
    ParticleEntry e = sphere(Vec3(-0.04 + 0.01 * k, 0.002 * k, -0.001 * k), 0.5e-3,
                             Vec3(rng.normal(), rng.normal(), rng.normal()) * 0.1);
    e.angular_velocity = Vec3(rng.normal(), rng.normal(), rng.normal()) * 300.0;
    e.axis = (rng.orientation() * Vec3::UnitZ());
    e.moment = 1e-5;  // a moment to rotate along (no field, dipoles off: no torque)
    p.particles.particles.push_back(e);
  }
  return p;
}

// A copy of the session's state in random motion, with random forces and torques (as the last pass left them), and
// particle 3 held in place and `orientation_held` held in its orientation.
State in_random_motion(const Session& session, std::uint64_t seed, size_t orientation_held) {
  State state = session.state();
  Particles& p = state.particles;
  Random rng(seed);
  for (size_t i = 0; i < p.size(); ++i) {
    p.velocity[i] = Vec3(rng.normal(), rng.normal(), rng.normal()) * 1e-2;
    p.angular_velocity[i] = Vec3(rng.normal(), rng.normal(), rng.normal());
    p.force[i] = Vec3(rng.normal(), rng.normal(), rng.normal()) * 1e-3;
    p.torque[i] = Vec3(rng.normal(), rng.normal(), rng.normal()) * 1e-7;
  }
  p.hold[3] = static_cast<std::uint8_t>(HoldKind::Position);
  p.hold[orientation_held] = static_cast<std::uint8_t>(HoldKind::Orientation);
  return state;
}

}  // namespace

TEST_CASE("free flight is exact: x = x0 + v t, velocities untouched", "[integrator]") {
  // Zero force: both half kicks add exactly 0, the drift adds dt v per step. The only error is
  // the rounding of n additions: |x_n - (x0 + n dt v)| <= n eps (|x0| + |v| t), bound 2 n eps x scale.
  const double dt = 1e-4;
  const int steps = 2000;
  Session session(free_spheres(6, dt, 3));
  const Particles start = session.state().particles;
  run_checked(session, steps);
  const Particles& p = session.state().particles;
  const double t = session.state().time;
  CHECK(t == Approx(steps * dt).epsilon(steps * kEps));
  for (size_t i = 0; i < p.size(); ++i) {
    INFO("particle " << i);
    const Vec3 expected = start.position[i] + t * start.velocity[i];
    const double scale = start.position[i].norm() + t * start.velocity[i].norm();
    CHECK((p.position[i] - expected).norm() <= 2.0 * steps * kEps * scale);
    CHECK(p.velocity[i] == start.velocity[i]);
    CHECK(p.angular_velocity[i] == start.angular_velocity[i]);
  }
  CHECK(session.observe().particle_contacts == 0);
}

TEST_CASE("under gravity alone a sphere follows the parabola exactly", "[integrator]") {
  // Velocity Verlet with a constant acceleration g: v_{n+1/2} = v_n + g dt/2, x_{n+1} = x_n +
  // dt v_{n+1/2}, v_{n+1} = v_{n+1/2} + g dt/2 gives x_n = x0 + v0 t + g t^2/2 and v_n = v0 + g t
  // exactly (t = n dt): the scheme integrates quadratics exactly. Remaining: rounding of 2n
  // additions, bound 4 n eps x scale.
  const double dt = 1e-4;
  const int steps = 1500;
  const Vec3 g(0.3, -0.2, -9.81);
  Preset p = bare_preset();
  p.environment.gravity = g;
  p.integrator.time_step = dt;
  const Vec3 x0(0.001, -0.002, 0.04), v0(0.05, 0.02, 0.4);
  p.particles.particles = {sphere(x0, 0.5e-3, v0), sphere(Vec3(0.03, 0.03, 0.0), 1e-3)};
  Session session(p);
  for (int block = 0; block < 5; ++block) {
    run_checked(session, steps / 5);
    const double t = session.state().step * dt;
    const Vec3 x = x0 + v0 * t + 0.5 * g * t * t;
    const Vec3 v = v0 + g * t;
    const double x_scale = x0.norm() + v0.norm() * t + 0.5 * g.norm() * t * t;
    const double v_scale = v0.norm() + g.norm() * t;
    const auto n = static_cast<double>(session.state().step);
    INFO("t = " << t);
    CHECK((session.state().particles.position[0] - x).norm() <= 4.0 * n * kEps * x_scale);
    CHECK((session.state().particles.velocity[0] - v).norm() <= 4.0 * n * kEps * v_scale);
    // The second sphere starts at rest and falls the same way (no mass dependence).
    CHECK((session.state().particles.position[1] - (Vec3(0.03, 0.03, 0.0) + 0.5 * g * t * t)).norm() <=
          4.0 * n * kEps * x_scale);
  }
  // Kinetic plus gravitational energy (-m g.x) is then conserved exactly too, up to rounding
  // (relative to the energies exchanged, ~1e-13 after 1500 steps; bound 1e-11).
  const Observables o = session.observe();
  const double m0 = session.state().particles.mass[0], m1 = session.state().particles.mass[1];
  const double e0 = 0.5 * m0 * v0.squaredNorm() - m0 * g.dot(x0) - m1 * g.dot(Vec3(0.03, 0.03, 0.0));
  CHECK(std::abs(o.kinetic() + o.gravitational - e0) <= 1e-11 * o.kinetic());
}

TEST_CASE("a constant angular velocity turns the orientation by omega t", "[integrator]") {
  // No torque: omega stays constant, and each step applies the rotation exp(omega dt) on the left, so after n steps
  // q = exp(omega t) q0 and every body vector is turned by the angle |omega| t about omega. At 0.3 rad a step (1000
  // steps, 300 rad) by its sine and cosine (rotate_by); at 5e-4 rad a step, as in the scenes, by the series of
  // cos(a/2) and sin(a/2)/a to a^4 (engine/step/integrator.cpp), which must give the same rotation to round-off.
  // The rounding of n quaternion products and renormalisations grows like n eps.
  for (const double step_angle : {0.3, 5e-4}) {
    INFO("angle a step " << step_angle << " rad");
    const double dt = 1e-4;
    const int steps = 1000;
    Preset p = bare_preset();
    p.integrator.time_step = dt;
    ParticleEntry e = sphere(Vec3::Zero(), 0.5e-3);
    e.axis = Vec3(0.3, -0.4, 0.866).normalized();
    e.moment = 2e-5;
    const Vec3 omega = Vec3(1.0, 2.0, -3.0).normalized() * (step_angle / dt);
    e.angular_velocity = omega;
    p.particles.particles = {e};
    Session session(p);
    const Quat q0 = session.state().particles.orientation[0];
    double worst_norm = 0.0;
    for (int n = 1; n <= steps; ++n) {
      run_checked(session, 1);
      worst_norm = std::max(worst_norm, std::abs(session.state().particles.orientation[0].norm() - 1.0));
    }
    const double t = steps * dt;
    const Quat expected = Quat(Eigen::AngleAxisd(omega.norm() * t, omega.normalized())) * q0;
    const Quat q = session.state().particles.orientation[0];
    // Compare rotated vectors (q and -q are the same rotation).
    for (const Vec3& body : {Vec3::UnitX().eval(), Vec3::UnitY().eval(), Vec3::UnitZ().eval()}) {
      CHECK(((q * body) - (expected * body)).norm() <= 20.0 * steps * kEps);
    }
    CHECK(std::abs(std::abs(q.dot(expected)) - 1.0) <= 20.0 * steps * kEps);
    // The moment is the body moment carried along.
    CHECK((session.state().particles.moment[0] - 2e-5 * (expected * Vec3::UnitZ())).norm() <=
          20.0 * steps * kEps * 2e-5);
    CHECK(session.state().particles.angular_velocity[0] == omega);
    CHECK(worst_norm <= 4.0 * kEps);
  }
}

TEST_CASE("the orientation quaternion stays unit under changing torques", "[integrator]") {
  // [Dominik-Nubold] eq. 32: renormalised after every step. Three dipoles tumbling in a rotating field and
  // each other's fields, far apart (no contacts), 5000 steps at 0.05 rad per step.
  Preset p = bare_preset();
  p.magnetics.method = DipoleMethod::Direct;
  p.field.program = FieldProgram::Rotating;
  p.field.strength = 0.05;
  p.field.direction = Vec3::UnitX();
  p.field.rotation_axis = Vec3(0.0, 0.6, 0.8);
  p.field.frequency = 300.0;
  p.integrator.time_step = 1e-5;
  Random rng(8);
  for (int k = 0; k < 3; ++k) {
    ParticleEntry e = sphere(Vec3(0.004 * k, 0.0, 0.0), 0.5e-3);
    e.axis = rng.orientation() * Vec3::UnitZ();
    e.angular_velocity = 5000.0 * Vec3(rng.normal(), rng.normal(), rng.normal());
    e.moment = 5e-5;
    p.particles.particles.push_back(e);
  }
  Session session(p);
  double worst = 0.0, turned = 0.0;
  const Vec3 axis0 = session.state().particles.easy_axis(0);
  for (int n = 0; n < 5000; ++n) {
    run_checked(session, 1);
    for (const Quat& q : session.state().particles.orientation) worst = std::max(worst, std::abs(q.norm() - 1.0));
    turned = std::max(turned, (session.state().particles.easy_axis(0) - axis0).norm());
  }
  CHECK(worst <= 4.0 * kEps);
  CHECK(turned > 1.0);  // the particles really tumbled
}

TEST_CASE("the periodic wrap keeps particles in the box at the right place", "[integrator]") {
  // A periodic box of 10 mm (all axes, not centred on the origin) and spheres at ~2.5 m/s: they
  // cross the faces many times (about 50 box lengths in 2000 steps). Every position stays in
  // [min, max), and equals the free flight x0 + v t folded into the box: the minimum image of the
  // difference is only rounding. All spheres share one velocity, so they never meet, and move less
  // than half their radius per step (the engine's check for steps too large to resolve collisions).
  const double dt = 1e-4;
  const int steps = 2000;
  Preset p = bare_preset();
  p.box.min = Vec3(-0.003, 0.0, -0.007);
  p.box.max = Vec3(0.007, 0.01, 0.003);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Periodic;
  p.integrator.time_step = dt;
  // Spheres of 1 mm radius, 3.5 mm apart, in rigid translation (checked below: no contact).
  Random rng(4);
  const Vec3 velocity = 1.5 * Vec3(rng.normal(), rng.normal(), rng.normal());
  std::vector<Vec3> x0, v0;
  for (int k = 0; k < 4; ++k) {
    x0.push_back(Vec3(-0.002 + 0.002 * k, 0.001 + 0.002 * k, -0.006 + 0.002 * k));
    v0.push_back(velocity);
    p.particles.particles.push_back(sphere(x0.back(), 1e-3, v0.back()));
  }
  Session session(p);
  const Model& model = session.model();
  bool inside = true;
  double worst = 0.0;
  for (int n = 1; n <= steps; ++n) {
    run_checked(session, 1);
    const Particles& s = session.state().particles;
    const double t = n * dt;
    for (size_t i = 0; i < s.size(); ++i) {
      for (int a = 0; a < 3; ++a)
        inside = inside && s.position[i][a] >= p.box.min[a] && s.position[i][a] < p.box.max[a];
      worst = std::max(worst, minimum_image(model, s.position[i] - (x0[i] + t * v0[i])).norm());
    }
  }
  CHECK(inside);
  // Rounding: each step adds dt v (|v| t ~ 0.6 m of unfolded path) to a coordinate below 1 cm and
  // subtracts L now and then; n eps |x| per step in the worst case: 2000 x 2.2e-16 x 0.01 = 4e-15,
  // plus the folding of the reference point x0 + v t (0.6 m, eps x 0.6 = 1.3e-16). Bound 1e-13.
  CHECK(worst <= 1e-13);
  CHECK(session.state().events.total(EventKind::ContactActivated) == 0);
}

TEST_CASE("the force pass's first sweep predicts v + dt/(2m) F and clears the forces", "[integrator]") {
  // predict_and_clear_forces (issue 38: one pass over the force arrays instead of two): the dashpots' velocities
  // v + dt/(2m) F and w + dt/(2I) T from the forces of the last pass, zero for a held part, then every force and
  // torque 0; the same bits on 1 and 3 threads (each particle is its own).
  Session session(free_spheres(40, 1e-4, 5));
  const double dt = 1e-4;
  const State state = in_random_motion(session, 11, 7);
  const Particles& p = state.particles;
  for (int threads : {1, 3}) {
    INFO(threads << " threads");
    ThreadTeam team(threads);
    State cleared = state;
    PredictedVelocities predicted;
    predict_and_clear_forces(cleared, dt, predicted, team);
    for (size_t i = 0; i < p.size(); ++i) {
      INFO("particle " << i);
      const Vec3 v = i == 3 ? Vec3::Zero() : Vec3(p.velocity[i] + (0.5 * dt / p.mass[i]) * p.force[i]);
      const Vec3 w = i == 7 ? Vec3::Zero() : Vec3(p.angular_velocity[i] + (0.5 * dt / p.inertia[i]) * p.torque[i]);
      CHECK(predicted.velocity[i] == v);
      CHECK(predicted.angular_velocity[i] == w);
      CHECK(cleared.particles.force[i] == Vec3::Zero());
      CHECK(cleared.particles.torque[i] == Vec3::Zero());
    }
  }
}

TEST_CASE("the first half predicts the velocities as the force pass would, to the bit", "[integrator]") {
  // integrate_first_half with predictions (issue 38: one sweep over seven arrays less) against the first half without
  // them followed by predict_and_clear_forces, on 1 and 3 threads: the same particles, the same predictions, held
  // parts included (zero), and clear_forces_after_prediction leaves the forces as predict_and_clear_forces does.
  Session session(free_spheres(6000, 1e-4, 5));
  const double dt = 1e-4;
  const State state = in_random_motion(session, 12, 4500);
  const Particles& p = state.particles;
  const Model& model = session.model();
  for (int threads : {1, 3}) {
    INFO(threads << " threads");
    ThreadTeam team(threads);
    State separate = state, fused = state;
    PredictedVelocities expected, made;
    integrate_first_half(model, separate, dt, team);
    predict_and_clear_forces(separate, dt, expected, team);
    integrate_first_half(model, fused, dt, team, &made);
    clear_forces_after_prediction(fused, dt, made, team);
    testing::require_same_state(separate, fused);
    bool same = true;
    for (size_t i = 0; i < p.size(); ++i)
      same = same && testing::same_bits(made.velocity[i], expected.velocity[i]) &&
             testing::same_bits(made.angular_velocity[i], expected.angular_velocity[i]);
    CHECK(same);
    CHECK(made.velocity[3] == Vec3::Zero());
    CHECK(made.angular_velocity[4500] == Vec3::Zero());
    CHECK(made.velocity[4500] != Vec3::Zero());
  }
}
