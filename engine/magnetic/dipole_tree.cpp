#include "engine/magnetic/dipole_tree.hpp"

#include "engine/core/simd.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>
#include <cstdio>
#include <cstdlib>

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
  std::vector<std::array<int, 2>> near_ranges;        // slot ranges of the near source leaves, in traversal order
  std::vector<double> px, py, pz, mx, my, mz, clump;  // near particles: position [m], moment [A m^2], clump key
  std::vector<double> out[6];                         // per entry: B (3) [T], F (3) [N]
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

// Sum of v[0..n) in a fixed order whatever the vector width: four running sums over k mod 4, then the tail.
inline double lane_sum(const double* v, int n) {
  double acc[4] = {0.0, 0.0, 0.0, 0.0};
  int k = 0;
  for (; k + 4 <= n; k += 4)
    for (int l = 0; l < 4; ++l) acc[l] += v[k + l];
  double sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  for (; k < n; ++k) sum += v[k];
  return sum;
}

}  // namespace

// [SECTION] Cell-cell interactions (the force pass, add_forces)
// Cartesian Taylor series (docs/physics.md, "Long-range dipoles: the tree"). With G(R) = 1/|R| and the scalar
// Psi(x) = sum_j m_j . grad G(x - x_j), the field is B = c0 grad Psi and the force on m at x is
// F = c0 grad(m . grad Psi). Multi-indices n = (n_x, n_y, n_z), |n| their order, n! = n_x! n_y! n_z!,
// d^n = d_x^n_x d_y^n_y d_z^n_z, D_n = d^n G / dR^n.
//   Source cell B (centre c_B, particles at c_B + d_j):  Psi(x) = sum_g W_g D_g(x - c_B) + O((rho_B/R)^(p+1)),
//     W_g = sum_j sum_b sum_{beta + e_b = g, |beta| <= p} m_b,j (-1)^|beta| d_j^beta / beta!      (p = kMultipoleOrder)
//   Target cell A (centre c_A): Psi(c_A + delta) = sum_{|a| <= P} L_a delta^a / a!,  L_a = sum_g W_g D_{a+g}(c_A - c_B)
//     (the M2L step; P = kLocalOrder), shifted to a child at c_A + s by L'_b = sum_n L_{b+n} s^n / n! (L2L)
//   At a target c_A + delta:  B_a = c0 sum_n L_{n+e_a} delta^n / n!,  F_e = c0 m_a sum_n L_{n+e_a+e_e} delta^n / n!
// D_n from the recurrence for the Taylor coefficients b_n = D_n (-1)^|n| / n! of 1/|R| (about the source point):
//   |n| R^2 b_n = (2|n| - 1) sum_i R_i b_{n-e_i} - (|n| - 1) sum_i b_{n-2e_i},  b_0 = 1/|R|.
// A truncated source expansion leaves a relative error ~ (rho_B/R)^(p+1) and a truncated local one
// ~ (rho_A/R)^(P-1) in the force (two derivatives of Psi), so p = 2, P = 4 matches the per-target expansion's
// third order.
namespace {

#ifndef TREE_P
#define TREE_P 2
#define TREE_L 4
#endif
constexpr int kMultipoleOrder = TREE_P;
// The cells' opening angle relative to the per-target one: a pair of cells of radii rho_A, rho_B at distance R
// interacts through the series when rho_A + rho_B < kCellOpeningFactor theta R.
constexpr double kCellOpeningFactor = 1.5;
constexpr int kLocalOrder = TREE_L;
constexpr int kMaxOrder = kLocalOrder + kMultipoleOrder + 1;
constexpr int count_up_to(int order) {
  return (order + 1) * (order + 2) * (order + 3) / 6;
}
constexpr int kTerms = count_up_to(kMaxOrder);                  // multi-indices of order <= kMaxOrder
constexpr int kSourceTerms = count_up_to(kMultipoleOrder + 1);  // W_g, |g| <= p + 1 (W_0 = 0)
constexpr int kLocalTerms = count_up_to(kLocalOrder);           // L_a, |a| <= P

struct MultiIndices {
  std::array<std::array<int, 3>, kTerms> n{};  // multi-index of each term, by order, then x, y descending
  std::array<int, kTerms> order{};
  std::array<double, kTerms> factorial{};                     // n!
  std::array<std::array<int, 3>, kTerms> minus_one{};         // n - e_i (-1: none)
  std::array<std::array<int, 3>, kTerms> minus_two{};         // n - 2 e_i (-1: none)
  std::array<std::array<int, 3>, kTerms> plus_one{};          // n + e_i (-1: beyond kMaxOrder)
  int at[kMaxOrder + 1][kMaxOrder + 1][kMaxOrder + 1] = {};   // multi-index -> term
  std::array<std::array<int, kSourceTerms>, kLocalTerms> sum{};  // a + g
  std::array<double, kTerms> sign_factorial{};                // (-1)^|n| n!

  MultiIndices() {
    int t = 0;
    for (int o = 0; o <= kMaxOrder; ++o)
      for (int i = o; i >= 0; --i)
        for (int j = o - i; j >= 0; --j) {
          const int k = o - i - j;
          n[static_cast<size_t>(t)] = {i, j, k};
          order[static_cast<size_t>(t)] = o;
          at[i][j][k] = t++;
        }
    auto fact = [](int v) {
      double f = 1.0;
      for (int q = 2; q <= v; ++q) f *= q;
      return f;
    };
    for (size_t t2 = 0; t2 < static_cast<size_t>(kTerms); ++t2) {
      const auto& m = n[t2];
      factorial[t2] = fact(m[0]) * fact(m[1]) * fact(m[2]);
      sign_factorial[t2] = (order[t2] % 2 == 0 ? 1.0 : -1.0) * factorial[t2];
      for (int a = 0; a < 3; ++a) {
        std::array<int, 3> q = m;
        q[static_cast<size_t>(a)] -= 1;
        minus_one[t2][static_cast<size_t>(a)] = q[static_cast<size_t>(a)] >= 0 ? at[q[0]][q[1]][q[2]] : -1;
        q[static_cast<size_t>(a)] -= 1;
        minus_two[t2][static_cast<size_t>(a)] = q[static_cast<size_t>(a)] >= 0 ? at[q[0]][q[1]][q[2]] : -1;
        q = m;
        q[static_cast<size_t>(a)] += 1;
        plus_one[t2][static_cast<size_t>(a)] = order[t2] < kMaxOrder ? at[q[0]][q[1]][q[2]] : -1;
      }
    }
    for (size_t a = 0; a < static_cast<size_t>(kLocalTerms); ++a)
      for (size_t g = 0; g < static_cast<size_t>(kSourceTerms); ++g)
        sum[a][g] = at[n[a][0] + n[g][0]][n[a][1] + n[g][1]][n[a][2] + n[g][2]];
  }
};

const MultiIndices& multi_indices() {
  static const MultiIndices tables;
  return tables;
}

// d^n / n! for |n| <= order, in term order.
template <int kOrder>
void scaled_monomials(const MultiIndices& mi, const Vec3& d, double* out) {
  out[0] = 1.0;
  for (int t = 1; t < count_up_to(kOrder); ++t) {
    const auto& n = mi.n[static_cast<size_t>(t)];
    const int a = n[0] > 0 ? 0 : (n[1] > 0 ? 1 : 2);  // lower one power of the first axis present
    out[t] = out[mi.minus_one[static_cast<size_t>(t)][static_cast<size_t>(a)]] * d[a] / n[static_cast<size_t>(a)];
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
  leaf_of_slot_.assign(n, -1);
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
  // Parents' centres (the L2L shifts) and the source terms W of every cell.
  parent_centre_.assign(nodes_.size(), Vec3::Zero());
  for (size_t k = 0; k < nodes_.size(); ++k)
    for (int c = nodes_[k].first_child; c >= 0 && c < nodes_[k].first_child + nodes_[k].child_count; ++c)
      parent_centre_[static_cast<size_t>(c)] = nodes_[k].centre;
  source_terms_.assign(nodes_.size() * static_cast<size_t>(kSourceTerms), 0.0);
  for (size_t k = 0; k < nodes_.size(); ++k) set_source_terms(static_cast<int>(k));
  cell_opening_ = std::min(1.0, (getenv("TKAPPA") ? atof(getenv("TKAPPA")) : kCellOpeningFactor) * settings.opening_angle);
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
  if (end - begin <= settings_.leaf_size || depth >= kMaxDepth || !((hi - lo).maxCoeff() > 0.0)) {
    std::fill(leaf_of_slot_.begin() + begin, leaf_of_slot_.begin() + end, node);
    return;
  }

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

// W of node `node` over slots [begin, end) (positions and moments in slot order).
void DipoleTree::set_source_terms(int node) {
  const MultiIndices& mi = multi_indices();
  const Node& nd = nodes_[static_cast<size_t>(node)];
  double* w = &source_terms_[static_cast<size_t>(node) * kSourceTerms];
  std::fill(w, w + kSourceTerms, 0.0);
  double mono[count_up_to(kMultipoleOrder)];
  for (int s = nd.begin; s < nd.end; ++s) {
    const Vec3& m = moment_[static_cast<size_t>(s)];
    scaled_monomials<kMultipoleOrder>(mi, position_[static_cast<size_t>(s)] - nd.centre, mono);
    for (int t = 0; t < count_up_to(kMultipoleOrder); ++t) {
      const double c = (mi.order[static_cast<size_t>(t)] % 2 == 0 ? 1.0 : -1.0) * mono[t];
      for (int b = 0; b < 3; ++b) w[mi.plus_one[static_cast<size_t>(t)][static_cast<size_t>(b)]] += m[b] * c;
    }
  }
}

namespace {

// L_a += sum_g W_g D_{a+g}(r) (the M2L step).
void add_cell_to_local(const MultiIndices& mi, const Vec3& r, const double* w, double* local) {
  double b[kTerms];
  const double rsq = r.squaredNorm();
  const double inv_rsq = 1.0 / rsq;
  b[0] = std::sqrt(inv_rsq);
  for (int t = 1; t < kTerms; ++t) {
    const auto& m1 = mi.minus_one[static_cast<size_t>(t)];
    const auto& m2 = mi.minus_two[static_cast<size_t>(t)];
    double first = 0.0, second = 0.0;
    for (int i = 0; i < 3; ++i) {
      if (m1[static_cast<size_t>(i)] >= 0) first += r[i] * b[m1[static_cast<size_t>(i)]];
      if (m2[static_cast<size_t>(i)] >= 0) second += b[m2[static_cast<size_t>(i)]];
    }
    const int o = mi.order[static_cast<size_t>(t)];
    b[t] = ((2 * o - 1) * first - (o - 1) * second) * inv_rsq / o;
  }
  for (int t = 0; t < kTerms; ++t) b[t] *= mi.sign_factorial[static_cast<size_t>(t)];  // now D_n
  for (int a = 0; a < kLocalTerms; ++a) {
    const auto& row = mi.sum[static_cast<size_t>(a)];
    double acc = 0.0;
    for (int g = 1; g < kSourceTerms; ++g) acc += w[g] * b[row[static_cast<size_t>(g)]];
    local[a] += acc;
  }
}

// The parent's local series shifted by s to the child's centre (the L2L step).
void shift_local(const MultiIndices& mi, const double* parent, const Vec3& s, double* child) {
  double mono[kLocalTerms];
  scaled_monomials<kLocalOrder>(mi, s, mono);
  for (int b = 0; b < kLocalTerms; ++b) {
    const auto& nb = mi.n[static_cast<size_t>(b)];
    double acc = 0.0;
    for (int t = 0; t < count_up_to(kLocalOrder - mi.order[static_cast<size_t>(b)]); ++t) {
      const auto& nt = mi.n[static_cast<size_t>(t)];
      acc += parent[mi.at[nb[0] + nt[0]][nb[1] + nt[1]][nb[2] + nt[2]]] * mono[t];
    }
    child[b] = acc;
  }
}

}  // namespace

// Everything one add_forces call needs besides the tree: the local series and candidate lists by depth, and the
// interaction list of the current target leaf.
struct FmmScratch {
  std::vector<std::vector<double>> local;      // by depth: L_a of the cell being visited
  std::vector<std::vector<int>> candidates;    // by depth: source cells handed down to the cells of that depth
  std::vector<int> stack;
  GroupLists lists;
};

bool DipoleTree::well_separated(const Node& a, const Node& b) const {
  if (a.clump_lo >= 0 && b.clump_lo >= 0 && a.clump_lo <= b.clump_hi && b.clump_lo <= a.clump_hi) return false;
  const double r = (a.centre - b.centre).norm();
  const double reach = a.radius + b.radius;
  return reach < cell_opening_ * r && r - reach > settings_.cap;
}

void DipoleTree::descend(int node, int depth, size_t begin, size_t end, FmmScratch& w,
                         std::span<const unsigned char> torque_free, Vec3* force, Vec3* torque,
                         double* energy_share) const {
  const MultiIndices& mi = multi_indices();
  const Node& a = nodes_[static_cast<size_t>(node)];
  if (w.local.size() <= static_cast<size_t>(depth) + 1) {
    w.local.resize(static_cast<size_t>(depth) + 2, std::vector<double>(kLocalTerms));
    w.candidates.resize(static_cast<size_t>(depth) + 2);
  }
  double* local = w.local[static_cast<size_t>(depth)].data();
  if (depth == 0)
    std::fill(local, local + kLocalTerms, 0.0);
  else
    shift_local(mi, w.local[static_cast<size_t>(depth) - 1].data(), a.centre - parent_centre_[static_cast<size_t>(node)],
                local);
  const bool leaf = a.first_child < 0;
  std::vector<int>& handed_down = w.candidates[static_cast<size_t>(depth) + 1];
  handed_down.clear();
  GroupLists& l = w.lists;
  if (leaf) l.near_ranges.clear();
  for (const int candidate : w.candidates[static_cast<size_t>(depth)]) {
    w.stack.assign(1, candidate);
    while (!w.stack.empty()) {
      const int k = w.stack.back();
      w.stack.pop_back();
      const Node& b = nodes_[static_cast<size_t>(k)];
      if (well_separated(a, b)) {

        add_cell_to_local(mi, a.centre - b.centre, &source_terms_[static_cast<size_t>(k) * kSourceTerms], local);
      } else if (leaf && b.first_child < 0) {
        l.near_ranges.push_back({b.begin, b.end});
      } else if (leaf || (b.first_child >= 0 && b.radius >= a.radius)) {
        for (int c = b.first_child + b.child_count - 1; c >= b.first_child; --c) w.stack.push_back(c);
      } else {
        handed_down.push_back(k);
      }
    }
  }
  if (!leaf) {
    for (int c = a.first_child; c < a.first_child + a.child_count; ++c) {
      const Node& child = nodes_[static_cast<size_t>(c)];
      if (static_cast<size_t>(child.end) <= begin || static_cast<size_t>(child.begin) >= end) continue;
      descend(c, depth + 1, begin, end, w, torque_free, force, torque, energy_share);
    }
    return;
  }
  gather_near(l);
  const size_t first = std::max(begin, static_cast<size_t>(a.begin)), last = std::min(end, static_cast<size_t>(a.end));
  double mono[count_up_to(kLocalOrder - 1)];
  for (size_t s = first; s < last; ++s) {
    const size_t i = static_cast<size_t>(order_[s]);
    const Vec3& m = moment_[s];
    energy_share[i] = 0.0;
    if (m.squaredNorm() == 0.0) continue;  // no force, torque or energy on a zero moment
    const Vec3& xs = position_[s];
    const double x[3] = {xs.x(), xs.y(), xs.z()}, mv[3] = {m.x(), m.y(), m.z()};
    // Clump key: -1 (no clump) never matches, since it is replaced by -2 for the target.
    const double own = clump_[s] >= 0 ? static_cast<double>(clump_[s]) : -2.0;
    double* o[6];
    for (int q = 0; q < 6; ++q) o[q] = l.out[static_cast<size_t>(q)].data();
    const int near = static_cast<int>(l.px.size());
    near_block(x, mv, own, settings_.cap, near, l, o[0], o[1], o[2], o[3], o[4], o[5]);
    Vec3 b(lane_sum(o[0], near), lane_sum(o[1], near), lane_sum(o[2], near));
    Vec3 f(lane_sum(o[3], near), lane_sum(o[4], near), lane_sum(o[5], near));
    // The far field from the local series: B_a = c0 sum_n L_{n+e_a} delta^n/n!, F_e = c0 m_a sum_n L_{n+e_a+e_e} ...
    scaled_monomials<kLocalOrder - 1>(mi, xs - a.centre, mono);
    Vec3 gradient = Vec3::Zero(), pull = Vec3::Zero();
    for (int t = 0; t < count_up_to(kLocalOrder - 1); ++t) {
      const auto& up = mi.plus_one[static_cast<size_t>(t)];
      for (int q = 0; q < 3; ++q) gradient[q] += local[up[static_cast<size_t>(q)]] * mono[t];
    }
    for (int t = 0; t < count_up_to(kLocalOrder - 2); ++t) {
      const auto& up = mi.plus_one[static_cast<size_t>(t)];
      for (int q = 0; q < 3; ++q) {
        const auto& up2 = mi.plus_one[static_cast<size_t>(up[static_cast<size_t>(q)])];
        double hm = 0.0;
        for (int e = 0; e < 3; ++e) hm += m[e] * local[up2[static_cast<size_t>(e)]];
        pull[q] += hm * mono[t];
      }
    }
    b += mu0_over_4pi * gradient;
    f += mu0_over_4pi * pull;
    force[i] += f;
    if (torque_free.empty() || !torque_free[i]) torque[i] += m.cross(b);
    energy_share[i] = -0.5 * m.dot(b);
  }
}

// The near particles of the current leaf's list, gathered from contiguous slot ranges.
void DipoleTree::gather_near(GroupLists& l) const {
  size_t near = 0;
  for (const auto& r : l.near_ranges) near += static_cast<size_t>(r[1] - r[0]);
  std::vector<double>* const near_out[7] = {&l.px, &l.py, &l.pz, &l.mx, &l.my, &l.mz, &l.clump};
  for (size_t a = 0; a < 7; ++a) {
    std::vector<double>& v = *near_out[a];
    v.resize(near);
    const double* src = particle_soa_[a].data();
    size_t k = 0;
    for (const auto& r : l.near_ranges)
      for (int t = r[0]; t < r[1]; ++t) v[k++] = src[t];
  }
  for (auto& v : l.out)
    if (v.size() < near) v.resize(near);
}

void DipoleTree::add_forces(size_t begin, size_t end, std::span<const unsigned char> torque_free, Vec3* force,
                            Vec3* torque, double* energy_share) const {
  if (nodes_.empty() || begin >= end) return;
  FmmScratch w;
  w.local.assign(1, std::vector<double>(kLocalTerms));
  w.candidates.assign(1, std::vector<int>{0});
  descend(0, 0, begin, end, w, torque_free, force, torque, energy_share);
}

}  // namespace lodestone
