#include "engine/magnetic/point_grid.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace lodestone {
namespace {

// Coordinate x along a periodic axis taken into [origin, origin + length).
double wrap_into_grid(double x, double origin, double length) {
  double w = x - length * std::floor((x - origin) / length);
  if (w >= origin + length) w = origin;
  return w;
}

}  // namespace

void PointGrid::build(std::span<const Vec3> centre, double reach, const Vec3& periodic_length, const Vec3& box_min) {
  assert(reach > 0.0);
  const size_t n = centre.size();
  assert(n < std::numeric_limits<std::uint32_t>::max());
  length_ = periodic_length;
  for (int a = 0; a < 3; ++a) {
    const auto axis = static_cast<size_t>(a);
    periodic_[axis] = periodic_length[a] > 0.0;
    if (periodic_[axis]) {
      origin_[a] = box_min[a];
      count_[axis] = std::max(1, static_cast<int>(std::min(1e6, std::floor(periodic_length[a] / reach))));
      width_[a] = periodic_length[a] / count_[axis];
      continue;
    }
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const Vec3& x : centre) {
      if (!std::isfinite(x[a])) continue;
      lo = std::min(lo, x[a]);
      hi = std::max(hi, x[a]);
    }
    if (!(lo <= hi)) lo = hi = 0.0;  // no particle, or none with a finite coordinate
    const double extent = hi - lo;
    origin_[a] = lo;
    count_[axis] = std::max(1, static_cast<int>(std::min(1e6, std::floor(extent / reach))));
    width_[a] = count_[axis] == 1 ? std::max(extent, reach) : extent / count_[axis];
  }
  // A sparse scene gets wider cells: at most about 4 per particle.
  const double most = 4.0 * static_cast<double>(n) + 64.0;
  while (static_cast<double>(count_[0]) * count_[1] * count_[2] > most) {
    const auto a = static_cast<size_t>(std::max_element(count_.begin(), count_.end()) - count_.begin());
    const int halved = (count_[a] + 1) / 2;
    if (periodic_[a]) {
      width_[static_cast<int>(a)] = length_[static_cast<int>(a)] / halved;
    } else {
      width_[static_cast<int>(a)] *= static_cast<double>(count_[a]) / halved;
    }
    count_[a] = halved;
  }
  // Counting sort of the particles by cell.
  const size_t cells = static_cast<size_t>(count_[0]) * static_cast<size_t>(count_[1]) * static_cast<size_t>(count_[2]);
  std::vector<std::uint32_t> cell_of(n);
  start_.assign(cells + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    int c[3];
    for (int a = 0; a < 3; ++a) {
      double x = centre[i][a];
      if (periodic_[static_cast<size_t>(a)]) x = wrap_into_grid(x, origin_[a], length_[a]);
      const double t = std::clamp(std::floor((x - origin_[a]) / width_[a]), 0.0,
                                  static_cast<double>(count_[static_cast<size_t>(a)] - 1));
      c[a] = std::isfinite(t) ? static_cast<int>(t) : 0;  // a NaN centre (a run that blew up) goes to cell 0
    }
    cell_of[i] = static_cast<std::uint32_t>(cell_index(c[0], c[1], c[2]));
    ++start_[cell_of[i] + 1];
  }
  for (size_t c = 0; c < cells; ++c) start_[c + 1] += start_[c];
  members_.resize(n);
  std::vector<std::uint32_t> next(start_.begin(), start_.end() - 1);
  for (size_t i = 0; i < n; ++i) members_[next[cell_of[i]]++] = static_cast<std::uint32_t>(i);
}

bool PointGrid::cell_range(const Vec3& x, std::array<int, 3>& lo, std::array<int, 3>& hi) const {
  if (members_.empty()) return false;
  for (int a = 0; a < 3; ++a) {
    const auto axis = static_cast<size_t>(a);
    const int n = count_[axis];
    if (!std::isfinite(x[a])) return false;
    if (periodic_[axis]) {
      if (n < 3) {
        lo[axis] = 0;
        hi[axis] = n - 1;
        continue;
      }
      const double w = wrap_into_grid(x[a], origin_[a], length_[a]);
      const int c = std::min(n - 1, static_cast<int>(std::floor((w - origin_[a]) / width_[a])));
      lo[axis] = c - 1;
      hi[axis] = c + 1;
      continue;
    }
    // Far points are clamped before the conversion to int; they find no cell.
    const double t = std::clamp(std::floor((x[a] - origin_[a]) / width_[a]), -2.0, static_cast<double>(n) + 1.0);
    const int c = static_cast<int>(t);
    lo[axis] = std::max(0, c - 1);
    hi[axis] = std::min(n - 1, c + 1);
    if (lo[axis] > hi[axis]) return false;
  }
  return true;
}

}  // namespace lodestone
