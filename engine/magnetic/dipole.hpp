#pragma once
// Point-dipole pair interaction in SI ([PFC-dipole] eqs. 8-10, [Dominik-Nubold] eqs. 34-39).
// With r = x_i - x_j, n = r/|r| (from j to i) and c = mu0/4pi:
//   F_i = 3c/r^4 [ n (mi.mj) + mi (mj.n) + mj (mi.n) - 5 n (mi.n)(mj.n) ],  F_j = -F_i
//   T_i = c/r^3 [ 3 (mi x n)(mj.n) - mi x mj ],  T_j likewise with i <-> j (even in n)
//   U   = -c/r^3 [ 3 (mi.n)(mj.n) - mi.mj ]
// [PFC-dipole] prints the bracket as the force on piece 2 with n12 = r1 - r2; it is the force on
// piece 1 (the expression is odd in n; docs/references.md, known slips). Two moments head to tail
// along the axis attract: F_i = -6c m^2/r^4 n.
// `cap` (PFC dipole_cap) replaces smaller distances in force, torque and energy.

#include "engine/core/math.hpp"

#include <algorithm>

namespace lodestone {

struct DipolePair {
  Vec3 force_i = Vec3::Zero();   // [N]   force on i (j gets the opposite)
  Vec3 torque_i = Vec3::Zero();  // [N m]
  Vec3 torque_j = Vec3::Zero();  // [N m]
  double energy = 0.0;           // [J]
};

// Inlined into the pair loops (it is most of their work): one square root and one division per pair.
[[gnu::always_inline]] inline DipolePair dipole_pair(const Vec3& separation, const Vec3& mi, const Vec3& mj,
                                                     double cap) {
  const double r_true = std::sqrt(separation.squaredNorm());
  const double inv_r_true = 1.0 / r_true;
  const Vec3 n = separation * inv_r_true;
  const double inv_r = r_true < cap ? 1.0 / cap : inv_r_true;
  const double inv_r3 = mu0_over_4pi * inv_r * inv_r * inv_r;
  const double inv_r4 = 3.0 * inv_r3 * inv_r;
  const double mi_n = mi.dot(n), mj_n = mj.dot(n), mi_mj = mi.dot(mj);
  DipolePair out;
  out.force_i = inv_r4 * ((mi_mj - 5.0 * mi_n * mj_n) * n + mj_n * mi + mi_n * mj);
  const Vec3 mi_x_mj = mi.cross(mj);
  out.torque_i = inv_r3 * (3.0 * mj_n * mi.cross(n) - mi_x_mj);
  out.torque_j = inv_r3 * (3.0 * mi_n * mj.cross(n) + mi_x_mj);
  out.energy = -inv_r3 * (3.0 * mi_n * mj_n - mi_mj);
  return out;
}

// Field of dipole m at separation r (field point minus dipole position): c/r^3 [3 n (n.m) - m].
inline Vec3 dipole_field(const Vec3& separation, const Vec3& m) {
  const double r = separation.norm();
  const Vec3 n = separation / r;
  return mu0_over_4pi / (r * r * r) * (3.0 * n.dot(m) * n - m);
}

}  // namespace lodestone
