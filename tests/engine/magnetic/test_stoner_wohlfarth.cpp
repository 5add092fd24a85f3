// Stoner-Wohlfarth solver ([Erokhin-Berkov] eqs. 1-4) against closed forms derived by hand:
//  - theta = 90 degree: h cos psi = sin psi cos psi gives sin psi = h (h < 1), psi = 90 degree beyond;
//  - the torque sin 2 psi peaks where psi = 45 degree; for theta > 45 degree that happens at
//    h* = 1 / (2 sin(theta - 45 degree)) (eq. 2 with psi = 45 degree), [Erokhin-Berkov] Fig. 3c;
//  - for theta <= 45 degree, psi < theta <= 45 degree, so the torque only grows with the field;
//  - the branch starting at psi = 0 against a field at theta survives up to the astroid field
//    h_sw = (cos^{2/3} theta + sin^{2/3} theta)^{-3/2} and jumps past it.

#include "engine/magnetic/stoner_wohlfarth.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace lodestone;

namespace {
constexpr double degree = pi / 180.0;

double psi_after_ramp(double theta, double h_end, int steps = 2000) {
  double psi = 0.0;
  for (int k = 1; k <= steps; ++k) psi = sw_equilibrium_angle(h_end * k / steps, theta, psi);
  return psi;
}
}  // namespace

TEST_CASE("Stoner-Wohlfarth: the solution satisfies eq. 2 and is a minimum", "[stoner_wohlfarth]") {
  for (double theta_deg = 0.0; theta_deg <= 90.0; theta_deg += 7.5) {
    for (double h : {0.0, 0.01, 0.2, 0.5, 0.9, 1.0, 1.7, 5.0, 50.0}) {
      const double theta = theta_deg * degree;
      const double psi = psi_after_ramp(theta, h, 200);
      INFO("theta " << theta_deg << " deg, h " << h << ", psi " << psi / degree << " deg");
      CHECK(std::abs(h * std::sin(theta - psi) - 0.5 * std::sin(2.0 * psi)) < 1e-12);
      CHECK(sw_curvature(h, theta, psi) >= 0.0);
      CHECK(psi >= -1e-12);
      CHECK(psi <= theta + 1e-12);  // the moment lies between the easy axis and the field
    }
  }
}

TEST_CASE("Stoner-Wohlfarth: perpendicular field gives sin psi = h", "[stoner_wohlfarth]") {
  for (double h : {0.05, 0.3, 0.7071, 0.95})
    CHECK(std::sin(psi_after_ramp(90.0 * degree, h)) == Approx(h).epsilon(1e-10));
  CHECK(psi_after_ramp(90.0 * degree, 1.5) == Approx(90.0 * degree).epsilon(1e-7));
}

TEST_CASE("Stoner-Wohlfarth: the torque peaks where psi = 45 deg, at h* = 1/(2 sin(theta - 45 deg))",
          "[stoner_wohlfarth]") {
  for (double theta_deg : {50.0, 60.0, 70.0, 80.0, 85.0}) {
    const double theta = theta_deg * degree;
    // Scan the field finely, then refine the maximum of sin 2 psi by golden section.
    double best_h = 0.0, best = -1.0;
    for (double h = 0.01; h < 10.0; h += 0.001) {
      const double t = std::sin(2.0 * sw_equilibrium_angle(h, theta, 0.5 * theta));
      if (t > best) best = t, best_h = h;
    }
    double a = best_h - 0.002, b = best_h + 0.002;
    const double g = 0.5 * (std::sqrt(5.0) - 1.0);
    for (int k = 0; k < 60; ++k) {
      const double c = b - g * (b - a), d = a + g * (b - a);
      const double tc = std::sin(2.0 * sw_equilibrium_angle(c, theta, 0.5 * theta));
      const double td = std::sin(2.0 * sw_equilibrium_angle(d, theta, 0.5 * theta));
      if (tc > td)
        b = d;
      else
        a = c;
    }
    const double h_peak = 0.5 * (a + b);
    INFO("theta " << theta_deg << " deg");
    CHECK(h_peak == Approx(1.0 / (2.0 * std::sin(theta - 45.0 * degree))).epsilon(1e-4));
    CHECK(sw_equilibrium_angle(h_peak, theta, 0.5 * theta) == Approx(45.0 * degree).epsilon(1e-4));
  }
}

TEST_CASE("Stoner-Wohlfarth: for theta <= 45 deg the torque only grows with the field", "[stoner_wohlfarth]") {
  for (double theta_deg : {10.0, 30.0, 45.0}) {
    double psi = 0.0, last = 0.0;
    for (double h = 0.0; h <= 100.0; h += 0.01) {
      psi = sw_equilibrium_angle(h, theta_deg * degree, psi);
      const double torque = std::sin(2.0 * psi);
      REQUIRE(torque >= last - 1e-14);
      last = torque;
    }
    CHECK(last == Approx(std::sin(2.0 * theta_deg * degree)).epsilon(1e-2));  // psi -> theta
  }
}

TEST_CASE("Stoner-Wohlfarth: the branch is kept until the astroid field, then the moment switches",
          "[stoner_wohlfarth]") {
  for (double theta_deg : {150.0, 165.0, 175.0}) {
    const double theta = theta_deg * degree;
    const double c = std::pow(std::abs(std::cos(theta)), 2.0 / 3.0), s = std::pow(std::sin(theta), 2.0 / 3.0);
    const double h_switch = std::pow(c + s, -1.5);
    INFO("theta " << theta_deg << " deg, astroid h " << h_switch);
    const double before = psi_after_ramp(theta, 0.995 * h_switch, 4000);
    const double after = psi_after_ramp(theta, 1.005 * h_switch, 4000);
    CHECK(std::abs(before) < 60.0 * degree);         // still near the easy axis (the metastable branch)
    CHECK(std::abs(after - theta) < 30.0 * degree);  // switched: close to the field
    // Starting from the field side instead, the same field gives the other minimum.
    CHECK(std::abs(sw_equilibrium_angle(0.995 * h_switch, theta, theta) - theta) < 30.0 * degree);
  }
}

TEST_CASE(
    "Stoner-Wohlfarth in 3-D: the moment lies in the plane of n and B, and the body torque "
    "equals m x B at equilibrium",
    "[stoner_wohlfarth]") {
  const double ms = 3.8e5, k = 3.5e5, volume = 5.2e-19;  // Sr-ferrite, a 1 um sphere
  const double scale = anisotropy_field_tesla(k, ms);
  CHECK(scale == Approx(1.8421).epsilon(1e-4));  // H_K = 2K/Ms = 18.42 kOe in CGS
  const Vec3 n = Vec3(0.3, -0.5, 0.81).normalized();
  for (double b_tesla : {0.1, 1.0, 4.0, 10.0}) {
    const Vec3 b = b_tesla * Vec3(-0.2, 0.9, 0.4).normalized();
    const Vec3 m = sw_moment_direction(n, b, scale, n);
    CHECK(m.norm() == Approx(1.0).epsilon(1e-14));
    CHECK(std::abs(m.dot(n.cross(b).normalized())) < 1e-12);
    const Vec3 torque = sw_body_torque(m, n, k, volume);
    const Vec3 field_torque = ms * volume * m.cross(b);
    CHECK((torque - field_torque).norm() < 1e-10 * field_torque.norm() + 1e-30);
    // Magnitude KV sin 2 psi (eq. 4).
    CHECK(torque.norm() == Approx(k * volume * std::abs(std::sin(2.0 * std::acos(m.dot(n))))).epsilon(1e-10));
    // The torque turns the easy axis towards the moment, or its negative when the moment points
    // away from it (n and -n are the same axis): the sign of sin 2 psi.
    CHECK(torque.dot(n.cross(m)) * m.dot(n) > 0.0);
  }
}

TEST_CASE(
    "Stoner-Wohlfarth in 3-D: a field that moved a little since the last step gives the angle solver's "
    "minimum, on either branch",
    "[stoner_wohlfarth]") {
  // Between steps the moment starts next to its new minimum, where sw_moment_direction iterates on the
  // unit vector of the plane instead of the angle. The reference is the angle solver itself
  // (sw_equilibrium_angle, from the angles taken with atan2) in the same plane.
  const double scale = 1.8421;  // [T] mu0 H_K of Sr-ferrite
  const Vec3 n = Vec3(0.3, -0.5, 0.81).normalized();
  const Vec3 across = n.cross(Vec3(1, 0, 0)).normalized();  // a fixed direction perpendicular to n
  for (double h : {0.05, 0.3, 0.6, 0.9, 1.5, 5.0})
    for (double theta_deg : {5.0, 30.0, 60.0, 89.0, 120.0, 160.0, 178.0})
      for (double start_deg : {2.0, 178.0}) {  // the branch near +n and the one near -n
        INFO("h " << h << ", theta " << theta_deg << " deg, branch from " << start_deg << " deg");
        const double theta = theta_deg * degree;
        const Vec3 b_before = h * scale * (std::cos(theta) * n + std::sin(theta) * across);
        const double psi_before = sw_equilibrium_angle(h, theta, start_deg * degree);
        const Vec3 m_before = std::cos(psi_before) * n + std::sin(psi_before) * across;
        // The field turns by 0.2 degree out of the plane and grows by 0.1 %.
        const Vec3 b = 1.001 * (b_before + 0.0035 * b_before.norm() * n.cross(across));
        const Vec3 m = sw_moment_direction(n, b, scale, m_before);
        Vec3 e2 = b - b.dot(n) * n;
        e2.normalize();
        const double theta_now = std::atan2(b.dot(e2), b.dot(n));
        const double psi_ref =
            sw_equilibrium_angle(b.norm() / scale, theta_now, std::atan2(m_before.dot(e2), m_before.dot(n)));
        const Vec3 m_ref = std::cos(psi_ref) * n + std::sin(psi_ref) * e2;
        CHECK((m - m_ref).norm() < 1e-12);
        CHECK(m.norm() == Approx(1.0).epsilon(1e-14));
        // Eq. 2 holds and the angle is a minimum.
        const double psi = std::atan2(m.dot(e2), m.dot(n));
        CHECK(std::abs(sw_slope(b.norm() / scale, theta_now, psi)) < 1e-12);
        CHECK(sw_curvature(b.norm() / scale, theta_now, psi) > 0.0);
      }
}
