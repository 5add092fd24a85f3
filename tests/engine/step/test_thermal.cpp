// Brownian motion (environment.temperature, engine/step/thermal.hpp): the counter-based generator against
// its reference vectors; equipartition under velocity Verlet; free translational and rotational
// diffusion under the overdamped scheme; the energy books with noise; determinism (same seed, same
// run; T = 0 draws nothing); refusals; [Dominik-Nubold]'s lambda and R_m (eqs. 1-2).
//
// Statistical tolerances are 4 standard errors of the estimate, worked out in each test from the
// sample size and the correlation time of what is averaged (a 4-sigma miss has probability 6e-5 for
// a correct engine; every run uses fixed seeds, so a test either always passes or always fails).

#include "engine/core/random.hpp"
#include "engine/step/thermal.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

constexpr double kColloidRadius = 1e-6;     // [m]
constexpr double kColloidDensity = 2000.0;  // [kg/m^3]
constexpr double kViscosity = 1e-3;         // [Pa s] water
constexpr double kTemperature = 300;        // [K]

// Free spheres of 1 um radius on a simple cubic lattice 40 um apart in an open box: at the
// displacements of these runs (nanometres to a few tenths of a micron) nothing ever touches, so every
// sphere is an independent sample. Stokes drag gamma = 6 pi eta R; the rotational damping is given
// per test (R^2 gamma* is the rotational drag, 8 pi eta R^3 for a sphere in water: gamma* = 8 pi eta R).
Preset free_spheres(int per_side, IntegratorScheme scheme, double time_step, double rotational_damping) {
  Preset p = bare_preset();
  p.materials[0].density = kColloidDensity;
  p.environment.translational_damping = 6.0 * pi * kViscosity * kColloidRadius;
  p.environment.rotational_damping = rotational_damping;
  p.environment.temperature = kTemperature;
  p.integrator.scheme = scheme;
  p.integrator.time_step = time_step;
  p.particles.kind = GeneratorKind::Lattice;
  p.particles.count = per_side * per_side * per_side;
  p.particles.diameter = 2.0 * kColloidRadius;
  p.particles.spacing = 40e-6;
  p.particles.region = Region{Vec3::Zero(), Vec3::Constant(per_side * 40e-6)};
  p.particles.orientation = OrientationKind::Random;
  p.particles.seed = 11;
  return p;
}

double sphere_mass() {
  return kColloidDensity * sphere_volume(kColloidRadius);
}

}  // namespace

TEST_CASE("Philox4x32-10 reproduces the Random123 known-answer vectors", "[thermal]") {
  // tests/kat_vectors of Random123 (D. E. Shaw Research): counter, key, expected output.
  CHECK(philox4x32_10({0, 0, 0, 0}, {0, 0}) == PhiloxWords{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}) ==
        PhiloxWords{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}) ==
        PhiloxWords{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("thermal normals are standard normal and a pure function of (seed, step, id)", "[thermal]") {
  // 6 x 200 x 500 = 600 000 numbers: the mean has standard error 1/sqrt(n) = 0.0013, the variance
  // sqrt(2/n) = 0.0018, the fourth moment (3) sqrt(96/n) = 0.013; the lag-one products of the same
  // component at successive steps have standard error 1/sqrt(n/6) = 0.0032.
  double sum = 0, sum2 = 0, sum4 = 0, lag = 0;
  long long n = 0, n_lag = 0;
  for (std::uint64_t id = 0; id < 500; ++id) {
    Vec3 previous = Vec3::Zero();
    for (std::int64_t step = 0; step < 200; ++step) {
      const ThermalNormals xi = thermal_normals(42, step, id);
      for (int c = 0; c < 3; ++c)
        for (double x : {xi.translation[c], xi.rotation[c]}) {
          sum += x, sum2 += x * x, sum4 += x * x * x * x;
          ++n;
        }
      if (step > 0) {
        lag += xi.translation.dot(previous);
        n_lag += 3;
      }
      previous = xi.translation;
    }
  }
  CHECK(std::abs(sum / n) < 4 * 0.0013);
  CHECK(std::abs(sum2 / n - 1.0) < 4 * 0.0018);
  CHECK(std::abs(sum4 / n - 3.0) < 4 * 0.013);
  CHECK(std::abs(lag / n_lag) < 4 * 0.0032);
  // The same arguments give the same numbers; any other seed, step or id others.
  const ThermalNormals a = thermal_normals(42, 7, 3);
  CHECK(thermal_normals(42, 7, 3).translation == a.translation);
  CHECK(thermal_normals(42, 7, 3).rotation == a.rotation);
  CHECK(thermal_normals(43, 7, 3).translation != a.translation);
  CHECK(thermal_normals(42, 8, 3).translation != a.translation);
  CHECK(thermal_normals(42, 7, 4).translation != a.translation);
  CHECK(thermal_normals(42, 7, 3 + (std::uint64_t{1} << 32)).translation != a.translation);
}

TEST_CASE("velocity Verlet at temperature T: free spheres reach 1/2 m v^2 = 1/2 I w^2 = 3/2 kT", "[thermal]") {
  // gamma = 6 pi eta R, rotational drag 8 pi eta R^3 (Stokes): relaxation times tau = m / gamma = 0.44 us,
  // tau_r = I / (R^2 gamma*) = 0.13 us; the step is 0.0225 tau.
  const int per_side = 8;
  const double dt = 1e-8;
  Preset preset = free_spheres(per_side, IntegratorScheme::VelocityVerlet, dt, 8.0 * pi * kViscosity * kColloidRadius);
  const double kT = boltzmann * kTemperature;
  const double m = sphere_mass();
  preset.particles.velocity_spread = std::sqrt(kT / m);  // translation starts in equilibrium
  Session session(preset);
  const double gamma = preset.environment.translational_damping;
  const double tau = m / gamma;
  const double tau_r = 0.4 * m * kColloidRadius * kColloidRadius /
                       (kColloidRadius * kColloidRadius * preset.environment.rotational_damping);
  REQUIRE(tau == Approx(4.44e-7).epsilon(0.01));
  REQUIRE(tau_r == Approx(1.33e-7).epsilon(0.01));

  run_checked(session, 300);  // 23 tau_r: the spins (started at rest) have relaxed to e^-46
  const int samples = 20000;  // 450 tau
  double translational = 0.0, rotational = 0.0;
  for (int s = 0; s < samples; ++s) {
    run_checked(session, 1);
    const Particles& p = session.state().particles;
    for (size_t i = 0; i < p.size(); ++i) {
      translational += 0.5 * p.mass[i] * p.velocity[i].squaredNorm();
      rotational += 0.5 * p.inertia[i] * p.angular_velocity[i].squaredNorm();
    }
  }
  const double n = per_side * per_side * per_side;
  translational /= n * samples;
  rotational /= n * samples;
  // For a free sphere this scheme's end-of-step velocity has exactly the Maxwell variance kT / m at any
  // step (u_half relaxes as (1 - c) with c = gamma dt / m; v = (1 - c/2) u_half + R dt / 2m), so the only
  // error is statistical. The kinetic energy of one sphere (3 components) has variance 3/2 (kT)^2 and
  // decorrelates as exp(-2 t / tau), so a time average over T is worth T / tau independent samples:
  // relative standard error sqrt(2 tau / (3 N T)) = 0.17 % (translation), 0.09 % (rotation).
  const double run = samples * dt;
  const double error_t = std::sqrt(2.0 * tau / (3.0 * n * run));
  const double error_r = std::sqrt(2.0 * tau_r / (3.0 * n * run));
  INFO("<1/2 m v^2> / (3/2 kT) = " << translational / (1.5 * kT) << ", standard error " << error_t);
  INFO("<1/2 I w^2> / (3/2 kT) = " << rotational / (1.5 * kT) << ", standard error " << error_r);
  CHECK(translational / (1.5 * kT) == Approx(1.0).margin(4.0 * error_t));
  CHECK(rotational / (1.5 * kT) == Approx(1.0).margin(4.0 * error_r));
}

TEST_CASE("overdamped free spheres diffuse: <dx^2> = 6 D t, D = kT / gamma, and <n(t).n(0)> = exp(-2 D_r t)",
          "[thermal]") {
  // D = kT / (6 pi eta R) = 2.2e-13 m^2/s; a rotational drag R^2 gamma* = kT / D_r chosen for D_r = 5 /s, so
  // that 2 D_r dt = 0.01 at dt = 1 ms (a step moves 0.02 R and turns 0.1 rad rms per axis).
  const int per_side = 10;
  const double dt = 1e-3, kT = boltzmann * kTemperature, d_r = 5.0;
  const Preset preset =
      free_spheres(per_side, IntegratorScheme::OverdampedHeun, dt, kT / (d_r * kColloidRadius * kColloidRadius));
  Session session(preset);
  const double d = kT / preset.environment.translational_damping;
  REQUIRE(d == Approx(2.197e-13).epsilon(1e-3));
  const size_t n = session.state().particles.size();
  REQUIRE(n == 1000);

  // Windows of 200 steps (2 D_r t = 2); squared displacements per step and per window, axis correlations at
  // 50, 100 and 200 steps from the start of each window.
  const int windows = 20, lags[] = {50, 100, 200};
  double step_sq = 0.0, window_sq = 0.0, correlation[3] = {0, 0, 0};
  for (int w = 0; w < windows; ++w) {
    const std::vector<Vec3> x0 = session.state().particles.position;
    std::vector<Vec3> n0(n);
    for (size_t i = 0; i < n; ++i) n0[i] = session.state().particles.easy_axis(i);
    for (int k = 1; k <= 200; ++k) {
      const std::vector<Vec3> before = session.state().particles.position;
      run_checked(session, 1);
      const Particles& p = session.state().particles;
      for (size_t i = 0; i < n; ++i) step_sq += (p.position[i] - before[i]).squaredNorm();
      for (int l = 0; l < 3; ++l)
        if (k == lags[l])
          for (size_t i = 0; i < n; ++i) correlation[l] += p.easy_axis(i).dot(n0[i]);
    }
    for (size_t i = 0; i < n; ++i) window_sq += (session.state().particles.position[i] - x0[i]).squaredNorm();
  }
  const double samples = static_cast<double>(n) * windows;
  // |dx|^2 over a time t is 2 D t chi^2_3: relative standard deviation sqrt(2/3) per sample, and the steps
  // are independent. No drift term: the forces are zero, so Heun's step is exactly sqrt(2 D dt) xi.
  const double step_mean = step_sq / (samples * 200), window_mean = window_sq / samples;
  const double error_step = std::sqrt(2.0 / 3.0 / (samples * 200)), error_window = std::sqrt(2.0 / 3.0 / samples);
  INFO("per step: <dx^2> / (6 D dt) = " << step_mean / (6 * d * dt) << ", standard error " << error_step);
  INFO("per 200 steps: <dx^2> / (6 D t) = " << window_mean / (6 * d * 200 * dt) << ", standard error " << error_window);
  CHECK(step_mean / (6.0 * d * dt) == Approx(1.0).margin(4.0 * error_step));
  CHECK(window_mean / (6.0 * d * 200 * dt) == Approx(1.0).margin(4.0 * error_window));

  // Rotational diffusion: an axis turned by Gaussian rotation vectors keeps <n(t).n(0)> = exp(-2 D_r t). Each
  // step multiplies it exactly by 1/3 + 2/3 (1 - s) exp(-s/2), s = 2 D_r dt, which differs from exp(-s) by
  // s^2/12: over 200 steps 0.2 % of the value, far below the statistical error. n(t).n(0) = cos(angle) has
  // variance (1 + 2 exp(-6 D_r t))/3 - exp(-4 D_r t) (from <P2(cos)> = exp(-6 D_r t)); the windows
  // are independent (the motion is Markov and isotropic).
  for (int l = 0; l < 3; ++l) {
    const double t = lags[l] * dt;
    const double expected = std::exp(-2.0 * d_r * t);
    const double variance = (1.0 + 2.0 * std::exp(-6.0 * d_r * t)) / 3.0 - expected * expected;
    const double error = std::sqrt(variance / samples);
    const double measured = correlation[l] / samples;
    INFO("2 D_r t = " << 2 * d_r * t << ": <n(t).n(0)> = " << measured << ", exp(-2 D_r t) = " << expected
                      << ", standard error " << error);
    CHECK(measured == Approx(expected).margin(4.0 * error));
  }
}

TEST_CASE("Brownian rigid dipoles in a field align as <cos theta> = L(x) = coth x - 1/x, x = m B / kT", "[thermal]") {
  // Langevin paramagnetism, the single-grain case of [Dominik-Nubold]'s contest between thermal agitation and
  // magnetic energy: at equilibrium the moments of free rigid dipoles (dipole-dipole forces off) are
  // Boltzmann-distributed about the field, exp(x cos theta), so <cos theta> = coth x - 1/x = 0.5373 at x = 2.
  // Overdamped, D_r = 5 /s, 2 D_r dt = 0.01 (the field turns a grain by at most x D_r dt = 0.01 rad per step).
  const double dt = 1e-3, kT = boltzmann * kTemperature, d_r = 5.0, x = 2.0, b = 1e-3;
  Preset preset = free_spheres(10, IntegratorScheme::OverdampedHeun, dt, kT / (d_r * kColloidRadius * kColloidRadius));
  preset.materials[0].magnetization = x * kT / (b * sphere_volume(kColloidRadius));
  preset.field.strength = b;  // along z
  Session session(preset);
  run_checked(session, 500);  // 2 D_r t = 5 from the uniform start: relaxed to e^-5 or better
  const int steps = 3000;
  double sum = 0.0;
  for (int s = 0; s < steps; ++s) {
    run_checked(session, 1);
    for (const Vec3& m : session.state().particles.moment) sum += m.z() / m.norm();
  }
  const double n = static_cast<double>(session.state().particles.size());
  const double measured = sum / (n * steps), expected = 1.0 / std::tanh(x) - 1.0 / x;
  // Variance of cos theta: <cos^2> - L^2 = 1 - 2 L / x - L^2 = 0.174. Its correlation time is at most the
  // field-free 1/(2 D_r) (the field stiffens the restoring torque), so 3 s of run are worth at least
  // N T 2 D_r / 2 = N T D_r = 15 000 independent samples: standard error <= sqrt(0.174 / 15 000) = 0.0034.
  const double error = std::sqrt((1.0 - 2.0 * expected / x - expected * expected) / (n * steps * dt * d_r));
  INFO("<cos theta> = " << measured << ", L(2) = " << expected << ", standard error " << error);
  CHECK(measured == Approx(expected).margin(4.0 * error));
}

TEST_CASE("with noise the energy balance books the bath's heat: it changes only by dt^2/8 (F^2/m + T^2/I)",
          "[thermal]") {
  // Velocity Verlet gives, step by step, dK = 1/2 dt (F_old + F_new).v_half + dt^2/(8m) (F_new^2 - F_old^2).
  // The engine books the first term (damping and Langevin force together: the heat given to the bath) in
  // dissipated_viscous, so for free spheres energy_balance - its start value is exactly the telescoped
  // second term, bounded (about 3/4 gamma dt / m kT per sphere) and not growing.
  const double dt = 1e-8;
  Preset preset = free_spheres(4, IntegratorScheme::VelocityVerlet, dt, 8.0 * pi * kViscosity * kColloidRadius);
  Session session(preset);
  auto force_term = [&]() {
    const Particles& p = session.state().particles;
    double sum = 0.0;
    for (size_t i = 0; i < p.size(); ++i)
      sum += p.force[i].squaredNorm() / (8.0 * p.mass[i]) + p.torque[i].squaredNorm() / (8.0 * p.inertia[i]);
    return sum * dt * dt;
  };
  const double balance0 = session.observe().energy_balance(), term0 = force_term();
  run_checked(session, 5000);
  const Observables o = session.observe();
  const double kT = boltzmann * kTemperature;
  INFO("kinetic " << o.kinetic() / (64 * kT) << " kT per sphere, heat to the bath " << o.dissipated_viscous / kT
                  << " kT");
  CHECK(o.kinetic() > 64 * kT);            // the spheres have heated up from rest (equilibrium: 3 kT each) ...
  CHECK(o.dissipated_viscous < -64 * kT);  // ... with heat from the bath
  // In units of kT: the kinetic energy is about 190 kT, the heat exchanged about as much.
  const double change = (o.energy_balance() - balance0) / kT, telescoped = (force_term() - term0) / kT;
  CHECK(change == Approx(telescoped).margin(1e-9));
  CHECK(std::abs(change) < 0.1 * o.kinetic() / kT);
}

TEST_CASE("the same seed gives the same Brownian trajectory, another seed another, and T = 0 draws nothing",
          "[thermal]") {
  const double gamma_rot = 8.0 * pi * kViscosity * kColloidRadius;
  for (IntegratorScheme scheme : {IntegratorScheme::VelocityVerlet, IntegratorScheme::OverdampedHeun}) {
    const double dt = scheme == IntegratorScheme::VelocityVerlet ? 1e-8 : 1e-4;
    Preset preset = free_spheres(3, scheme, dt, gamma_rot);
    preset.particles.orientation = OrientationKind::Aligned;  // the lattice no longer depends on the seed
    Preset other_seed = preset;
    other_seed.particles.seed = 12;
    Session a(preset), b(preset), c(other_seed);
    REQUIRE(same_trajectory(a.state(), c.state()));  // the same start
    run_checked(a, 200);
    run_checked(b, 200);
    run_checked(c, 200);
    CHECK(same_trajectory(a.state(), b.state()));
    CHECK_FALSE(same_trajectory(a.state(), c.state()));

    // At T = 0 the seed changes nothing: no noise is drawn.
    preset.environment.temperature = 0.0;
    other_seed.environment.temperature = 0.0;
    Session cold(preset), cold_other(other_seed);
    run_checked(cold, 200);
    run_checked(cold_other, 200);
    CHECK(same_trajectory(cold.state(), cold_other.state()));
    CHECK(cold.state().particles.position == Session(preset).state().particles.position);  // at rest
  }
}

TEST_CASE("a temperature needs both dampings and takes kelvin", "[thermal][preset]") {
  Preset preset = free_spheres(2, IntegratorScheme::VelocityVerlet, 1e-8, 1e-8);
  preset.environment.rotational_damping = 0.0;
  CHECK_THROWS_WITH(Session(preset), Catch::StartsWith("$.environment.temperature: T = 300 K needs") &&
                                         Catch::Contains("rotational_damping > 0"));
  preset.environment.rotational_damping = 1e-8;
  preset.environment.translational_damping = 0.0;
  CHECK_THROWS_WITH(Session(preset), Catch::Contains("$.environment.temperature"));
  preset.environment.temperature = 0.0;  // without noise no damping is needed
  CHECK_NOTHROW(Session(preset));

  json j = preset_to_json(preset);
  j["environment"]["temperature"] = "77 K";
  CHECK(preset_from_json(j).environment.temperature == 77.0);
  j["environment"]["temperature"] = -1.0;
  CHECK_THROWS_WITH(preset_from_json(j), Catch::Contains("$.environment.temperature"));
  j["environment"]["temperature"] = "20 C";
  CHECK_THROWS_WITH(preset_from_json(j), Catch::Contains("$.environment.temperature"));
}

TEST_CASE("Dominik-Nubold eqs. 1-2: lambda = mu0 mu^2 / (4 pi d^3 kT) and R_m = 2 d lambda^(1/3)", "[thermal]") {
  // [Dominik-Nubold] Fig. 2's grains: iron spheres of 20 nm diameter carrying 200 A m^2/kg, at 100 K. By hand:
  // m = 7870 kg/m^3 x 4.19e-24 m^3 = 3.30e-20 kg, mu = 6.59e-18 A m^2, kT = 1.38e-21 J,
  // lambda = 1e-7 x 4.347e-35 / (8e-24 x 1.3806e-21) = 393.6, R_m = 2 x 20 nm x 393.6^(1/3) = 293.1 nm = 29 R
  // (the seed: "about 10 to 100 times larger than the actual particle radius").
  const double radius = 10e-9, density = 7870.0;
  const double moment = 200.0 * density * sphere_volume(radius);
  Preset preset = bare_preset();
  preset.environment.translational_damping = 1e-12;
  preset.environment.rotational_damping = 1e-12;
  preset.environment.temperature = 100.0;
  preset.materials[0].density = density;
  for (int k = 0; k < 2; ++k) {
    ParticleEntry e = sphere(Vec3(k * 1e-6, 0, 0), radius);
    e.moment = moment;
    preset.particles.particles.push_back(e);
  }
  preset.integrator.time_step = 1e-12;
  Session session(preset);
  const ThermalCoupling c = thermal_coupling(session.model(), session.state().particles);
  REQUIRE(c.defined);
  CHECK(c.magnetic_particles == 2);
  CHECK(c.moment == Approx(6.593e-18).epsilon(1e-3));
  CHECK(c.diameter == Approx(20e-9));
  CHECK(c.lambda == Approx(393.6).epsilon(1e-3));
  CHECK(c.interaction_radius == Approx(293.1e-9).epsilon(1e-3));
  CHECK(c.interaction_radius == Approx(2.0 * c.diameter * std::cbrt(c.lambda)).epsilon(1e-12));  // eq. 2, both forms
  CHECK(c.interaction_radius / radius == Approx(29.31).epsilon(1e-3));

  preset.environment.temperature = 0.0;  // not defined without temperature ...
  CHECK_FALSE(thermal_coupling(make_model(preset), session.state().particles).defined);
  Particles plain = session.state().particles;  // ... or without moments
  for (Vec3& m : plain.moment) m.setZero();
  CHECK_FALSE(thermal_coupling(session.model(), plain).defined);
}
