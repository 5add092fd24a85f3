#include "engine/magnetic/field_evaluation.hpp"

#include "engine/core/simd.hpp"
#include "engine/magnetic/dipole.hpp"
#include "engine/magnetic/field.hpp"
#include "engine/magnetic/periodic_systems.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lodestone {
namespace {

// Moments summed at a time: the inputs are gathered (cutoff) or read in place (direct) in blocks this long.
constexpr int kBlock = 128;

struct Block {
  alignas(64) double px[kBlock], py[kBlock], pz[kBlock];
  alignas(64) double mx[kBlock], my[kBlock], mz[kBlock];
  alignas(64) double radius[kBlock];
  alignas(64) double bx[kBlock], by[kBlock], bz[kBlock];
};

// Periodic lengths and their inverses (0 on open axes: the minimum image leaves those components alone).
struct Periodicity {
  double length[3] = {0, 0, 0};
  double inverse[3] = {0, 0, 0};
};

// The field at x of `count` moments, one output per moment (summed afterwards in a fixed order: the bits
// do not depend on the vector width). A moment counts when its centre is within reach (rsq <= reach_sq) or
// its sphere holds x; inside the sphere it gives the uniform interior field 2 c0 m / R^3, outside the point
// dipole's c0/r^3 [3 n (n.m) - m]; a centre exactly at x gives nothing. Without `interior` every moment
// within reach gives the point dipole's field. Branch-free.
LODESTONE_SIMD_CLONES void field_block(const double x[3], const Periodicity& box, const double* px, const double* py,
                                       const double* pz, const double* mx, const double* my, const double* mz,
                                       const double* radius, int count, double reach_sq, bool interior,
                                       double* __restrict bx, double* __restrict by, double* __restrict bz) {
  const double x0 = x[0], x1 = x[1], x2 = x[2];
  const double l0 = box.length[0], l1 = box.length[1], l2 = box.length[2];
  const double i0 = box.inverse[0], i1 = box.inverse[1], i2 = box.inverse[2];
#pragma omp simd
  for (int k = 0; k < count; ++k) {
    double dx = x0 - px[k], dy = x1 - py[k], dz = x2 - pz[k];
    dx -= l0 * round_to_integer(dx * i0);
    dy -= l1 * round_to_integer(dy * i1);
    dz -= l2 * round_to_integer(dz * i2);
    const double rsq = dx * dx + dy * dy + dz * dz;
    const double big_r = radius[k];
    const bool inside = interior & (rsq < big_r * big_r);
    const bool outside = !inside & (rsq <= reach_sq) & (rsq > 0.0);
    const double r = std::sqrt(outside ? rsq : 1.0);
    const double inv_r = 1.0 / r;
    const double nx = dx * inv_r, ny = dy * inv_r, nz = dz * inv_r;
    const double inv_r3 = outside ? mu0_over_4pi * inv_r * inv_r * inv_r : 0.0;
    const double safe_r = inside ? big_r : 1.0;
    const double uniform = inside ? 2.0 * mu0_over_4pi / (safe_r * safe_r * safe_r) : 0.0;
    const double m0 = mx[k], m1 = my[k], m2 = mz[k];
    const double m_n3 = 3.0 * (m0 * nx + m1 * ny + m2 * nz);
    // Selected, not multiplied by a zero inv_r3: a moment out of reach (or at a non-finite position, rsq NaN)
    // gives an exact zero.
    bx[k] = (outside ? inv_r3 * (m_n3 * nx - m0) : 0.0) + uniform * m0;
    by[k] = (outside ? inv_r3 * (m_n3 * ny - m1) : 0.0) + uniform * m1;
    bz[k] = (outside ? inv_r3 * (m_n3 * nz - m2) : 0.0) + uniform * m2;
  }
}

Periodicity periodicity(const Vec3& length) {
  Periodicity p;
  for (int a = 0; a < 3; ++a) {
    p.length[a] = length[a];
    p.inverse[a] = length[a] > 0.0 ? 1.0 / length[a] : 0.0;
  }
  return p;
}

// Points per thread below which an evaluation stays on one thread.
constexpr size_t kPointGrain = 64;

}  // namespace

FieldEvaluator::FieldEvaluator(const Model& model, const State& state, const FieldEvaluationSettings& settings)
    : applied_(settings.applied) {
  b_uniform_ = uniform_field(model.field, state.time);
  gradient_ = model.field.gradient;
  gradient_origin_ = model.field.gradient_origin;
  periodic_length_ = model.periodic_length;
  cutoff_ = model.dipole_cutoff;
  method_ = settings.sum == FieldSum::Exact ? DipoleMethod::Direct : model.magnetics.method;
  if (!settings.moments) method_ = DipoleMethod::Off;
  const Particles& p = state.particles;
  const size_t n = p.size();
  position_.assign(p.position.begin(), p.position.end());
  radius_.assign(p.radius.begin(), p.radius.end());
  px_.resize(n);
  py_.resize(n);
  pz_.resize(n);
  mx_.resize(n);
  my_.resize(n);
  mz_.resize(n);
  max_radius_ = 0.0;
  for (size_t i = 0; i < n; ++i) {
    px_[i] = p.position[i].x();
    py_[i] = p.position[i].y();
    pz_[i] = p.position[i].z();
    mx_[i] = p.moment[i].x();
    my_[i] = p.moment[i].y();
    mz_[i] = p.moment[i].z();
    max_radius_ = std::max(max_radius_, p.radius[i]);
  }
  // The grid answers "which sphere holds x" (cells >= the largest radius) and, for the cutoff sum, "which
  // centres are within the cutoff" (cells >= the cutoff).
  double reach = max_radius_;
  if (method_ == DipoleMethod::Cutoff) reach = std::max(reach, cutoff_);
  if (n > 0 && reach > 0.0) grid_.build(position_, reach, periodic_length_, model.box.min);
  if (method_ == DipoleMethod::Tree) {
    // The force pass's tree (engine/magnetic/magnetics.cpp) without the cap (see the header) and clumps.
    DipoleTreeSettings tree;
    tree.opening_angle = model.magnetics.tree_opening_angle;
    tree_.build(p.position, p.moment, {}, tree);
  }
  // The force pass's sums (engine/magnetic/periodic_systems.hpp), the Ewald sum without clumps (see the header).
  if (method_ == DipoleMethod::Ewald) ewald_.build(ewald_system_of(model, p));
  if (method_ == DipoleMethod::P3M) p3m_.build(p3m_system_of(model, p));
  if ((method_ == DipoleMethod::Ewald || method_ == DipoleMethod::P3M) && is_slab(model)) {
    slab_ = true;
    layers_.build(layer_correction_system_of(model, p));
  }
}

Vec3 FieldEvaluator::applied_at(const Vec3& x) const {
  return b_uniform_ + gradient_ * (x - gradient_origin_);
}

Vec3 FieldEvaluator::at(const Vec3& x) const {
  Vec3 b = moments_at(x, true);
  if (applied_) b += applied_at(x);
  return b;
}

Vec3 FieldEvaluator::outside_at(const Vec3& x) const {
  Vec3 b = moments_at(x, false);
  if (applied_) b += applied_at(x);
  return b;
}

void FieldEvaluator::evaluate(std::span<const Vec3> points, std::span<Vec3> field, ThreadTeam& team) const {
  const size_t n = std::min(points.size(), field.size());
  for_each_range(team, n, kPointGrain, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) field[k] = at(points[k]);
  });
}

long FieldEvaluator::particle_at(const Vec3& x) const {
  long found = -1;
  grid_.for_each_near(x, [&](size_t j) {
    Vec3 d = x - position_[j];
    for (int a = 0; a < 3; ++a)
      if (periodic_length_[a] > 0.0) d[a] -= periodic_length_[a] * round_to_integer(d[a] / periodic_length_[a]);
    if (d.squaredNorm() < radius_[j] * radius_[j] && (found < 0 || static_cast<long>(j) < found))
      found = static_cast<long>(j);
  });
  return found;
}

Vec3 FieldEvaluator::moments_at(const Vec3& x, bool interior) const {
  const double xv[3] = {x.x(), x.y(), x.z()};
  const Periodicity box = periodicity(periodic_length_);
  Block block;
  Vec3 b = Vec3::Zero();
  auto add_block = [&](int count) {
    b += Vec3(lane_sum(block.bx, count), lane_sum(block.by, count), lane_sum(block.bz, count));
  };
  switch (method_) {
    case DipoleMethod::Off: break;
    case DipoleMethod::Direct: {
      const size_t n = radius_.size();
      for (size_t begin = 0; begin < n; begin += kBlock) {
        const int count = static_cast<int>(std::min<size_t>(kBlock, n - begin));
        field_block(xv, box, px_.data() + begin, py_.data() + begin, pz_.data() + begin, mx_.data() + begin,
                    my_.data() + begin, mz_.data() + begin, radius_.data() + begin, count,
                    std::numeric_limits<double>::infinity(), interior, block.bx, block.by, block.bz);
        add_block(count);
      }
      break;
    }
    case DipoleMethod::Cutoff: {
      // The candidates of the cells around x, gathered a block at a time, in the grid's order.
      int count = 0;
      const double reach_sq = cutoff_ * cutoff_;
      auto flush = [&] {
        field_block(xv, box, block.px, block.py, block.pz, block.mx, block.my, block.mz, block.radius, count, reach_sq,
                    interior, block.bx, block.by, block.bz);
        add_block(count);
        count = 0;
      };
      grid_.for_each_near(x, [&](size_t j) {
        block.px[count] = px_[j];
        block.py[count] = py_[j];
        block.pz[count] = pz_[j];
        block.mx[count] = mx_[j];
        block.my[count] = my_[j];
        block.mz[count] = mz_[j];
        block.radius[count] = radius_[j];
        if (++count == kBlock) flush();
      });
      if (count > 0) flush();
      break;
    }
    case DipoleMethod::Tree: {
      // The tree sums point dipoles; a sphere holding x trades its point-dipole term for the interior field.
      b = tree_.field_at(x);
      if (!interior) break;
      grid_.for_each_near(x, [&](size_t j) {
        const Vec3 d = x - position_[j];
        const double rsq = d.squaredNorm();
        const double big_r = radius_[j];
        if (!(rsq < big_r * big_r)) return;
        const Vec3 m(mx_[j], my_[j], mz_[j]);
        b += (2.0 * mu0_over_4pi / (big_r * big_r * big_r)) * m;
        if (rsq > 0.0) b -= dipole_field(d, m);  // the tree skipped a centre exactly at x
      });
      break;
    }
    case DipoleMethod::Ewald:
    case DipoleMethod::P3M: {
      // As the tree: the sum of point dipoles, in which a sphere holding x trades its nearest image's term for the
      // interior field (a centre exactly at x is already left out of field_at).
      b = method_ == DipoleMethod::P3M ? p3m_.field_at(x) : ewald_.field_at(x);
      if (slab_) b += layers_.field_at(x);
      if (!interior) break;
      grid_.for_each_near(x, [&](size_t j) {
        Vec3 d = x - position_[j];
        for (int a = 0; a < 3; ++a)
          if (periodic_length_[a] > 0.0) d[a] -= periodic_length_[a] * round_to_integer(d[a] / periodic_length_[a]);
        const double rsq = d.squaredNorm();
        const double big_r = radius_[j];
        if (!(rsq < big_r * big_r)) return;
        const Vec3 m(mx_[j], my_[j], mz_[j]);
        b += (2.0 * mu0_over_4pi / (big_r * big_r * big_r)) * m;
        if (rsq > 0.0) b -= dipole_field(d, m);
      });
      break;
    }
  }
  return b;
}

std::vector<Vec3> evaluate_field(const Model& model, const State& state, std::span<const Vec3> points,
                                 const FieldEvaluationSettings& settings, ThreadTeam& team) {
  const FieldEvaluator evaluator(model, state, settings);
  std::vector<Vec3> field(points.size());
  evaluator.evaluate(points, field, team);
  return field;
}

}  // namespace lodestone
