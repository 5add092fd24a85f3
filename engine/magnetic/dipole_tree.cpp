#include "engine/magnetic/dipole_tree.hpp"

#include "engine/core/simd.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>

namespace lodestone {
namespace {

constexpr int kMaxDepth = 60;  // beyond it (coincident particles) a cell stays a leaf

// Field at separation R = x - x_j of the point dipole mj, and the force grad(m . B) on m at x; the separation
// is capped as in dipole_pair (engine/magnetic/dipole.hpp: n from the true separation, |r| replaced by max(|r|, cap)).
//   B = c0/r^3 [3 n (n.mj) - mj],  F = 3 c0/r^4 [ n (m.mj) + m (mj.n) + mj (m.n) - 5 n (m.n)(mj.n) ]
template <bool kForce>
inline void add_exact_pair(const Vec3& separation, double rsq, const Vec3& m, const Vec3& mj, double cap, Vec3& b,
                           Vec3& f) {
  const double r_true = std::sqrt(rsq);
  const Vec3 n = separation / r_true;
  const double r = std::max(r_true, cap);
  const double inv_r3 = mu0_over_4pi / (r * r * r);
  const double mj_n = mj.dot(n);
  b += inv_r3 * (3.0 * mj_n * n - mj);
  if constexpr (kForce) {
    const double m_n = m.dot(n);
    f += (3.0 * inv_r3 / r) * ((m.dot(mj) - 5.0 * m_n * mj_n) * n + mj_n * m + m_n * mj);
  }
}

// The cell's expansion at R = x - c (engine/magnetic/dipole_tree.hpp; derivation in docs/physics.md):
//   B = c0 [ 3 R (R.M)/R^5 - M/R^3 + 15 R (R.Q.R)/R^7 - 3 (Q R + Q^T R + R tr Q)/R^5 ]
//   F = c0 [ 3 ((m.M) R + m (M.R) + M (m.R))/R^5 - 15 (m.R)(M.R) R/R^7
//            - 105 (m.R)(R.Q.R) R/R^9
//            + 15 ((m.QR) R + m (R.Q.R) + (R.Q m) R + (m.R) Q R + (m.R) tr Q R + (m.R) Q^T R)/R^7
//            - 3 (Q^T m + m tr Q + Q m)/R^5 ]
template <bool kForce>
inline void add_expansion(const Vec3& r_vec, const Vec3& big_m, const Mat3& q, const Vec3& m, Vec3& b, Vec3& f) {
  const double rsq = r_vec.squaredNorm();
  const double inv_r2 = 1.0 / rsq;
  const double inv_r = std::sqrt(inv_r2);
  const double inv_r3 = mu0_over_4pi * inv_r * inv_r2;  // c0 folded in
  const double inv_r5 = inv_r3 * inv_r2;
  const double inv_r7 = inv_r5 * inv_r2;
  const double r_m = r_vec.dot(big_m);
  const Vec3 q_r = q * r_vec;
  const Vec3 qt_r = q.transpose() * r_vec;
  const double r_q_r = r_vec.dot(q_r);
  const double tr_q = q.trace();
  b += (3.0 * r_m * inv_r5 + 15.0 * r_q_r * inv_r7 - 3.0 * tr_q * inv_r5) * r_vec - inv_r3 * big_m -
       (3.0 * inv_r5) * (q_r + qt_r);
  if constexpr (kForce) {
    const double inv_r9 = inv_r7 * inv_r2;
    const double m_r = m.dot(r_vec);
    const double m_q_r = m.dot(q_r);
    const double r_q_m = qt_r.dot(m);
    const double coefficient_r = 3.0 * m.dot(big_m) * inv_r5 - 15.0 * m_r * r_m * inv_r7 -
                                 105.0 * m_r * r_q_r * inv_r9 + 15.0 * (m_q_r + r_q_m + m_r * tr_q) * inv_r7;
    const double coefficient_m = 3.0 * r_m * inv_r5 + 15.0 * r_q_r * inv_r7 - 3.0 * tr_q * inv_r5;
    f += coefficient_r * r_vec + coefficient_m * m + (3.0 * m_r * inv_r5) * big_m +
         (15.0 * m_r * inv_r7) * (q_r + qt_r) - (3.0 * inv_r5) * (q.transpose() * m + q * m);
  }
}

// [SECTION] SIMD kernels of the group traversal
// The interaction lists of one target leaf, as structures of arrays (the near particles, summed exactly, and
// the far cells, summed through their expansions), and one output slot per entry so that the sums are taken
// afterwards in list order: the bits do not depend on the vector width (engine/magnetic/dipole_kernel.cpp).
// The second-order term of the cell's expansion (docs/physics.md), with S_bfg = sum_k m_b,k d_f,k d_g,k
// (s[b] is the symmetric matrix S_b..):
//   B2_a = c0/2 D_abfg S_bfg,   F2_e = c0/2 m_a D_abefg S_bfg.
// With G_b = S_b R, u_b = R.G_b, w = R.u, v = sum_b R_b G_b, t_g = S_bbg, p_b = S_bff, n = sum_b R_b S_b m,
// k_e = m.G_e, h = sum_b m_b G_b:
//   B2 = 1/2 [ (105 w/R^9 - 15 (2 t.R + p.R)/R^7) R - 15 (u + 2 v)/R^7 + 3 (p + 2 t)/R^5 ]
//   F2 = 1/2 [ (-945 (m.R) w/R^11 + 105 (m.u + 2 m.v + (m.R)(2 t.R + p.R))/R^9 - 15 (m.p + 2 m.t)/R^7) R
//            + (105 w/R^9 - 15 (p.R + 2 t.R)/R^7) m + 105 (m.R)(u + 2 v)/R^9
//            - 15 ((m.R)(p + 2 t) + 2 n + 2 h + 2 k)/R^7 ]      (c0 folded into every 1/R^n)
template <bool kForce>
inline void add_second_order(const Vec3& r_vec, const std::array<Mat3, 3>& s, const Vec3& m, Vec3& b, Vec3& f) {
  const double rsq = r_vec.squaredNorm();
  const double inv_r2 = 1.0 / rsq;
  const double inv_r = std::sqrt(inv_r2);
  const double inv_r5 = mu0_over_4pi * inv_r * inv_r2 * inv_r2;
  const double inv_r7 = inv_r5 * inv_r2;
  const double inv_r9 = inv_r7 * inv_r2;
  const Vec3 g[3] = {s[0] * r_vec, s[1] * r_vec, s[2] * r_vec};
  const Vec3 u(r_vec.dot(g[0]), r_vec.dot(g[1]), r_vec.dot(g[2]));
  const double w = r_vec.dot(u);
  const Vec3 v = r_vec.x() * g[0] + r_vec.y() * g[1] + r_vec.z() * g[2];
  const Vec3 t = s[0].row(0).transpose() + s[1].row(1).transpose() + s[2].row(2).transpose();
  const Vec3 p(s[0].trace(), s[1].trace(), s[2].trace());
  const double t_r = t.dot(r_vec), p_r = p.dot(r_vec);
  const double coefficient_m = 105.0 * w * inv_r9 - 15.0 * (2.0 * t_r + p_r) * inv_r7;
  b += 0.5 * (coefficient_m * r_vec - (15.0 * inv_r7) * (u + 2.0 * v) + (3.0 * inv_r5) * (p + 2.0 * t));
  if constexpr (kForce) {
    const double inv_r11 = inv_r9 * inv_r2;
    const double m_r = m.dot(r_vec);
    const Vec3 n = r_vec.x() * (s[0] * m) + r_vec.y() * (s[1] * m) + r_vec.z() * (s[2] * m);
    const Vec3 k(m.dot(g[0]), m.dot(g[1]), m.dot(g[2]));
    const Vec3 h = m.x() * g[0] + m.y() * g[1] + m.z() * g[2];
    const double coefficient_r = -945.0 * m_r * w * inv_r11 +
                                 105.0 * (m.dot(u) + 2.0 * m.dot(v) + m_r * (2.0 * t_r + p_r)) * inv_r9 -
                                 15.0 * (m.dot(p) + 2.0 * m.dot(t)) * inv_r7;
    f += 0.5 * (coefficient_r * r_vec + coefficient_m * m + (105.0 * m_r * inv_r9) * (u + 2.0 * v) -
                (15.0 * inv_r7) * (m_r * (p + 2.0 * t) + 2.0 * n + 2.0 * h + 2.0 * k));
  }
}

}  // namespace

struct GroupLists {
  std::vector<double> px, py, pz, mx, my, mz, clump;  // near particles: position [m], moment [A m^2], clump key
  std::vector<double> cx, cy, cz, bmx, bmy, bmz;      // far cells: centre [m], M [A m^2]
  std::vector<double> q[9];                           // far cells: Q_ab = q[3a + b] [A m^3]
  std::vector<double> s[18];                          // far cells: S_b, upper triangle row by row [A m^4]
  std::vector<double> out[6];                         // per entry: B (3) [T], F (3) [N]

  // The near particles' arrays in the order of DipoleTree::particle_soa_, the far cells' in the order of a cell
  // record (DipoleTree::cell_data_).
  std::array<std::vector<double>*, 7> near_arrays() { return {&px, &py, &pz, &mx, &my, &mz, &clump}; }
  std::array<std::vector<double>*, 33> far_arrays() {
    return {&cx,   &cy,   &cz,   &bmx,   &bmy,   &bmz,   &q[0],  &q[1],  &q[2],  &q[3],  &q[4],
            &q[5], &q[6], &q[7], &q[8],  &s[0],  &s[1],  &s[2],  &s[3],  &s[4],  &s[5],  &s[6],
            &s[7], &s[8], &s[9], &s[10], &s[11], &s[12], &s[13], &s[14], &s[15], &s[16], &s[17]};
  }
  // Drops the entries after the first `near` near particles and `far` far cells (a cell's own, at its exit).
  void truncate(size_t near, size_t far) {
    for (auto* v : near_arrays()) v->resize(near);
    for (auto* v : far_arrays()) v->resize(far);
  }
};

// The state of one force pass's descent (DipoleTree::add_forces): the list stacks, the undecided cells per depth
// of the target tree, the walk's stack and the outputs.
struct TreeDescent {
  GroupLists lists;
  std::vector<std::vector<int>> undecided;
  std::vector<int> stack;
  int depth = 0;
  std::span<const unsigned char> torque_free;
  Vec3* force;
  Vec3* torque;
  double* energy_share;
};

namespace {

// add_exact_pair for `count` near particles, branch-free: an entry at zero distance (the target itself, or a
// coincident centre) or of the target's own clump (clump key equal to own_clump) gives exactly zero.
LODESTONE_SIMD_CLONES void near_block(const double x[3], const double m[3], double own_clump, double cap, int count,
                                      const GroupLists& l, double* __restrict bx, double* __restrict by,
                                      double* __restrict bz, double* __restrict fx, double* __restrict fy,
                                      double* __restrict fz) {
  const double inv_cap = cap > 0.0 ? 1.0 / cap : 0.0;
  const double x0 = x[0], x1 = x[1], x2 = x[2], m0 = m[0], m1 = m[1], m2 = m[2];
  const double *px = l.px.data(), *py = l.py.data(), *pz = l.pz.data();
  const double *mx = l.mx.data(), *my = l.my.data(), *mz = l.mz.data(), *clump = l.clump.data();
#pragma omp simd
  for (int k = 0; k < count; ++k) {
    const double dx = x0 - px[k], dy = x1 - py[k], dz = x2 - pz[k];
    const double rsq = dx * dx + dy * dy + dz * dz;
    const bool use = (rsq > 0.0) & (clump[k] != own_clump);
    const double r = std::sqrt(use ? rsq : 1.0);
    const double inv_r_true = 1.0 / r;
    const double nx = dx * inv_r_true, ny = dy * inv_r_true, nz = dz * inv_r_true;
    const double inv_r = r < cap ? inv_cap : inv_r_true;
    const double inv_r3 = use ? mu0_over_4pi * inv_r * inv_r * inv_r : 0.0;
    const double coefficient = 3.0 * inv_r3 * inv_r;
    const double mjx = mx[k], mjy = my[k], mjz = mz[k];
    const double mj_n = mjx * nx + mjy * ny + mjz * nz;
    const double m_n = m0 * nx + m1 * ny + m2 * nz;
    const double radial = (m0 * mjx + m1 * mjy + m2 * mjz) - 5.0 * m_n * mj_n;
    bx[k] = inv_r3 * (3.0 * mj_n * nx - mjx);
    by[k] = inv_r3 * (3.0 * mj_n * ny - mjy);
    bz[k] = inv_r3 * (3.0 * mj_n * nz - mjz);
    fx[k] = coefficient * (radial * nx + mj_n * m0 + m_n * mjx);
    fy[k] = coefficient * (radial * ny + mj_n * m1 + m_n * mjy);
    fz[k] = coefficient * (radial * nz + mj_n * m2 + m_n * mjz);
  }
}

// add_expansion for `count` far cells (the same formula, component by component).
LODESTONE_SIMD_CLONES void far_block(const double x[3], const double m[3], int count, const GroupLists& l,
                                     double* __restrict bx, double* __restrict by, double* __restrict bz,
                                     double* __restrict fx, double* __restrict fy, double* __restrict fz) {
  const double x0 = x[0], x1 = x[1], x2 = x[2], m0 = m[0], m1 = m[1], m2 = m[2];
  const double *cx = l.cx.data(), *cy = l.cy.data(), *cz = l.cz.data();
  const double *bmx = l.bmx.data(), *bmy = l.bmy.data(), *bmz = l.bmz.data();
  const double *q00 = l.q[0].data(), *q01 = l.q[1].data(), *q02 = l.q[2].data(), *q10 = l.q[3].data(),
               *q11 = l.q[4].data(), *q12 = l.q[5].data(), *q20 = l.q[6].data(), *q21 = l.q[7].data(),
               *q22 = l.q[8].data();
  // S_b's upper triangles: s<b>_<row><column>.
  const double *s0_00 = l.s[0].data(), *s0_01 = l.s[1].data(), *s0_02 = l.s[2].data(), *s0_11 = l.s[3].data(),
               *s0_12 = l.s[4].data(), *s0_22 = l.s[5].data(), *s1_00 = l.s[6].data(), *s1_01 = l.s[7].data(),
               *s1_02 = l.s[8].data(), *s1_11 = l.s[9].data(), *s1_12 = l.s[10].data(), *s1_22 = l.s[11].data(),
               *s2_00 = l.s[12].data(), *s2_01 = l.s[13].data(), *s2_02 = l.s[14].data(), *s2_11 = l.s[15].data(),
               *s2_12 = l.s[16].data(), *s2_22 = l.s[17].data();
#pragma omp simd
  for (int k = 0; k < count; ++k) {
    const double rx = x0 - cx[k], ry = x1 - cy[k], rz = x2 - cz[k];
    const double rsq = rx * rx + ry * ry + rz * rz;
    const double inv_r2 = 1.0 / rsq;
    const double inv_r = std::sqrt(inv_r2);
    const double inv_r3 = mu0_over_4pi * inv_r * inv_r2;
    const double inv_r5 = inv_r3 * inv_r2;
    const double inv_r7 = inv_r5 * inv_r2;
    const double inv_r9 = inv_r7 * inv_r2;
    const double big_x = bmx[k], big_y = bmy[k], big_z = bmz[k];
    const double r_m = rx * big_x + ry * big_y + rz * big_z;
    const double qrx = q00[k] * rx + q01[k] * ry + q02[k] * rz;  // Q R
    const double qry = q10[k] * rx + q11[k] * ry + q12[k] * rz;
    const double qrz = q20[k] * rx + q21[k] * ry + q22[k] * rz;
    const double qtrx = q00[k] * rx + q10[k] * ry + q20[k] * rz;  // Q^T R
    const double qtry = q01[k] * rx + q11[k] * ry + q21[k] * rz;
    const double qtrz = q02[k] * rx + q12[k] * ry + q22[k] * rz;
    const double qmx = q00[k] * m0 + q01[k] * m1 + q02[k] * m2;  // Q m
    const double qmy = q10[k] * m0 + q11[k] * m1 + q12[k] * m2;
    const double qmz = q20[k] * m0 + q21[k] * m1 + q22[k] * m2;
    const double qtmx = q00[k] * m0 + q10[k] * m1 + q20[k] * m2;  // Q^T m
    const double qtmy = q01[k] * m0 + q11[k] * m1 + q21[k] * m2;
    const double qtmz = q02[k] * m0 + q12[k] * m1 + q22[k] * m2;
    const double r_q_r = rx * qrx + ry * qry + rz * qrz;
    const double tr_q = q00[k] + q11[k] + q22[k];
    const double coefficient_m = 3.0 * r_m * inv_r5 + 15.0 * r_q_r * inv_r7 - 3.0 * tr_q * inv_r5;
    const double sx = qrx + qtrx, sy = qry + qtry, sz = qrz + qtrz;
    bx[k] = coefficient_m * rx - inv_r3 * big_x - (3.0 * inv_r5) * sx;
    by[k] = coefficient_m * ry - inv_r3 * big_y - (3.0 * inv_r5) * sy;
    bz[k] = coefficient_m * rz - inv_r3 * big_z - (3.0 * inv_r5) * sz;
    const double m_r = m0 * rx + m1 * ry + m2 * rz;
    const double m_q_r = m0 * qrx + m1 * qry + m2 * qrz;
    const double r_q_m = qtrx * m0 + qtry * m1 + qtrz * m2;
    const double coefficient_r = 3.0 * (m0 * big_x + m1 * big_y + m2 * big_z) * inv_r5 - 15.0 * m_r * r_m * inv_r7 -
                                 105.0 * m_r * r_q_r * inv_r9 + 15.0 * (m_q_r + r_q_m + m_r * tr_q) * inv_r7;
    const double a = 3.0 * m_r * inv_r5, c = 15.0 * m_r * inv_r7, d = 3.0 * inv_r5;
    fx[k] = coefficient_r * rx + coefficient_m * m0 + a * big_x + c * sx - d * (qtmx + qmx);
    fy[k] = coefficient_r * ry + coefficient_m * m1 + a * big_y + c * sy - d * (qtmy + qmy);
    fz[k] = coefficient_r * rz + coefficient_m * m2 + a * big_z + c * sz - d * (qtmz + qmz);
    // The second-order term (add_second_order).
    const double rr[3] = {rx, ry, rz}, mm[3] = {m0, m1, m2};
    double g[3][3], hm[3][3], u[3], v[3] = {0, 0, 0}, t[3] = {0, 0, 0}, p[3], n[3] = {0, 0, 0}, kv[3], h[3] = {0, 0, 0};
    const double all[3][3][3] = {
        {{s0_00[k], s0_01[k], s0_02[k]}, {s0_01[k], s0_11[k], s0_12[k]}, {s0_02[k], s0_12[k], s0_22[k]}},
        {{s1_00[k], s1_01[k], s1_02[k]}, {s1_01[k], s1_11[k], s1_12[k]}, {s1_02[k], s1_12[k], s1_22[k]}},
        {{s2_00[k], s2_01[k], s2_02[k]}, {s2_01[k], s2_11[k], s2_12[k]}, {s2_02[k], s2_12[k], s2_22[k]}}};
#pragma GCC unroll 3
    for (int bb = 0; bb < 3; ++bb) {
      const double(&sb)[3][3] = all[bb];
#pragma GCC unroll 3
      for (int e = 0; e < 3; ++e) {
        g[bb][e] = sb[e][0] * rx + sb[e][1] * ry + sb[e][2] * rz;
        hm[bb][e] = sb[e][0] * m0 + sb[e][1] * m1 + sb[e][2] * m2;
        t[e] += sb[bb][e];
      }
      p[bb] = sb[0][0] + sb[1][1] + sb[2][2];
      u[bb] = rx * g[bb][0] + ry * g[bb][1] + rz * g[bb][2];
    }
#pragma GCC unroll 3
    for (int e = 0; e < 3; ++e) {
#pragma GCC unroll 3
      for (int bb = 0; bb < 3; ++bb) {
        v[e] += rr[bb] * g[bb][e];
        n[e] += rr[bb] * hm[bb][e];
        h[e] += mm[bb] * g[bb][e];
      }
      kv[e] = m0 * g[e][0] + m1 * g[e][1] + m2 * g[e][2];
    }
    const double w = rx * u[0] + ry * u[1] + rz * u[2];
    const double t_r = t[0] * rx + t[1] * ry + t[2] * rz, p_r = p[0] * rx + p[1] * ry + p[2] * rz;
    const double m_u = m0 * u[0] + m1 * u[1] + m2 * u[2], m_v = m0 * v[0] + m1 * v[1] + m2 * v[2];
    const double m_p = m0 * p[0] + m1 * p[1] + m2 * p[2], m_t = m0 * t[0] + m1 * t[1] + m2 * t[2];
    const double inv_r11 = inv_r9 * inv_r2;
    const double c2_m = 105.0 * w * inv_r9 - 15.0 * (2.0 * t_r + p_r) * inv_r7;
    const double c2_r = -945.0 * m_r * w * inv_r11 + 105.0 * (m_u + 2.0 * m_v + m_r * (2.0 * t_r + p_r)) * inv_r9 -
                        15.0 * (m_p + 2.0 * m_t) * inv_r7;
    const double c2_uv = 105.0 * m_r * inv_r9, c15 = 15.0 * inv_r7, c3 = 3.0 * inv_r5;
    double b2[3], f2[3];
#pragma GCC unroll 3
    for (int e = 0; e < 3; ++e) {
      b2[e] = 0.5 * (c2_m * rr[e] - c15 * (u[e] + 2.0 * v[e]) + c3 * (p[e] + 2.0 * t[e]));
      f2[e] = 0.5 * (c2_r * rr[e] + c2_m * mm[e] + c2_uv * (u[e] + 2.0 * v[e]) -
                     c15 * (m_r * (p[e] + 2.0 * t[e]) + 2.0 * n[e] + 2.0 * h[e] + 2.0 * kv[e]));
    }
    bx[k] += b2[0];
    by[k] += b2[1];
    bz[k] += b2[2];
    fx[k] += f2[0];
    fy[k] += f2[1];
    fz[k] += f2[2];
  }
}

}  // namespace

// [SECTION] Build
void DipoleTree::build(std::span<const Vec3> position, std::span<const Vec3> moment, std::span<const int> clump,
                       const DipoleTreeSettings& settings) {
  assert(moment.size() == position.size());
  assert(clump.empty() || clump.size() == position.size());
  assert(settings.opening_angle > 0.0 && settings.leaf_size >= 1);
  settings_ = settings;
  const size_t n = position.size();
  assert(n < static_cast<size_t>(std::numeric_limits<int>::max()));
  position_.assign(position.begin(), position.end());
  moment_.assign(moment.begin(), moment.end());
  if (clump.empty())
    clump_.assign(n, -1);
  else
    clump_.assign(clump.begin(), clump.end());
  slot_of_.resize(n);
  // Slots start in index order; build_node reorders them and slot_of_ is filled at the end.
  order_.resize(n);
  for (size_t i = 0; i < n; ++i) order_[i] = static_cast<int>(i);
  nodes_.clear();
  nodes_.reserve(2 * n / static_cast<size_t>(settings.leaf_size) + 16);
  if (n == 0) return;
  nodes_.emplace_back();
  build_node(0, 0, static_cast<int>(n), 0);
  // Particles in slot order, so that a leaf's loop reads contiguous memory.
  std::vector<Vec3> x(n), m(n);
  std::vector<int> c(n);
  for (size_t s = 0; s < n; ++s) {
    const size_t i = static_cast<size_t>(order_[s]);
    x[s] = position[i];
    m[s] = moment[i];
    c[s] = clump_[i];
    slot_of_[i] = static_cast<int>(s);
  }
  position_ = std::move(x);
  moment_ = std::move(m);
  clump_ = std::move(c);
  // Structures of arrays for the group traversal's gathers: particles by slot, cells by node.
  for (auto& v : particle_soa_) v.resize(n);
  for (size_t s = 0; s < n; ++s) {
    for (int a = 0; a < 3; ++a) {
      particle_soa_[static_cast<size_t>(a)][s] = position_[s][a];
      particle_soa_[static_cast<size_t>(3 + a)][s] = moment_[s][a];
    }
    particle_soa_[6][s] = static_cast<double>(clump_[s]);
  }
  // The cells' expansions row by row (one far cell's gather reads one contiguous record), and the compact
  // records the list walk reads (one cache line per visited cell instead of the whole Node).
  cell_data_.resize(nodes_.size() * kCellArrays);
  walk_.resize(nodes_.size());
  for (size_t k = 0; k < nodes_.size(); ++k) {
    const Node& nd = nodes_[k];
    double* row = &cell_data_[k * kCellArrays];
    for (int a = 0; a < 3; ++a) {
      row[a] = nd.centre[a];
      row[3 + a] = nd.moment[a];
      for (int b = 0; b < 3; ++b) row[6 + 3 * a + b] = nd.spread(a, b);
      int e = 0;
      for (int r = 0; r < 3; ++r)
        for (int c = r; c < 3; ++c) row[15 + 6 * a + e++] = nd.second[static_cast<size_t>(a)](r, c);
    }
    walk_[k] = WalkNode{{nd.centre.x(), nd.centre.y(), nd.centre.z()},
                        nd.radius,
                        nd.begin,
                        nd.end,
                        nd.first_child,
                        nd.child_count,
                        nd.clump_lo,
                        nd.clump_hi};
  }
}

// Sets the expansion of nodes_[node] over slots [begin, end) of order_ and splits it (recursively).
void DipoleTree::build_node(int node, int begin, int end, int depth) {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 hi = -lo;
  int clump_lo = -1, clump_hi = -1;
  for (int s = begin; s < end; ++s) {
    const size_t i = static_cast<size_t>(order_[static_cast<size_t>(s)]);
    lo = lo.cwiseMin(position_[i]);
    hi = hi.cwiseMax(position_[i]);
    const int k = clump_[i];
    if (k >= 0) {
      clump_lo = clump_lo < 0 ? k : std::min(clump_lo, k);
      clump_hi = std::max(clump_hi, k);
    }
  }
  const Vec3 centre = 0.5 * (lo + hi);
  Vec3 net = Vec3::Zero();
  Mat3 spread = Mat3::Zero();
  std::array<Mat3, 3> second = {Mat3::Zero(), Mat3::Zero(), Mat3::Zero()};
  double radius_sq = 0.0;
  for (int s = begin; s < end; ++s) {
    const size_t i = static_cast<size_t>(order_[static_cast<size_t>(s)]);
    const Vec3 d = position_[i] - centre;
    net += moment_[i];
    spread += moment_[i] * d.transpose();
    const Mat3 dd = d * d.transpose();
    for (int a = 0; a < 3; ++a) second[static_cast<size_t>(a)] += moment_[i][a] * dd;
    radius_sq = std::max(radius_sq, d.squaredNorm());
  }
  {
    Node& nd = nodes_[static_cast<size_t>(node)];
    nd.centre = centre;
    nd.radius = std::sqrt(radius_sq);
    nd.moment = net;
    nd.spread = spread;
    nd.second = second;
    nd.begin = begin;
    nd.end = end;
    nd.clump_lo = clump_lo;
    nd.clump_hi = clump_hi;
    nd.first_child = -1;
    nd.child_count = 0;
  }
  if (end - begin <= settings_.leaf_size || depth >= kMaxDepth || !((hi - lo).maxCoeff() > 0.0)) return;

  // Split at the centre of the box: a stable counting sort of the slots by octant (x, y, z bits).
  const size_t count = static_cast<size_t>(end - begin);
  octant_scratch_.resize(count);
  std::array<int, 8> population{};
  for (size_t k = 0; k < count; ++k) {
    const Vec3& x = position_[static_cast<size_t>(order_[static_cast<size_t>(begin) + k])];
    const int o = (x.x() >= centre.x() ? 1 : 0) | (x.y() >= centre.y() ? 2 : 0) | (x.z() >= centre.z() ? 4 : 0);
    octant_scratch_[k] = static_cast<unsigned char>(o);
    ++population[static_cast<size_t>(o)];
  }
  std::array<int, 8> start{};
  for (int o = 1; o < 8; ++o) start[o] = start[o - 1] + population[o - 1];
  std::vector<int> sorted(count);
  {
    std::array<int, 8> next = start;
    for (size_t k = 0; k < count; ++k)
      sorted[static_cast<size_t>(next[octant_scratch_[k]]++)] = order_[static_cast<size_t>(begin) + k];
  }
  std::copy(sorted.begin(), sorted.end(), order_.begin() + begin);
  // At least two octants are occupied (the box has extent along some axis), so the recursion ends.
  int children = 0;
  for (int o = 0; o < 8; ++o) children += population[static_cast<size_t>(o)] > 0 ? 1 : 0;
  const int first = static_cast<int>(nodes_.size());
  nodes_.resize(nodes_.size() + static_cast<size_t>(children));
  nodes_[static_cast<size_t>(node)].first_child = first;
  nodes_[static_cast<size_t>(node)].child_count = children;
  int child = first;
  for (int o = 0; o < 8; ++o) {
    if (population[static_cast<size_t>(o)] == 0) continue;
    const int b = begin + start[static_cast<size_t>(o)];
    build_node(child++, b, b + population[static_cast<size_t>(o)], depth + 1);
  }
}

// [SECTION] Evaluation
template <bool kForce>
DipoleTreeTarget DipoleTree::traverse(const Vec3& x, const Vec3& m, int self, int own_clump) const {
  DipoleTreeTarget out;
  if (nodes_.empty()) return out;
  const double theta_sq = settings_.opening_angle * settings_.opening_angle;
  const double cap = settings_.cap;
  // Depth-first, children in octant order: a fixed order for every target.
  std::array<int, 8 * kMaxDepth + 8> stack;
  int top = 0;
  stack[static_cast<size_t>(top++)] = 0;
  while (top > 0) {
    const Node& nd = nodes_[static_cast<size_t>(stack[static_cast<size_t>(--top)])];
    const Vec3 r_vec = x - nd.centre;
    const double rsq = r_vec.squaredNorm();
    // Leaves are never expanded: their few particles cost about as much exactly, and the small cells near a
    // target carry most of the expansion's error (a cell of n random moments at the opening distance adds an
    // error ~ n^(-5/6) relative to the pair forces: docs/physics.md).
    // A cell that holds the target is always opened (at theta = 1 round-off could let it pass the test).
    bool far = nd.first_child >= 0 && nd.radius * nd.radius < theta_sq * rsq && (self < nd.begin || self >= nd.end);
    if (far && cap > 0.0) far = std::sqrt(rsq) - nd.radius > cap;
    if (far && own_clump >= 0) far = !(nd.clump_lo <= own_clump && own_clump <= nd.clump_hi);
    if (far) {
      add_expansion<kForce>(r_vec, nd.moment, nd.spread, m, out.field, out.force);
      add_second_order<kForce>(r_vec, nd.second, m, out.field, out.force);
    } else if (nd.first_child < 0) {
      for (int s = nd.begin; s < nd.end; ++s) {
        if (s == self) continue;
        const Vec3& mj = moment_[static_cast<size_t>(s)];
        if (mj.squaredNorm() == 0.0) continue;
        if (own_clump >= 0 && clump_[static_cast<size_t>(s)] == own_clump) continue;
        const Vec3 separation = x - position_[static_cast<size_t>(s)];
        const double d_sq = separation.squaredNorm();
        if (d_sq == 0.0) continue;  // coincident centres: skipped, as the direct sum does
        add_exact_pair<kForce>(separation, d_sq, m, mj, cap, out.field, out.force);
      }
    } else {
      for (int c = nd.first_child + nd.child_count - 1; c >= nd.first_child; --c) stack[static_cast<size_t>(top++)] = c;
    }
  }
  return out;
}

DipoleTreeTarget DipoleTree::evaluate(size_t i, bool skip_same_clump) const {
  if (nodes_.empty()) return {};
  const int self = slot_of_[i];
  const auto s = static_cast<size_t>(self);
  return traverse<true>(position_[s], moment_[s], self, skip_same_clump ? clump_[s] : -1);
}

Vec3 DipoleTree::field(size_t i) const {
  if (nodes_.empty()) return Vec3::Zero();
  const int self = slot_of_[i];
  return traverse<false>(position_[static_cast<size_t>(self)], Vec3::Zero(), self, -1).field;
}

Vec3 DipoleTree::field_at(const Vec3& x) const {
  return traverse<false>(x, Vec3::Zero(), -1, -1).field;
}

// [SECTION] The force pass: a descent of the target tree that shares the lists of a cell with all its leaves
// A source cell acts through its expansion on every target of a target cell A when it passes the per-target test
// for each of them, which A's bounding sphere (centre c_A, radius rho_A) guarantees with rho < theta (|c - c_A| -
// rho_A), |c - c_A| - rho_A - rho > cap, and no pebble of a clump of A's targets inside (accepts). A source leaf
// met at A is summed exactly for all of A's targets (leaves are never expanded). A source cell that fails the test
// even for a point at the far side of A's sphere, rho >= theta (|c - c_A| + rho_A) or |c - c_A| + rho_A - rho <=
// cap, fails it for every target cell inside A and is opened at A (opens; a cell holding A is always opened);
// any other cell is handed down undecided to A's children. The lists of a target leaf are so the lists of its
// ancestors followed by its own: they are kept as stacks, and a cell's entries are gathered once for all its
// leaves. They depend only on the leaf's ancestry, so a target's result does not depend on the split of targets.
bool DipoleTree::accepts(const WalkNode& group, const WalkNode& nd, double gap) const {
  if (!(nd.radius < settings_.opening_angle * gap && gap - nd.radius > settings_.cap)) return false;
  if (group.clump_lo >= 0 && nd.clump_lo >= 0 && nd.clump_lo <= group.clump_hi && group.clump_lo <= nd.clump_hi) {
    for (int s = group.begin; s < group.end; ++s) {
      const int k = clump_[static_cast<size_t>(s)];
      if (k >= 0 && nd.clump_lo <= k && k <= nd.clump_hi) return false;
    }
  }
  return true;
}

void DipoleTree::descend(int target, const std::vector<int>& inherited, size_t begin, size_t end,
                         TreeDescent& d) const {
  const WalkNode& group = walk_[static_cast<size_t>(target)];
  GroupLists& l = d.lists;
  const size_t near_mark = l.px.size(), far_mark = l.cx.size();
  const bool leaf = group.first_child < 0;
  const double theta = settings_.opening_angle;
  std::vector<int>& undecided = d.undecided[static_cast<size_t>(d.depth)];
  undecided.clear();
  // The inherited cells in order, each one's children examined in its place when it is opened (a depth-first
  // walk, children in octant order).
  std::vector<int>& stack = d.stack;
  stack.assign(inherited.rbegin(), inherited.rend());
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    const WalkNode& nd = walk_[static_cast<size_t>(node)];
    // A cell that shares targets with the group never acts as a whole on it (only round-off at theta = 1 could
    // let it pass the test); one that holds the whole group is opened.
    const bool shares_targets = nd.begin < group.end && group.begin < nd.end;
    const bool holds_group = nd.begin <= group.begin && group.end <= nd.end;
    const double distance =
        (Vec3(nd.centre[0], nd.centre[1], nd.centre[2]) - Vec3(group.centre[0], group.centre[1], group.centre[2]))
            .norm();
    if (nd.first_child >= 0 && !shares_targets && accepts(group, nd, distance - group.radius)) {
      append_cell(node, l);
    } else if (nd.first_child < 0) {
      append_leaf(nd, l);
    } else if (leaf || holds_group || nd.radius >= theta * (distance + group.radius) ||
               distance + group.radius - nd.radius <= settings_.cap) {
      for (int c = nd.first_child + nd.child_count - 1; c >= nd.first_child; --c) stack.push_back(c);
    } else {
      undecided.push_back(node);
    }
  }
  if (leaf) {
    evaluate_leaf(group, begin, end, d);
  } else {
    ++d.depth;  // the children's undecided cells go to the next depth's list (allocated for every depth up front)
    for (int c = group.first_child; c < group.first_child + group.child_count; ++c) {
      const WalkNode& child = walk_[static_cast<size_t>(c)];
      if (static_cast<size_t>(child.end) <= begin || static_cast<size_t>(child.begin) >= end) continue;
      descend(c, undecided, begin, end, d);
    }
    --d.depth;
  }
  l.truncate(near_mark, far_mark);
}

// Gathers: a source leaf's contiguous slot range of the particle arrays, one cell's record of the cell arrays.
void DipoleTree::append_leaf(const WalkNode& source, GroupLists& l) const {
  const auto near_out = l.near_arrays();
  for (size_t a = 0; a < near_out.size(); ++a) {
    const double* src = particle_soa_[a].data();
    near_out[a]->insert(near_out[a]->end(), src + source.begin, src + source.end);
  }
}

void DipoleTree::append_cell(int node, GroupLists& l) const {
  const double* row = &cell_data_[static_cast<size_t>(node) * kCellArrays];
  const auto far_out = l.far_arrays();
  static_assert(std::tuple_size_v<decltype(far_out)> == DipoleTree::kCellArrays);
  for (size_t a = 0; a < far_out.size(); ++a) far_out[a]->push_back(row[a]);
}

// Each target of the leaf in [begin, end): the near particles and far cells of the leaf and its ancestors, summed
// in SIMD loops and in list order.
void DipoleTree::evaluate_leaf(const WalkNode& group, size_t begin, size_t end, TreeDescent& d) const {
  GroupLists& l = d.lists;
  const int near = static_cast<int>(l.px.size()), far = static_cast<int>(l.cx.size());
  const size_t most = static_cast<size_t>(std::max(near, far));
  for (auto& v : l.out)
    if (v.size() < most) v.resize(most);
  double* o[6];
  for (int a = 0; a < 6; ++a) o[a] = l.out[static_cast<size_t>(a)].data();
  const size_t first = std::max(begin, static_cast<size_t>(group.begin));
  const size_t last = std::min(end, static_cast<size_t>(group.end));
  for (size_t s = first; s < last; ++s) {
    const size_t i = static_cast<size_t>(order_[s]);
    const Vec3& m = moment_[s];
    d.energy_share[i] = 0.0;
    if (m.squaredNorm() == 0.0) continue;  // no force, torque or energy on a zero moment
    const Vec3& xs = position_[s];
    const double x[3] = {xs.x(), xs.y(), xs.z()}, mv[3] = {m.x(), m.y(), m.z()};
    // Clump key: -1 (no clump) never matches, since it is replaced by -2 for the target.
    const double own = clump_[s] >= 0 ? static_cast<double>(clump_[s]) : -2.0;
    Vec3 b = Vec3::Zero(), f = Vec3::Zero();
    near_block(x, mv, own, settings_.cap, near, l, o[0], o[1], o[2], o[3], o[4], o[5]);
    b += Vec3(lane_sum(o[0], near), lane_sum(o[1], near), lane_sum(o[2], near));
    f += Vec3(lane_sum(o[3], near), lane_sum(o[4], near), lane_sum(o[5], near));
    far_block(x, mv, far, l, o[0], o[1], o[2], o[3], o[4], o[5]);
    b += Vec3(lane_sum(o[0], far), lane_sum(o[1], far), lane_sum(o[2], far));
    f += Vec3(lane_sum(o[3], far), lane_sum(o[4], far), lane_sum(o[5], far));
    d.force[i] += f;
    if (d.torque_free.empty() || !d.torque_free[i]) d.torque[i] += m.cross(b);
    d.energy_share[i] = -0.5 * m.dot(b);
  }
}

void DipoleTree::add_forces(size_t begin, size_t end, std::span<const unsigned char> torque_free, Vec3* force,
                            Vec3* torque, double* energy_share) const {
  if (nodes_.empty() || begin >= end) return;
  TreeDescent d{GroupLists{}, {}, {}, 0, torque_free, force, torque, energy_share};
  d.undecided.resize(kMaxDepth + 2);
  const std::vector<int> root{0};
  descend(0, root, begin, end, d);
}

}  // namespace lodestone
