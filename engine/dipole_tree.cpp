#include "engine/dipole_tree.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>

namespace lodestone {
namespace {

constexpr int kMaxDepth = 60;  // beyond it (coincident particles) a cell stays a leaf

// Field at separation R = x - x_j of the point dipole mj, and the force grad(m . B) on m at x; the separation
// is capped as in dipole_pair (engine/dipole.hpp: n from the true separation, |r| replaced by max(|r|, cap)).
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

// The cell's expansion at R = x - c (engine/dipole_tree.hpp; derivation in docs/physics.md):
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
  double radius_sq = 0.0;
  for (int s = begin; s < end; ++s) {
    const size_t i = static_cast<size_t>(order_[static_cast<size_t>(s)]);
    const Vec3 d = position_[i] - centre;
    net += moment_[i];
    spread += moment_[i] * d.transpose();
    radius_sq = std::max(radius_sq, d.squaredNorm());
  }
  {
    Node& nd = nodes_[static_cast<size_t>(node)];
    nd.centre = centre;
    nd.radius = std::sqrt(radius_sq);
    nd.moment = net;
    nd.spread = spread;
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
DipoleTreeTarget DipoleTree::traverse(size_t i, bool skip_same_clump) const {
  DipoleTreeTarget out;
  if (nodes_.empty()) return out;
  const int self = slot_of_[i];
  const Vec3 x = position_[static_cast<size_t>(self)];
  const Vec3 m = moment_[static_cast<size_t>(self)];
  const int own_clump = skip_same_clump ? clump_[static_cast<size_t>(self)] : -1;
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

DipoleTreeTarget DipoleTree::evaluate(size_t i, bool skip_same_clump) const { return traverse<true>(i, skip_same_clump); }

Vec3 DipoleTree::field(size_t i) const { return traverse<false>(i, false).field; }

void DipoleTree::add_forces(size_t begin, size_t end, std::span<const unsigned char> torque_free, Vec3* force,
                            Vec3* torque, double* energy_share) const {
  for (size_t i = begin; i < end; ++i) {
    const Vec3& m = moment_[static_cast<size_t>(slot_of_[i])];
    energy_share[i] = 0.0;
    if (m.squaredNorm() == 0.0) continue;  // no force, torque or energy on a zero moment
    const DipoleTreeTarget t = traverse<true>(i, true);
    force[i] += t.force;
    if (torque_free.empty() || !torque_free[i]) torque[i] += m.cross(t.field);
    energy_share[i] = -0.5 * m.dot(t.field);
  }
}

}  // namespace lodestone
