// External field: libration of a rigid dipole ([PFC-dipole] eq. 5, [Dominik-Nubold] eqs. 40-41), the field
// programs against their closed forms, unit conversion B = mu0 H, the gradient force
// grad(m.B) = G^T m ([PFC-dipole] eq. 4) against finite differences of the Zeeman energy, and the
// work a time-varying field does on the moments.

#include "engine/magnetic/field.hpp"
#include "engine/scene/document.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

constexpr double kMagnetRadius = 0.5e-3;  // [m]
constexpr double kMoment = 5e-5;          // [A m^2]
constexpr double kAppliedField = 0.01;    // [T]

// One sphere at the origin, easy axis (and moment) in the x-z plane at `angle` from z, the field
// along z. Nothing else acts on it. `dt` is set explicitly.
Preset dipole_in_field(double angle, double dt) {
  Preset p = bare_preset();
  p.field.program = FieldProgram::Constant;
  p.field.strength = kAppliedField;
  p.field.direction = Vec3::UnitZ();
  p.integrator.time_step = dt;
  ParticleEntry e = sphere(Vec3::Zero(), kMagnetRadius);
  e.axis = Vec3(std::sin(angle), 0.0, std::cos(angle));
  e.moment = kMoment;
  p.particles.particles = {e};
  return p;
}

double inertia_of_sphere() {
  const double mass = Material{}.density * sphere_volume(kMagnetRadius);
  return 0.4 * mass * kMagnetRadius * kMagnetRadius;  // [Erokhin-Berkov]: I = 2/5 m R^2
}

// Signed angle of the moment from the field (z) in the x-z plane; the sphere turns about y.
double moment_angle(const Session& session) {
  const Vec3& m = session.state().particles.moment[0];
  return std::atan2(m.x(), m.z());
}

// Period from the upward zero crossings of the angle (linear interpolation between steps).
struct Libration {
  double period = 0.0;
  int crossings = 0;
  double max_energy_error = 0.0;  // max |E - E0| / (m B), E = rotational kinetic + Zeeman
};

Libration librate(Session& session, std::int64_t steps) {
  Libration l;
  const double dt = session.model().time_step;
  const double e0 = session.observe().kinetic_rotational + session.observe().zeeman;
  double first = -1.0, last = -1.0;
  double previous = moment_angle(session);
  for (std::int64_t n = 1; n <= steps; ++n) {
    run_checked(session, 1);
    const double angle = moment_angle(session);
    const Observables o = session.observe();
    l.max_energy_error =
        std::max(l.max_energy_error, std::abs(o.kinetic_rotational + o.zeeman - e0) / (kMoment * kAppliedField));
    if (previous < 0.0 && angle >= 0.0) {
      const double t = (static_cast<double>(n) - 1.0 + previous / (previous - angle)) * dt;
      if (first < 0.0) first = t;
      last = t;
      ++l.crossings;
    }
    previous = angle;
  }
  if (l.crossings >= 2) l.period = (last - first) / (l.crossings - 1);
  return l;
}

}  // namespace

TEST_CASE("a rigid dipole librates about the field at omega = sqrt(m B / I)", "[field]") {
  // Torque m x B ([PFC-dipole] eq. 5, [Dominik-Nubold] eq. 40) on a sphere of inertia I = 2/5 m R^2:
  // I theta'' = -m B sin(theta), a pendulum. Small amplitude: omega0 = sqrt(m B / I) ([Dominik-Nubold]
  // eq. 41 with mu* = m sin theta), and the period grows with the amplitude theta0 as
  // T = T0 (1 + theta0^2/16 + 11 theta0^4/3072 + ...). Large amplitude: T = 4 K(sin(theta0/2)) / omega0.
  const double inertia = inertia_of_sphere();
  const double omega0 = std::sqrt(kMoment * kAppliedField / inertia);
  const double t0 = 2.0 * pi / omega0;
  const double dt = t0 / 400.0;

  // Velocity Verlet does not keep the energy H = 1/2 I w^2 + V(theta), V = -m B cos(theta), but
  // the shadow H~ = H + dt^2 [w^2 V''/12 - V'^2/(24 I)] (kick-drift-kick splitting, error O(dt^4));
  // along the swing from rest at theta0 this gives E - E0 = -(m B)(omega0 dt)^2/24 [g(theta) -
  // g(theta0)], g = 5 cos^2 - 4 cos cos(theta0) - 1, largest at the bottom: 5 - 4 c0 - c0^2.
  auto predicted_energy_error = [](double theta0, double omega_dt) {
    const double c0 = std::cos(theta0);
    return omega_dt * omega_dt / 24.0 * (5.0 - 4.0 * c0 - c0 * c0);
  };
  const double omega_dt = omega0 * dt;

  SECTION("small amplitude: the period with its theta0^2/16 correction") {
    // theta0 = 0.1: the amplitude correction is 6.25e-4, the next term 11 theta0^4/3072 = 3.6e-7.
    // Velocity Verlet shortens the period by (omega dt)^2/24 = 1.03e-5 (sin(omega_h dt/2) =
    // omega dt/2). With both in the expectation what remains is O(theta0^2 (omega dt)^2) ~ 1e-7 and
    // the interpolation of the crossings (the angle is straight at a zero crossing): tolerance
    // 1e-6. Without the amplitude correction (6e-4) or with a wrong inertia the test fails.
    const double theta0 = 0.1;
    Session session(dipole_in_field(theta0, dt));
    REQUIRE(session.state().particles.inertia[0] == Approx(inertia).epsilon(1e-12));
    const Libration l = librate(session, 2400);  // six periods
    const double amplitude = 1.0 + theta0 * theta0 / 16.0 + 11.0 * std::pow(theta0, 4) / 3072.0;
    const double expected = t0 * amplitude * (1.0 - omega_dt * omega_dt / 24.0);
    std::printf(
        "[figure] libration period (theta0 = 0.1, dt = T0/400): measured %.7e s, T0 (1 + theta0^2/16 + ...) = "
        "%.7e s (relative error %.2e; %.2e after the Verlet term (omega dt)^2/24), T0 = %.7e s; energy "
        "error %.2e m B (predicted %.2e)\n",
        l.period, t0 * amplitude, l.period / (t0 * amplitude) - 1.0, l.period / expected - 1.0, t0, l.max_energy_error,
        predicted_energy_error(theta0, omega_dt));
    REQUIRE(l.crossings >= 5);
    CHECK(l.period == Approx(t0 * amplitude).epsilon(2e-5));  // (omega dt)^2/24 = 1e-5 apart
    CHECK(l.period == Approx(expected).epsilon(1e-6));
    CHECK(l.max_energy_error == Approx(predicted_energy_error(theta0, omega_dt)).epsilon(0.01));
    // The sphere turns about the y axis only: the torque m x B stays along y.
    const Vec3 w = session.state().particles.angular_velocity[0];
    CHECK(std::hypot(w.x(), w.z()) <= 1e-12 * omega0);
  }

  SECTION("large amplitude: elliptic-integral period and conserved energy") {
    // theta0 = 2.5 rad: T = 4 K(k)/omega0, k = sin(theta0/2), 1.64 T0. The energy error follows the
    // shadow-energy prediction above (7.8e-5 m B at the bottom of the swing; the O(dt^4) terms and
    // the sampling of the bottom at discrete steps are below 1e-3 of it: tolerance 1 %).
    const double theta0 = 2.5;
    Session session(dipole_in_field(theta0, dt));
    const Libration l = librate(session, 4000);
    const double expected = 4.0 * std::comp_ellint_1(std::sin(0.5 * theta0)) / omega0;
    std::printf(
        "[figure] libration at theta0 = 2.5 rad: period %.7e s vs 4 K(k)/omega0 = %.7e s (relative %.2e), "
        "energy error %.2e m B (predicted %.2e)\n",
        l.period, expected, l.period / expected - 1.0, l.max_energy_error, predicted_energy_error(theta0, omega_dt));
    REQUIRE(l.crossings >= 3);
    // Verlet's phase error is (omega dt)^2/24 ~ 1e-5 where the motion is fastest, less near the
    // turning points where it is slow: tolerance 2e-5.
    CHECK(l.period == Approx(expected).epsilon(2e-5));
    CHECK(l.max_energy_error == Approx(predicted_energy_error(theta0, omega_dt)).epsilon(0.01));
  }

  SECTION("rotational damping turns the moment into the field") {
    // I theta'' = -m B theta - R^2 gamma* theta' ([Erokhin-Berkov] eq. 6): the amplitude decays as
    // exp(-Gamma t), Gamma = R^2 gamma* / (2 I). Gamma = 0.2 omega0; after 10 T0 the small-angle
    // envelope is theta0 exp(-4 pi) (omega0 / omega_d) = 3.5e-6 theta0. From 2.5 rad (nearly
    // upside down) the pendulum first swings through large angles, then decays the same way.
    const double gamma_rot = 0.4 * omega0 * inertia / (kMagnetRadius * kMagnetRadius);
    for (double theta0 : {0.1, 2.5}) {
      Preset p = dipole_in_field(theta0, dt);
      p.environment.rotational_damping = gamma_rot;
      Session session(p);
      const double e0 = session.observe().energy_balance();
      run_checked(session, 4000);
      const double envelope = theta0 * std::exp(-0.2 * omega0 * session.state().time) / std::sqrt(1.0 - 0.04);
      const double angle = std::abs(moment_angle(session));
      INFO("theta0 = " << theta0 << ", final angle " << angle << ", envelope " << envelope);
      CHECK(angle < 1e-5);
      if (theta0 < 1.0) CHECK(angle <= 1.01 * envelope);
      // The loss is booked as viscous dissipation: the balance holds to O((omega dt)^2).
      const Observables o = session.observe();
      CHECK(o.dissipated_viscous > 0.0);
      CHECK(std::abs(o.energy_balance() - e0) < 1e-4 * o.dissipated_viscous);
    }
  }
}

TEST_CASE("field programs follow their closed forms", "[field]") {
  FieldParameters f;
  f.strength = 0.05;
  f.direction = Vec3(0.6, 0.0, 0.8);

  SECTION("constant") {
    f.program = FieldProgram::Constant;
    for (double t : {0.0, 0.37, 12.0}) {
      CHECK((uniform_field(f, t) - 0.05 * Vec3(0.6, 0.0, 0.8)).norm() < 1e-17);
      CHECK((field_direction(f, t) - Vec3(0.6, 0.0, 0.8)).norm() < 1e-15);
    }
  }

  SECTION("ramp: start_strength to strength over ramp_time, then constant") {
    f.program = FieldProgram::Ramp;
    f.start_strength = 0.02;
    f.ramp_time = 0.5;
    struct Point {
      double t, b;
    };
    // Linear in between: B(t) = B0 + (B1 - B0) t / t_ramp; held at B0 before and B1 after.
    for (const Point& q : {Point{-0.1, 0.02}, Point{0.0, 0.02}, Point{0.125, 0.0275}, Point{0.25, 0.035},
                           Point{0.5, 0.05}, Point{2.0, 0.05}}) {
      INFO("t = " << q.t);
      CHECK((uniform_field(f, q.t) - q.b * f.direction).norm() < 1e-15);
    }
    // A ramp down works the same way.
    f.start_strength = 0.08;
    CHECK(uniform_field(f, 0.25).norm() == Approx(0.065).epsilon(1e-14));
    // The direction while the field passes through zero stays the configured one.
    f.start_strength = 0.0;
    CHECK((field_direction(f, 0.0) - f.direction).norm() < 1e-15);
  }

  SECTION("rotating: Rodrigues rotation of the direction about the axis by 2 pi f t") {
    f.program = FieldProgram::Rotating;
    f.frequency = 3.0;
    // Axis z, direction x: B = |B| (cos 2 pi f t, sin 2 pi f t, 0).
    f.direction = Vec3::UnitX();
    f.rotation_axis = Vec3::UnitZ();
    for (double t : {0.0, 0.01, 0.0833, 0.2, 1.0 / 3.0 + 0.05}) {
      const double a = 2.0 * pi * 3.0 * t;
      INFO("t = " << t);
      CHECK((uniform_field(f, t) - 0.05 * Vec3(std::cos(a), std::sin(a), 0.0)).norm() < 1e-15);
    }
    // A tilted axis and a direction not perpendicular to it: the field sweeps a cone about the
    // axis. Independent reference: Eigen's angle-axis rotation.
    f.direction = Vec3(0.6, 0.0, 0.8);
    f.rotation_axis = Vec3(1.0, 1.0, 1.0).normalized();
    for (double t : {0.0, 0.02, 0.1, 0.29}) {
      const Vec3 expected = 0.05 * (Eigen::AngleAxisd(2.0 * pi * 3.0 * t, f.rotation_axis) * f.direction);
      INFO("t = " << t);
      CHECK((uniform_field(f, t) - expected).norm() < 1e-15);
      CHECK(uniform_field(f, t).dot(f.rotation_axis) == Approx(0.05 * f.direction.dot(f.rotation_axis)).epsilon(1e-13));
    }
    // One full period brings it back.
    CHECK((uniform_field(f, 1.0 / 3.0) - 0.05 * f.direction).norm() < 1e-15);
  }

  SECTION("oscillating: strength sin(2 pi f t + phase) along the direction") {
    f.program = FieldProgram::Oscillating;
    f.frequency = 50.0;
    f.phase = 0.4;
    for (double t : {0.0, 0.001, 0.0042, 0.013, 0.5}) {
      INFO("t = " << t);
      const double b = 0.05 * std::sin(2.0 * pi * 50.0 * t + 0.4);
      CHECK((uniform_field(f, t) - b * f.direction).norm() < 1e-15);
    }
  }

  SECTION("the simulation applies the program at the time of the force pass") {
    // A step moves time to t + dt before the forces are computed; the Zeeman energy after the step
    // is -m.B(t + dt) with the moment of the new orientation.
    Preset p = dipole_in_field(0.3, 1e-5);
    p.field.program = FieldProgram::Rotating;
    p.field.direction = Vec3::UnitZ();
    p.field.rotation_axis = Vec3::UnitX();
    p.field.frequency = 200.0;
    Session session(p);
    for (int n = 0; n < 5; ++n) {
      run_checked(session, 7);
      const double t = session.state().time;
      const Vec3 b = uniform_field(session.model().field, t);
      CHECK(session.observe().zeeman == Approx(-session.state().particles.moment[0].dot(b)).epsilon(1e-13));
      CHECK(b.z() == Approx(kAppliedField * std::cos(2.0 * pi * 200.0 * t)).margin(1e-15));
    }
  }
}

TEST_CASE("field strengths in Oe and kOe convert by B = mu0 H", "[field]") {
  // 1 Oe is H = 1000/(4 pi) A/m; B = mu0 H = 4 pi 1e-7 x 1000/(4 pi) T = 1e-4 T; 1 kOe -> 0.1 T.
  const double oersted = 1000.0 / (4.0 * pi);  // [A/m]
  struct Case {
    const char* text;
    double tesla;
  };
  for (const Case& c : {Case{"\"1 kOe\"", mu0 * 1000.0 * oersted}, Case{"\"40 kOe\"", mu0 * 40000.0 * oersted},
                        Case{"\"250 Oe\"", mu0 * 250.0 * oersted}, Case{"\"30 mT\"", 0.03}, Case{"0.2", 0.2}}) {
    const std::string text = std::string(R"({"version": 1, "field": {"program": "ramp", "strength": )") + c.text +
                             R"(, "start_strength": "1 kOe"}})";
    INFO(text);
    const Preset p = parse_preset(text, "test");
    CHECK(p.field.strength == Approx(c.tesla).epsilon(1e-12));
    CHECK(p.field.start_strength == Approx(0.1).epsilon(1e-12));
  }
  CHECK(mu0 * 1000.0 * oersted == Approx(0.1).epsilon(1e-14));
}

TEST_CASE("in a field gradient the force is grad(m.B) = G^T m and the torque m x B(x)", "[field]") {
  // B(x) = B0 + G (x - x0) with G symmetric and traceless (curl B = 0, div B = 0). Zeeman energy
  // U = -m.B(x) ([PFC-dipole] eq. 4 gives F = grad(m.B)); the torque is m x B at the particle's
  // position ([PFC-dipole] eq. 5). Independent check: central differences of observe().zeeman when
  // the particle is displaced or rotated. U is linear in x, so the difference quotient is exact up
  // to round-off (relative 1e-16 / h ~ 1e-10 of U / h); in the rotation angle it errs by a^2/6 ~ 2e-11.
  Mat3 g;
  g << 0.3, 0.1, -0.2,  //
      0.1, -0.5, 0.05,  //
      -0.2, 0.05, 0.2;  // [T/m]
  REQUIRE(std::abs(g.trace()) < 1e-15);
  Preset p = bare_preset();
  p.field.strength = 0.02;
  p.field.direction = Vec3(0.2, 0.3, 0.9).normalized();
  p.field.gradient = g;
  p.field.gradient_origin = Vec3(1e-3, 2e-3, -1e-3);
  const Vec3 x(3e-3, -1e-3, 2e-3);
  ParticleEntry e = sphere(x, kMagnetRadius);
  e.axis = Vec3(-0.5, 0.7, 0.3).normalized();
  e.moment = kMoment;
  p.particles.particles = {e};
  validate_preset(p);  // symmetric and traceless, as the preset checks require
  Session session(p);

  const Vec3 m = session.state().particles.moment[0];
  const Vec3 b = field_at(session.model().field, 0.0, x);
  const Vec3 force = session.state().particles.force[0];
  const Vec3 torque = session.state().particles.torque[0];
  // Closed forms.
  CHECK((force - g.transpose() * m).norm() <= 1e-14 * (g.transpose() * m).norm());
  CHECK((torque - m.cross(b)).norm() <= 1e-14 * m.norm() * b.norm());
  CHECK(session.observe().zeeman == Approx(-m.dot(b)).epsilon(1e-14));

  // Finite differences of the Zeeman energy.
  auto zeeman_at = [&](const Vec3& position, const Quat& orientation) {
    Session moved(p);
    moved.edit_state().particles.position[0] = position;
    moved.edit_state().particles.orientation[0] = orientation;
    moved.reinitialize();
    return moved.observe().zeeman;
  };
  const Quat q = session.state().particles.orientation[0];
  const double h = 1e-6, a = 1e-5;
  for (int k = 0; k < 3; ++k) {
    const Vec3 e_k = Vec3::Unit(k);
    const double f_fd = -(zeeman_at(x + h * e_k, q) - zeeman_at(x - h * e_k, q)) / (2.0 * h);
    const double t_fd = -(zeeman_at(x, rotate_by(q, a * e_k)) - zeeman_at(x, rotate_by(q, -a * e_k))) / (2.0 * a);
    INFO("axis " << k);
    CHECK(force[k] == Approx(f_fd).margin(1e-8 * force.norm()));
    CHECK(torque[k] == Approx(t_fd).margin(1e-8 * torque.norm()));
  }
  // The gradient force is not small here: compare it with the torque over the lever R.
  CHECK(force.norm() * kMagnetRadius > 1e-3 * torque.norm());
}

TEST_CASE("a ramped field does work on a free dipole: kinetic + Zeeman - field work is constant", "[field]") {
  // With B(t) uniform and time-dependent, dE/dt = dU/dt|_explicit = -m.dB/dt: the field does work
  // W = -int m.dB on the moment; E - W is constant. The engine books W with the trapezoid in m, so
  // the balance errs by O(dt^2). Ramp 2 -> 20 mT over 5 small-amplitude periods of the final
  // field, starting at 0.3 rad: the moment stays near the field, so -m dB lies between
  // -|m| dB and -|m| cos(theta_max) dB, and the adiabatic invariant E/omega (theta^2 sqrt(B) const)
  // keeps theta below theta0: -|m| dB <= W <= -|m| cos(theta0) dB.
  const double inertia = inertia_of_sphere();
  const double b0 = 0.002, b1 = 0.02, theta0 = 0.3;
  const double omega1 = std::sqrt(kMoment * b1 / inertia);
  const double ramp_time = 5.0 * 2.0 * pi / omega1;
  auto run = [&](double dt, double& balance_error, double& work, double& work_after_ramp) {
    Preset p = dipole_in_field(theta0, dt);
    p.field.program = FieldProgram::Ramp;
    p.field.start_strength = b0;
    p.field.strength = b1;
    p.field.ramp_time = ramp_time;
    Session session(p);
    const double e0 = session.observe().energy_balance();
    const auto steps = static_cast<std::int64_t>(std::ceil(ramp_time / dt));
    balance_error = run_tracking_balance(session, steps, e0);
    work = session.observe().field_work;
    run_checked(session, steps / 5);  // the field is constant now: no more work
    work_after_ramp = session.observe().field_work;
    balance_error = std::max(balance_error, std::abs(session.observe().energy_balance() - e0));
  };
  const double dt = 2.0 * pi / omega1 / 200.0;
  double error, work, work_after, error_half, work_half, work_after_half;
  run(dt, error, work, work_after);
  run(0.5 * dt, error_half, work_half, work_after_half);
  const double full = kMoment * (b1 - b0);
  std::printf(
      "[figure] ramped field: field work %.4e J (|m| dB = %.4e J), balance error %.2e of |W| at dt, %.2e at dt/2 "
      "(ratio %.2f)\n",
      work, full, error / std::abs(work), error_half / std::abs(work), error / error_half);
  CHECK(work <= -full * std::cos(theta0));
  CHECK(work >= -full);
  CHECK(work_after == work);  // constant field after the ramp: nothing booked
  // Error ~ (omega dt)^2 = 1e-3 of the energy exchanged; second order: halving dt divides it by 4.
  CHECK(error < 1e-3 * std::abs(work));
  CHECK(error / error_half == Approx(4.0).epsilon(0.25));
}
