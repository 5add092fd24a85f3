// Overdamped integrator ([Erokhin-Berkov] eqs. 5-6 without inertia, Heun's method) against closed forms.

#include "engine/magnetic/field.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// One sphere with a rigid moment m along body z, field B along x, overdamped rotation:
// R^2 gamma* dtheta/dt = -m B sin theta, so tan(theta/2) = tan(theta0/2) exp(-t / tau),
// tau = R^2 gamma* / (m B).
struct Rotor {
  double radius = 1e-3, moment = 1e-3, field = 0.01, gamma_rot = 2.0;
  double tau() const { return radius * radius * gamma_rot / (moment * field); }
};

Preset rotor_preset(const Rotor& r, double dt) {
  Preset p = bare_preset();
  p.integrator.scheme = IntegratorScheme::OverdampedHeun;
  p.integrator.time_step = dt;
  p.environment.translational_damping = 1.0;
  p.environment.rotational_damping = r.gamma_rot;
  p.field.strength = r.field;
  p.field.direction = Vec3::UnitX();
  ParticleEntry e = sphere(Vec3::Zero(), r.radius);
  e.moment = r.moment;
  e.axis = Vec3::UnitZ();  // theta0 = 90 deg
  p.particles.particles = {e};
  return p;
}

double theta_exact(double t, double tau, double theta0) {
  return 2.0 * std::atan(std::tan(0.5 * theta0) * std::exp(-t / tau));
}

// Largest |theta - exact| over [0, 3 tau].
double rotor_error(const Rotor& r, int steps_per_tau) {
  const double dt = r.tau() / steps_per_tau;
  Session session(rotor_preset(r, dt));
  double worst = 0.0;
  for (int k = 0; k < 3 * steps_per_tau; ++k) {
    run_checked(session, 1);
    const double theta = std::acos(std::clamp(session.state().particles.easy_axis(0).x(), -1.0, 1.0));
    worst = std::max(worst, std::abs(theta - theta_exact(session.state().time, r.tau(), pi / 2)));
  }
  return worst;
}

}  // namespace

TEST_CASE("overdamped: a dipole in a field relaxes with tau = R^2 gamma* / (m B)", "[overdamped]") {
  const Rotor r;
  const double coarse = rotor_error(r, 50), fine = rotor_error(r, 100);
  INFO("max error " << coarse << " rad at tau/50, " << fine << " at tau/100");
  CHECK(coarse < 1e-4);
  // Heun is second order: halving the step divides the error by about 4.
  CHECK(coarse / fine == Approx(4.0).epsilon(0.15));
  // The small-angle time constant itself: after 2 tau the angle is down by tan ratio e^-2.
  Session session(rotor_preset(r, r.tau() / 200));
  run_checked(session, 400);
  const double theta = std::acos(session.state().particles.easy_axis(0).x());
  CHECK(std::tan(theta / 2) / std::tan(pi / 4) == Approx(std::exp(-2.0)).epsilon(1e-4));
}

TEST_CASE("overdamped: a sphere falls at the terminal velocity m g / gamma at once", "[overdamped]") {
  Preset p = bare_preset();
  p.integrator.scheme = IntegratorScheme::OverdampedHeun;
  p.integrator.time_step = 1e-3;
  p.environment.translational_damping = 0.5;
  p.environment.rotational_damping = 0.5;
  p.environment.gravity = Vec3(0, 0, -9.81);
  p.particles.particles = {sphere(Vec3::Zero(), 1e-3)};
  Session session(p);
  run_checked(session, 10);
  const double m = session.state().particles.mass[0];
  CHECK(session.state().particles.velocity[0].z() == Approx(-m * 9.81 / 0.5).epsilon(1e-12));
  CHECK(session.state().particles.position[0].z() == Approx(-m * 9.81 / 0.5 * 10e-3).epsilon(1e-12));
}

TEST_CASE("overdamped: a pressed sphere relaxes off a linear wall exponentially with gamma / k", "[overdamped]") {
  // Linear law against the floor: gamma d(delta)/dt = -k delta, delta(t) = delta0 exp(-k t / gamma).
  Preset p = bare_preset();
  p.box.z_min = SideKind::Wall;
  p.integrator.scheme = IntegratorScheme::OverdampedHeun;
  const double gamma = 2.0, kn = 1000.0, radius = 1e-3, delta0 = 1e-4;
  p.materials[0].kn = 2.0 * kn;  // a particle-wall pair is the material with itself in series: kn
  p.materials[0].friction = 0.0;
  p.environment.translational_damping = gamma;
  p.environment.rotational_damping = gamma;
  const double tau = gamma / kn;
  p.integrator.time_step = tau / 100;
  p.particles.particles = {sphere(Vec3(0, 0, -0.05 + radius - delta0), radius)};
  Session session(p);
  run_checked(session, 200);
  const double delta = radius - (session.state().particles.position[0].z() + 0.05);
  CHECK(delta == Approx(delta0 * std::exp(-2.0)).epsilon(1e-4));
}

TEST_CASE("overdamped needs both dampings: a clear error names the fields", "[overdamped]") {
  Preset p = rotor_preset(Rotor{}, 1e-3);
  p.environment.rotational_damping = 0.0;
  const PresetError e = session_refusal(p, "overdamped with no rotational damping");
  CHECK_THAT(e.what(), Catch::Contains("integrator.scheme") && Catch::Contains("rotational_damping"));
}
