#include "engine/magnetic/stoner_wohlfarth.hpp"

#include <cmath>

namespace lodestone {

double sw_energy(double h, double theta, double psi) {
  const double c = std::cos(psi);
  return -h * std::cos(theta - psi) - 0.5 * c * c;
}

double sw_slope(double h, double theta, double psi) {
  return -h * std::sin(theta - psi) + 0.5 * std::sin(2.0 * psi);
}

double sw_curvature(double h, double theta, double psi) {
  return h * std::cos(theta - psi) + std::cos(2.0 * psi);
}

namespace {

// Newton from the previous angle: between steps the minimum moves a hair, and a few iterations
// land on it. Accepted only when it converges to a minimum close by; otherwise the bracketing
// search below decides the branch.
bool newton_near(double h, double theta, double psi_start, double& psi_out) {
  double psi = psi_start;
  for (int k = 0; k < 6; ++k) {
    const double s = sw_slope(h, theta, psi);
    const double c = sw_curvature(h, theta, psi);
    if (!(c > 0.0)) return false;
    const double step = s / c;
    psi -= step;
    if (std::abs(psi - psi_start) > 0.05) return false;
    if (std::abs(step) < 1e-13) {
      psi_out = psi;
      return sw_curvature(h, theta, psi) > 0.0;
    }
  }
  return false;
}

}  // namespace

double sw_equilibrium_angle(double h, double theta, double psi_start) {
  if (h == 0.0) {
    // No field: the moment sits on the easy axis, on the side it was nearer to.
    const double half_turns = std::nearbyint(psi_start / pi);
    return half_turns * pi;
  }
  double near = 0.0;
  if (newton_near(h, theta, psi_start, near)) return near;
  double g = sw_slope(h, theta, psi_start);
  if (g == 0.0 && sw_curvature(h, theta, psi_start) > 0.0) return psi_start;
  // Walk downhill in steps small enough not to jump over a maximum-minimum pair (they are closer
  // than the step only just before the branch vanishes) until the slope changes sign.
  const double direction = g > 0.0 ? -1.0 : 1.0;  // g == 0 at a maximum: either way is downhill
  constexpr double kStep = 0.02;
  double a = psi_start, b = psi_start;
  double gb = g;
  double step = 1e-6;  // the previous minimum is usually within a hair: try that first
  for (int k = 0; k < 2000; ++k) {
    a = b;
    b = a + direction * step;
    gb = sw_slope(h, theta, b);
    if (direction * gb > 0.0) break;  // slope now points back: a minimum lies in [a, b]
    step = std::min(2.0 * step, kStep);
  }
  // Safeguarded Newton on e'(psi) = 0 in [lo, hi] with e'(lo) < 0 < e'(hi).
  double lo = std::min(a, b), hi = std::max(a, b);
  double psi = 0.5 * (lo + hi);
  for (int k = 0; k < 100; ++k) {
    const double s = sw_slope(h, theta, psi);
    if (s < 0.0)
      lo = psi;
    else
      hi = psi;
    const double c = sw_curvature(h, theta, psi);
    double next = c > 0.0 ? psi - s / c : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - psi) < 1e-15 || hi - lo < 1e-15) return next;
    psi = next;
  }
  return psi;
}

namespace {

// newton_near carried out on the unit vector u = (cos psi, sin psi) of the plane instead of the angle:
// with cos and sin of theta given, slope and curvature are polynomials in u, and each Newton step
// turns u by atan(step) (u + step u_perp, normalised) instead of by step. The fixed point is the
// same, and the step's error (step^3 / 3) keeps the convergence quadratic. No sin, cos or atan2:
// they were two thirds of the moments stage of powder-alignment. Accepted as newton_near accepts,
// but stopped once the next step would be below a rounding (below).
// The turn's 1/sqrt(1 + step^2) is its series to step^4 for the steps below 1e-4 that follow a
// previous minimum (the next term, 5/16 step^6, is below 1e-24): each iteration's square root and
// division lay on the solver's one chain of latencies, the moments stage a third of a powder step.
bool newton_near_unit(double h, double cos_theta, double sin_theta, double& c, double& s) {
  const double c0 = c, s0 = s;
  const double cos_limit = std::cos(0.05);  // constant folded by the compiler
  for (int k = 0; k < 6; ++k) {
    const double sin_diff = sin_theta * c - cos_theta * s;  // sin(theta - psi)
    const double cos_diff = cos_theta * c + sin_theta * s;  // cos(theta - psi)
    const double slope = -h * sin_diff + s * c;
    const double curvature = h * cos_diff + (c * c - s * s);
    if (!(curvature > 0.0)) return false;
    const double step = slope / curvature;
    const double step_sq = step * step;
    const double inv = step_sq < 1e-8 ? 1.0 - step_sq * (0.5 - 0.375 * step_sq) : 1.0 / std::sqrt(1.0 + step_sq);
    const double c_next = (c + step * s) * inv, s_next = (s - step * c) * inv;  // turned by -atan(step)
    c = c_next;
    s = s_next;
    if (c * c0 + s * s0 < cos_limit) return false;
    // Converged once the next step would change nothing a double holds: quadratic convergence makes it about
    // C step^2, C = |e'''| / (2 e'') <= (h + 2) / (2 e''). Waiting for that step itself cost one more iteration
    // that, from a previous minimum, moved the moment by less than a rounding.
    if (step_sq * (h + 2.0) < 2e-18 * curvature || std::abs(step) < 1e-13)
      return h * (cos_theta * c + sin_theta * s) + (c * c - s * s) > 0.0;
  }
  return false;
}

}  // namespace

Vec3 sw_moment_direction(const Vec3& n, const Vec3& b, double field_scale_tesla, const Vec3& m_previous) {
  const double b_norm = b.norm();
  // The plane of n and H; along the axis, the plane of n and the previous moment.
  Vec3 e2 = b - b.dot(n) * n;
  if (e2.squaredNorm() <= 1e-24 * b_norm * b_norm) e2 = m_previous - m_previous.dot(n) * n;
  if (e2.squaredNorm() <= 1e-24) e2 = any_perpendicular(n);
  e2.normalize();
  const double h_fast = field_scale_tesla > 0.0 ? b_norm / field_scale_tesla : 0.0;
  // The previous moment's components in the plane, of order one (no hypot needed against overflow).
  const double along_n = m_previous.dot(n), along_e2 = m_previous.dot(e2);
  const double previous_in_plane = std::sqrt(along_n * along_n + along_e2 * along_e2);
  if (h_fast > 0.0 && previous_in_plane > 0.0) {
    const double to_unit = 1.0 / previous_in_plane, field_to_unit = 1.0 / b_norm;
    double c = along_n * to_unit, s = along_e2 * to_unit;
    if (newton_near_unit(h_fast, b.dot(n) * field_to_unit, b.dot(e2) * field_to_unit, c, s)) return c * n + s * e2;
  }
  const double theta = std::atan2(b.dot(e2), b.dot(n));  // in [0, pi]
  const double psi_previous = std::atan2(m_previous.dot(e2), m_previous.dot(n));
  const double h = field_scale_tesla > 0.0 ? b_norm / field_scale_tesla : 0.0;
  const double psi = sw_equilibrium_angle(h, theta, psi_previous);
  return std::cos(psi) * n + std::sin(psi) * e2;
}

}  // namespace lodestone
