#include "engine/bodies/mass_properties.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace lodestone {
namespace {

bool any_overlap(const SphereUnion& s) {
  const size_t n = s.centre.size();
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      const double reach = s.radius[i] + s.radius[j];
      if ((s.centre[i] - s.centre[j]).norm() < reach * (1.0 - 1e-9)) return true;
    }
  return false;
}

// Plain sum of spheres, exact when none overlap.
MassProperties exact_sum(const SphereUnion& s) {
  MassProperties out;
  const size_t n = s.centre.size();
  std::vector<double> m(n);
  for (size_t i = 0; i < n; ++i) {
    m[i] = s.density[i] * sphere_volume(s.radius[i]);
    out.mass += m[i];
    out.centre += m[i] * s.centre[i];
  }
  out.centre /= out.mass;
  for (size_t i = 0; i < n; ++i) {
    const Vec3 d = s.centre[i] - out.centre;
    out.inertia +=
        (0.4 * m[i] * s.radius[i] * s.radius[i] + m[i] * d.squaredNorm()) * Mat3::Identity() - m[i] * d * d.transpose();
  }
  return out;
}

struct Interval {
  double lo, hi;
};

// Column integration: exact along z (intervals), midpoint rule over (x, y).
MassProperties column_integral(const SphereUnion& s, int cells_per_diameter) {
  const size_t n = s.centre.size();
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
  double r_min = INFINITY;
  for (size_t i = 0; i < n; ++i) {
    lo = lo.cwiseMin(s.centre[i] - Vec3::Constant(s.radius[i]));
    hi = hi.cwiseMax(s.centre[i] + Vec3::Constant(s.radius[i]));
    r_min = std::min(r_min, s.radius[i]);
  }
  const Vec3 ref = 0.5 * (lo + hi);  // moments about the box centre limit cancellation
  const double h = 2.0 * r_min / std::max(1, cells_per_diameter);
  const int nx = std::max(1, static_cast<int>(std::ceil((hi.x() - lo.x()) / h)));
  const int ny = std::max(1, static_cast<int>(std::ceil((hi.y() - lo.y()) / h)));
  const double hx = (hi.x() - lo.x()) / nx, hy = (hi.y() - lo.y()) / ny, area = hx * hy;

  double s0 = 0.0;
  Vec3 s1 = Vec3::Zero();
  Mat3 s2 = Mat3::Zero();
  std::vector<size_t> row;
  std::vector<Interval> covered, parts;
  for (int iy = 0; iy < ny; ++iy) {
    const double y = lo.y() + (iy + 0.5) * hy;
    row.clear();
    for (size_t k = 0; k < n; ++k)
      if (std::abs(y - s.centre[k].y()) < s.radius[k]) row.push_back(k);
    if (row.empty()) continue;
    for (int ix = 0; ix < nx; ++ix) {
      const double x = lo.x() + (ix + 0.5) * hx;
      covered.clear();
      double l0 = 0.0, l1 = 0.0, l2 = 0.0;  // integrals of rho, rho z, rho z^2 along the column (z from ref)
      for (size_t k : row) {                // index order: an overlap belongs to the first pebble covering it
        const double dx = x - s.centre[k].x(), dy = y - s.centre[k].y();
        const double q = s.radius[k] * s.radius[k] - dx * dx - dy * dy;
        if (q <= 0.0) continue;
        const double half = std::sqrt(q), zc = s.centre[k].z() - ref.z();
        // The part of [zc - half, zc + half] not yet covered.
        parts.assign(1, Interval{zc - half, zc + half});
        for (const Interval& c : covered) {
          std::vector<Interval> next;
          for (const Interval& p : parts) {
            if (c.hi <= p.lo || c.lo >= p.hi) {
              next.push_back(p);
              continue;
            }
            if (p.lo < c.lo) next.push_back({p.lo, c.lo});
            if (p.hi > c.hi) next.push_back({c.hi, p.hi});
          }
          parts.swap(next);
        }
        const double rho = s.density[k];
        for (const Interval& p : parts) {
          l0 += rho * (p.hi - p.lo);
          l1 += rho * 0.5 * (p.hi * p.hi - p.lo * p.lo);
          l2 += rho * (p.hi * p.hi * p.hi - p.lo * p.lo * p.lo) / 3.0;
        }
        covered.push_back({zc - half, zc + half});
      }
      if (l0 == 0.0) continue;
      const double rx = x - ref.x(), ry = y - ref.y();
      s0 += l0 * area;
      s1 += Vec3(rx * l0, ry * l0, l1) * area;
      // x^2 and y^2 over the cell: the centre value plus h^2/12.
      s2(0, 0) += (rx * rx + hx * hx / 12.0) * l0 * area;
      s2(1, 1) += (ry * ry + hy * hy / 12.0) * l0 * area;
      s2(2, 2) += l2 * area;
      s2(0, 1) += rx * ry * l0 * area;
      s2(0, 2) += rx * l1 * area;
      s2(1, 2) += ry * l1 * area;
    }
  }
  s2(1, 0) = s2(0, 1);
  s2(2, 0) = s2(0, 2);
  s2(2, 1) = s2(1, 2);
  MassProperties out;
  out.mass = s0;
  const Vec3 c = s1 / s0;  // centre relative to ref
  out.centre = ref + c;
  const Mat3 about_ref = s2.trace() * Mat3::Identity() - s2;
  out.inertia = about_ref - s0 * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  return out;
}

}  // namespace

MassProperties sphere_union_mass_properties(const SphereUnion& spheres, int cells_per_diameter, bool force_columns) {
  assert(!spheres.centre.empty() && spheres.radius.size() == spheres.centre.size() &&
         spheres.density.size() == spheres.centre.size());
  const bool overlapping = any_overlap(spheres);
  MassProperties out =
      (overlapping || force_columns) ? column_integral(spheres, cells_per_diameter) : exact_sum(spheres);
  out.overlapping = overlapping;
  return out;
}

PrincipalAxes principal_axes(const Mat3& inertia) {
  const Eigen::SelfAdjointEigenSolver<Mat3> solver(0.5 * (inertia + inertia.transpose()));
  Mat3 axes = solver.eigenvectors();
  if (axes.determinant() < 0.0) axes.col(2) = -axes.col(2);
  PrincipalAxes out;
  out.moments = solver.eigenvalues();
  out.rotation = Quat(axes);
  out.rotation.normalize();
  return out;
}

}  // namespace lodestone
