// The capture experiment of [Dominik-Nubold] Sec. 3.1 and 4.1 (app/runner/capture.hpp): the closed forms against
// the derivation from eq. 10 done by hand, shots whose outcome is certain (head-on with the moments
// head to tail; far beyond b_max), determinism, and the cross section integral on known profiles.

#include "app/runner/capture.hpp"
#include "engine/step/thermal.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace lodestone;

namespace {

// U_eff of eq. 10.
double effective_potential(double alpha, double mbar, double b, double v, double r) {
  return mbar * b * b * v * v / (2.0 * r * r) - alpha / (r * r * r);
}

}  // namespace

TEST_CASE("capture: b_max from the barrier of eq. 10, b_max^2 = 3 (alpha / (mbar v^2))^(2/3)", "[capture]") {
  const CaptureGrains g;  // [Dominik-Nubold] Fig. 2: 20 nm iron, 200 A m^2/kg, 100 K
  const double alpha = g.alpha(), mbar = g.reduced_mass();
  REQUIRE(alpha == Approx(1e-7 * 2.0 * g.moment() * g.moment()).epsilon(1e-14));  // eq. 7
  REQUIRE(mbar == Approx(0.5 * g.mass()).epsilon(1e-14));                         // eq. 8, identical grains
  for (double v_over_vth : {0.3, 1.0, 3.0}) {
    const double v = v_over_vth * g.thermal_speed();
    const double x = alpha / (mbar * v * v);  // [m^3]
    const double b_max = g.b_max(v);
    INFO("v = " << v_over_vth << " v_th");
    CHECK(b_max * b_max == Approx(3.0 * std::pow(x, 2.0 / 3.0)).epsilon(1e-12));
    CHECK(capture_cross_section(alpha, mbar, v) == Approx(3.0 * pi * std::pow(x, 2.0 / 3.0)).epsilon(1e-12));  // eq. 14
    // At b_max the barrier (eq. 11) is exactly the kinetic energy (eq. 12) ...
    CHECK(capture_barrier_height(alpha, mbar, b_max, v) == Approx(0.5 * mbar * v * v).epsilon(1e-12));
    // ... and it is the maximum of U_eff, at r* = 3 alpha / (mbar b^2 v^2) = b_max / sqrt(3).
    const double r_star = capture_barrier_radius(alpha, mbar, b_max, v);
    CHECK(r_star == Approx(b_max / std::sqrt(3.0)).epsilon(1e-12));
    const double u0 = effective_potential(alpha, mbar, b_max, v, r_star);
    CHECK(u0 == Approx(capture_barrier_height(alpha, mbar, b_max, v)).epsilon(1e-12));
    for (double f : {0.9, 0.99, 1.01, 1.1}) CHECK(effective_potential(alpha, mbar, b_max, v, f * r_star) < u0);
    // Eq. 13 as printed, 3 (alpha / (mbar v^2))^(2/3), is an area: it is b_max^2, not b_max.
    CHECK(3.0 * std::pow(x, 2.0 / 3.0) == Approx(b_max * b_max).epsilon(1e-12));
  }
  // Fig. 2's caption: b_max is about 250 R at v_th / 16; the square root of eq. 13 gives 256 R.
  CHECK(g.b_max(g.thermal_speed() / 16.0) / g.radius() == Approx(256.0).epsilon(0.01));
  // Eq. 2: R_m = 2 d lambda^(1/3) (docs/physics.md: lambda = 394, R_m = 293 nm for these grains).
  CHECK(magnetic_interaction_radius(g.moment(), g.temperature) ==
        Approx(2.0 * g.diameter * std::cbrt(g.lambda())).epsilon(1e-12));
  CHECK(g.lambda() == Approx(394.0).epsilon(0.002));
  CHECK(magnetic_interaction_radius(g.moment(), g.temperature) == Approx(293.2e-9).epsilon(0.001));
}

TEST_CASE("capture: a head-on shot with the moments head to tail always collides", "[capture]") {
  const CaptureGrains g;
  for (double v_over_vth : {0.3, 1.0, 3.0}) {
    Shot shot;
    shot.speed = v_over_vth * g.thermal_speed();
    shot.impact_parameter = 0.0;
    shot.start_distance = 3.0 * g.b_max(shot.speed);
    shot.spin = SpinStart::None;
    shot.target_moment = Vec3::UnitX();  // along the line of approach, the same way: attract from the start
    shot.projectile_moment = Vec3::UnitX();
    const ShotResult r = run_shot(g, shot);
    INFO("v = " << v_over_vth << " v_th: " << shot_outcome_name(r.outcome) << " " << r.message);
    CHECK(r.outcome == ShotOutcome::Collision);
    CHECK(r.closest_gap <= 0.0);
    CHECK(r.closest_gap > -0.1 * g.radius());  // stopped at the first touch, not deep inside
  }
}

TEST_CASE("capture: far beyond b_max at high speed no shot collides", "[capture]") {
  const CaptureGrains g;
  const double v = 3.0 * g.thermal_speed();
  Shot shot;
  shot.speed = v;
  shot.impact_parameter = 2.0 * g.b_max(v);
  shot.start_distance = 3.0 * g.b_max(v);
  shot.spin = SpinStart::None;
  SECTION("moments fixed perpendicular to each other and to the approach") {
    shot.target_moment = Vec3::UnitZ();
    shot.projectile_moment = Vec3::UnitY();
    const ShotResult r = run_shot(g, shot);
    CHECK(r.outcome == ShotOutcome::Escape);
    CHECK(r.closest_gap > 10.0 * g.diameter);
    CHECK(r.energy_error < 1e-3);  // the step control keeps the energy
  }
  SECTION("random orientations, with and without thermal spins") {
    for (SpinStart spin : {SpinStart::None, SpinStart::Thermal})
      for (int run = 0; run < 8; ++run) {
        shot.spin = spin;
        shot.seed = shot_seed(7, run);
        const ShotResult r = run_shot(g, shot);
        INFO("run " << run << ": " << shot_outcome_name(r.outcome));
        CHECK(r.outcome == ShotOutcome::Escape);
        CHECK(r.energy_error < 1e-3);
      }
  }
}

TEST_CASE("capture: shots are deterministic and seeds differ between repetitions", "[capture]") {
  const CaptureGrains g;
  Shot shot;
  shot.speed = g.thermal_speed();
  shot.impact_parameter = 0.5 * g.b_max(shot.speed);
  shot.start_distance = 3.0 * g.b_max(shot.speed);
  shot.seed = shot_seed(1, 3);
  const ShotResult a = run_shot(g, shot), b = run_shot(g, shot);
  CHECK(a.outcome == b.outcome);
  CHECK(a.steps == b.steps);
  CHECK(a.time == b.time);
  CHECK(a.closest_gap == b.closest_gap);
  CHECK(shot_seed(1, 0) != shot_seed(1, 1));
  CHECK(shot_seed(1, 0) != shot_seed(2, 0));
}

TEST_CASE("capture: bad shots are refused, not run", "[capture]") {
  const CaptureGrains g;
  Shot shot;
  shot.speed = 0.0;
  shot.start_distance = 1e-6;
  CHECK(run_shot(g, shot).outcome == ShotOutcome::Failed);
  shot.speed = 1.0;
  shot.start_distance = 0.5 * g.diameter;  // starts overlapping
  CHECK(run_shot(g, shot).outcome == ShotOutcome::Failed);
}

TEST_CASE("capture: sigma = 2 pi int P b db on known profiles", "[capture]") {
  SECTION("P = 1 up to B, then 0: a disc, with R_w = B") {
    std::vector<double> b, p;
    for (int k = 0; k <= 20; ++k) {
      b.push_back(0.1 * k);
      p.push_back(k <= 10 ? 1.0 : 0.0);
    }
    const CrossSectionEstimate e = estimate_cross_section(b, p);
    // Linear between 1 at b = 1 and 0 at b = 1.1: pi 1^2 + 2 pi int_1^1.1 (1.1 - b)/0.1 b db.
    const double ramp = 2.0 * pi * (0.1 / 6.0) * (2.0 * 1.0 + 1.1);
    CHECK(e.sigma == Approx(pi + ramp).epsilon(1e-12));
    CHECK(e.white_radius == Approx(1.0));
    CHECK(e.half_radius == Approx(1.05));
    CHECK_FALSE(e.tail_open);
  }
  SECTION("P linear from 1 to 0 over [0, B]: sigma = pi B^2 / 3, exact on any grid") {
    std::vector<double> b{0.0, 0.3, 0.35, 1.0, 2.0}, p;
    for (double x : b) p.push_back(std::max(0.0, 1.0 - x));
    const CrossSectionEstimate e = estimate_cross_section(b, p);
    CHECK(e.sigma == Approx(pi / 3.0).epsilon(1e-12));
    CHECK(e.white_radius == 0.0);
    CHECK(e.half_radius == Approx(0.5));
  }
  SECTION("P still positive at the last b: flagged") {
    const CrossSectionEstimate e = estimate_cross_section({0.0, 1.0}, {1.0, 0.5});
    CHECK(e.tail_open);
  }
}

TEST_CASE("capture: the weights of the sigma integral and its error from the repetitions", "[capture]") {
  const std::vector<double> b{0.5, 1.0, 1.5, 3.0};
  const std::vector<double> w = cross_section_weights(b);
  REQUIRE(w.size() == b.size());
  double total = 0.0;
  for (double x : w) total += x;
  CHECK(total == Approx(pi * 3.0 * 3.0).epsilon(1e-12));  // P = 1 everywhere: the disc out to the last b
  const std::vector<double> p{1.0, 0.7, 0.2, 0.0};
  double weighted = 0.0;
  for (size_t k = 0; k < b.size(); ++k) weighted += w[k] * p[k];
  CHECK(weighted == Approx(estimate_cross_section(b, p).sigma).epsilon(1e-12));

  // Four repetitions, their own sigma_r = sum_k w_k hits_rk; the error is their spread / sqrt(n).
  const std::vector<std::vector<int>> hits{{1, 1, 0, 0}, {1, 0, 0, 0}, {1, 1, 1, 0}, {1, 1, 0, 0}};
  std::vector<double> s;
  for (const auto& h : hits) s.push_back(w[0] * h[0] + w[1] * h[1] + w[2] * h[2]);
  const double mean = (s[0] + s[1] + s[2] + s[3]) / 4.0;
  double ss = 0.0;
  for (double x : s) ss += (x - mean) * (x - mean);
  CHECK(cross_section_error(b, hits) == Approx(std::sqrt(ss / 3.0 / 4.0)).epsilon(1e-12));
  // A failed shot (-1) drops its repetition; identical repetitions have no spread.
  CHECK(cross_section_error(b, {{1, 1, 0, 0}, {1, 1, 0, 0}, {1, -1, 0, 0}}) == 0.0);
  CHECK(cross_section_error(b, {{1, 1, 0, 0}}) == 0.0);
}

TEST_CASE("capture: the eq. 27 fit recovers a known correction factor c", "[capture]") {
  const CaptureGrains g;
  const double alpha = g.alpha(), mbar = g.reduced_mass(), v_th = g.thermal_speed();
  const std::vector<double> speeds_over_vth{0.3, 0.5, 1.0, 2.0, 3.0};
  // A synthetic map: P = 1 up to b1, falling linearly to 0 at b2 = 1.3 b1, so that sigma =
  // pi (b1^2 + b1 b2 + b2^2) / 3 = c sigma_m(v) with b1 = b_max sqrt(3 c / (1 + 1.3 + 1.3^2)).
  for (double c_true : {0.3, 0.85}) {
    std::vector<double> speeds, sigma, error;
    for (double f : speeds_over_vth) {
      const double v = f * v_th, b_max = g.b_max(v);
      const double b1 = b_max * std::sqrt(3.0 * c_true / (1.0 + 1.3 + 1.3 * 1.3)), b2 = 1.3 * b1;
      std::vector<double> b, p;
      for (int k = 0; k <= 30; ++k) {  // a grid with b1 and b2 on it: the integral is exact
        b.push_back(k * 0.1 * b1);
        p.push_back(k <= 10 ? 1.0 : std::max(0.0, (b2 - b.back()) / (b2 - b1)));
      }
      const CrossSectionEstimate e = estimate_cross_section(b, p);
      CHECK(e.sigma == Approx(c_true * capture_cross_section(alpha, mbar, v)).epsilon(1e-9));
      CHECK(e.white_radius == Approx(b1).epsilon(1e-12));
      speeds.push_back(v);
      sigma.push_back(e.sigma);
      error.push_back(0.05 * e.sigma);
    }
    INFO("c = " << c_true);
    for (const std::vector<double>& errors : {error, std::vector<double>{}}) {
      const CorrectionFactorFit f = fit_correction_factor(speeds, sigma, errors, alpha, mbar);
      REQUIRE(f.ok);
      CHECK(f.points == 5);
      CHECK(f.c == Approx(c_true).epsilon(1e-9));
      CHECK(f.c_min == Approx(c_true).epsilon(1e-9));
      CHECK(f.c_max == Approx(c_true).epsilon(1e-9));
      CHECK(f.chi2_per_dof == Approx(0.0).margin(1e-12));
      CHECK(f.exponent == Approx(-4.0 / 3.0).epsilon(1e-9));  // eq. 14
      CHECK(f.exponent_error == Approx(0.0).margin(1e-9));
    }
    // With errors of 5 %: c_error = 0.05 c / sqrt(5) (the ratios agree exactly, so no chi2 scaling).
    CHECK(fit_correction_factor(speeds, sigma, error, alpha, mbar).c_error ==
          Approx(0.05 * c_true / std::sqrt(5.0)).epsilon(1e-9));
  }
}

TEST_CASE("capture: the eq. 27 fit weights the ratios by their errors and widens for scatter", "[capture]") {
  const CaptureGrains g;
  const double alpha = g.alpha(), mbar = g.reduced_mass(), v_th = g.thermal_speed();
  const std::vector<double> speeds{v_th, 2.0 * v_th};
  const double m1 = capture_cross_section(alpha, mbar, speeds[0]), m2 = capture_cross_section(alpha, mbar, speeds[1]);
  // Ratios 0.8 +- 0.01 and 0.9 +- 0.02: weights 1/0.01^2 and 1/0.02^2, c = (4 0.8 + 0.9) / 5 = 0.82.
  const CorrectionFactorFit f =
      fit_correction_factor(speeds, {0.8 * m1, 0.9 * m2}, {0.01 * m1, 0.02 * m2}, alpha, mbar);
  CHECK(f.c == Approx(0.82).epsilon(1e-12));
  // chi2 = (0.02/0.01)^2 + (0.08/0.02)^2 = 20 over 1 degree of freedom: the error sqrt(1 / (10000 + 2500))
  // grows by sqrt(20).
  CHECK(f.chi2_per_dof == Approx(20.0).epsilon(1e-9));
  CHECK(f.c_error == Approx(std::sqrt(1.0 / 12500.0) * std::sqrt(20.0)).epsilon(1e-9));
  CHECK(f.c_min == Approx(0.8));
  CHECK(f.c_max == Approx(0.9));
  CHECK_FALSE(fit_correction_factor({}, {}, {}, alpha, mbar).ok);
}
