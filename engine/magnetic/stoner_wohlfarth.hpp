#pragma once
// Stoner-Wohlfarth moment of a uniaxial single-domain particle ([Erokhin-Berkov] eqs. 1-4).
//
// With h = H / H_K, H_K = 2K / (mu0 Ms) (in CGS 2K/Ms), the energy per 2KV is
//   e(psi) = -h cos(theta - psi) - 1/2 cos^2 psi,
// theta the angle from the easy axis n to the field, psi the angle from n to the moment, both in
// the plane of n and H. The moment sits in a minimum of e: e'(psi) = 0 is eq. 2,
// h sin(theta - psi) = 1/2 sin 2 psi, and e''(psi) = h cos(theta - psi) + cos 2 psi > 0.
// The minimum is the one reached by going downhill from the previous moment direction (the
// hysteretic branch continuous with the previous state), found by bracketing then a safeguarded
// Newton iteration. The mechanical torque on the body is T = -2KV (m.n)(m x n) (eq. 3), of
// magnitude KV sin 2 psi (eq. 4).

#include "engine/core/math.hpp"

namespace lodestone {

// Reduced energy and its derivatives (per 2KV).
double sw_energy(double h, double theta, double psi);
double sw_slope(double h, double theta, double psi);      // de/dpsi
double sw_curvature(double h, double theta, double psi);  // d2e/dpsi2

// The local minimum of e reached downhill from psi_start (radians). Exact to ~1e-13.
double sw_equilibrium_angle(double h, double theta, double psi_start);

// The anisotropy field H_K = 2K/(mu0 Ms) [A/m]; mu0 H_K [T] is the field scale of h.
inline double anisotropy_field_tesla(double anisotropy, double magnetization) {
  return magnetization > 0.0 ? 2.0 * anisotropy / magnetization : 0.0;
}

// Moment direction in 3-D: easy axis n (unit), applied field b (T, any size), previous moment
// direction m_previous (unit; sets the branch). Returns the new unit moment direction.
Vec3 sw_moment_direction(const Vec3& n, const Vec3& b, double field_scale_tesla, const Vec3& m_previous);

// Torque on the body [N m]: -2 K V (m.n)(m x n), m unit.
inline Vec3 sw_body_torque(const Vec3& m, const Vec3& n, double anisotropy, double volume) {
  return -2.0 * anisotropy * volume * m.dot(n) * m.cross(n);
}

}  // namespace lodestone
