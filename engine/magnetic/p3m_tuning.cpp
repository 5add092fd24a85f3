#include "engine/magnetic/p3m_tuning.hpp"

#include "engine/magnetic/p3m_mesh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace lodestone {
namespace {

using p3m_detail::axis_tables;
using p3m_detail::AxisTables;
using p3m_detail::kMaxOrder;

// The mesh part's Q of the k-space error estimate (header), the k vectors sampled with a stride per axis (the
// summand is smooth in k) and reweighted. Uses D = k without zeroing the Nyquist slots, as CBLH do.
double mesh_error_q(const int mesh[3], const Vec3& length, int order, double alpha) {
  AxisTables ax[3];
  std::vector<std::array<double, 3>> ex[3];  // exp(-k_a^2 / 4 alpha^2) per axis and alias (separable)
  const double inv4a2 = 1.0 / (4.0 * alpha * alpha);
  int stride[3];
  double weight = 1.0;
  for (int a = 0; a < 3; ++a) {
    ax[a] = axis_tables(mesh[a], length[a], order);
    ex[a].resize(static_cast<size_t>(mesh[a]));
    for (int i = 0; i < mesh[a]; ++i)
      for (int m = 0; m < 3; ++m) ex[a][i][m] = std::exp(-ax[a].k[i][m] * ax[a].k[i][m] * inv4a2);
    stride[a] = std::max(1, mesh[a] / 32);
    weight *= stride[a];
  }
  // The summand is even in each k_a (the aliases of -k_a are those of k_a negated): the octant k_a >= 0, slots
  // 0..N/2 counted twice except 0 and the Nyquist slot.
  auto axis_weight = [&](int a, int i) { return (i == 0 || 2 * i == mesh[a]) ? 1.0 : 2.0; };
  double q = 0.0;
  for (int ix = 0; ix <= mesh[0] / 2; ix += stride[0])
    for (int iy = 0; iy <= mesh[1] / 2; iy += stride[1])
      for (int iz = 0; iz <= mesh[2] / 2; iz += stride[2]) {
        if (ix == 0 && iy == 0 && iz == 0) continue;
        const double w = axis_weight(0, ix) * axis_weight(1, iy) * axis_weight(2, iz);
        const double kx = ax[0].k[ix][1], ky = ax[1].k[iy][1], kz = ax[2].k[iz][1];
        const double ksq = kx * kx + ky * ky + kz * kz;
        double alias1 = 0.0, alias2 = 0.0, u2sum = 0.0;
        for (int mx = 0; mx < 3; ++mx) {
          const double kmx = ax[0].k[ix][mx];
          for (int my = 0; my < 3; ++my) {
            const double kmy = ax[1].k[iy][my];
            const double exy = ex[0][ix][mx] * ex[1][iy][my];
            const double uxy = ax[0].u2[ix][mx] * ax[1].u2[iy][my];
            for (int mz = 0; mz < 3; ++mz) {
              const double kmz = ax[2].k[iz][mz];
              const double kmsq = kmx * kmx + kmy * kmy + kmz * kmz;
              const double e = exy * ex[2][iz][mz];
              const double u2 = uxy * ax[2].u2[iz][mz];
              const double dot = kx * kmx + ky * kmy + kz * kmz;
              alias1 += e * e * kmsq;
              alias2 += u2 * e * dot * dot * dot / kmsq;
              u2sum += u2;
            }
          }
        }
        q += w * (alias1 - alias2 * alias2 / (u2sum * u2sum * ksq * ksq * ksq));
      }
  return std::max(q, 0.0) * weight;
}

double real_space_error(double alpha, double rc, double volume, double n, double sum_m2) {
  const double ar2 = alpha * alpha * rc * rc;
  const double cc = 4.0 * ar2 * ar2 + 6.0 * ar2 + 3.0;
  const double dd = 8.0 * ar2 * ar2 * ar2 + 20.0 * ar2 * ar2 + 30.0 * ar2 + 15.0;
  const double a4 = alpha * alpha * alpha * alpha;
  return mu0_over_4pi * sum_m2 * std::exp(-ar2) / std::sqrt(volume * a4 * std::pow(rc, 9) * n) *
         std::sqrt(std::max(13.0 / 6.0 * cc * cc + 2.0 / 15.0 * dd * dd - 13.0 / 15.0 * cc * dd, 0.0));
}

// Mesh sizes tried by the tuning (FFTW is fast on products of 2, 3, 5, 7), growing by about 15 %.
const std::vector<int>& fft_sizes() {
  static const std::vector<int> sizes = {8,   10,  12,  14,  16,  18,  20,  24,  28,  32,  36,  40,
                                         48,  56,  64,  72,  80,  96,  112, 128, 144, 160, 192, 224,
                                         256, 288, 320, 384, 448, 512, 576, 640, 768, 896, 1024};
  return sizes;
}

int fft_size_at_least(double n) {
  for (int s : fft_sizes())
    if (s >= n) return s;
  return fft_sizes().back();
}

}  // namespace

double P3MErrorEstimate::total() const {
  return std::sqrt(real * real + mesh * mesh);
}

double p3m_force_scale(const Vec3& box_length, size_t particle_count, double sum_m2) {
  const double n = static_cast<double>(std::max<size_t>(particle_count, 1));
  const double volume = box_length.x() * box_length.y() * box_length.z();
  const double spacing = std::cbrt(volume / n);
  return mu0_over_4pi * (sum_m2 / n) / std::pow(spacing, 4);
}

P3MErrorEstimate p3m_error_estimate(const P3MTuning& t, const Vec3& box_length, size_t particle_count, double sum_m2) {
  const double n = static_cast<double>(std::max<size_t>(particle_count, 1));
  const double volume = box_length.x() * box_length.y() * box_length.z();
  P3MErrorEstimate e;
  e.real = real_space_error(t.alpha, t.real_cutoff, volume, n, sum_m2);
  e.mesh = mu0_over_4pi * 4.0 * pi * sum_m2 / (3.0 * volume) *
           std::sqrt(mesh_error_q(t.mesh, box_length, t.order, t.alpha) / n);
  return e;
}

namespace {
P3MTuning tune(double accuracy, const Vec3& box_length, size_t particle_count);
}  // namespace

P3MTuning choose_p3m_tuning(double accuracy, const Vec3& box_length, size_t particle_count) {
  // The tuning takes 0.1 to a few seconds; a model is prepared again on every edit (a field strength, a time
  // step), with the same box and count: the last few results are kept. The result depends only on the key.
  using Key = std::tuple<double, double, double, double, size_t>;
  static std::mutex mutex;
  static std::map<Key, P3MTuning> cache;
  const Key key{accuracy, box_length.x(), box_length.y(), box_length.z(), particle_count};
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  const P3MTuning t = tune(accuracy, box_length, particle_count);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 16) cache.clear();
  cache.emplace(key, t);
  return t;
}

namespace {

P3MTuning tune(double accuracy, const Vec3& box_length, size_t particle_count) {
  // Everything scales with <m^2>: take unit moments, F0 = c / a^4.
  const double n = static_cast<double>(std::max<size_t>(particle_count, 1));
  const double sum_m2 = n;
  const double volume = box_length.x() * box_length.y() * box_length.z();
  const double target = accuracy * p3m_force_scale(box_length, particle_count, sum_m2);
  const double part_target = target / std::sqrt(2.0);
  const double min_length = box_length.minCoeff();
  const double density = n / volume;
  // Estimated cost per pass [arbitrary units ~ ns]: per real-space pair (each visited from both ends), per mesh
  // point of a particle's stencil (3 components spread, 9 gathered), per mesh point and FFT (12 of them).
  constexpr double kPair = 21.0, kStencil = 1.25, kFft = 1.5;
  P3MTuning best;
  double best_cost = INFINITY;
  for (int order = 2; order <= kMaxOrder; ++order) {
    double previous_cost = INFINITY;
    // Mesh spacing from coarse to fine: points per axis along the shortest side.
    for (int base : fft_sizes()) {
      if (base < 2 * order) continue;
      P3MTuning t;
      t.order = order;
      const double h = min_length / base;
      for (int a = 0; a < 3; ++a) t.mesh[a] = fft_size_at_least(box_length[a] / h - 1e-9);
      const double points = static_cast<double>(t.mesh[0]) * t.mesh[1] * t.mesh[2];
      if (points > 8.0 * n + 262144.0) break;  // far beyond one point per particle: no better choice ahead
      // The largest alpha whose mesh error is within its share (the mesh error grows with alpha): bisection on
      // log alpha between alpha L = 0.5 and alpha h = 4.
      double lo = std::log(0.5 / min_length), hi = std::log(4.0 / h);
      auto mesh_error = [&](double alpha) {
        t.alpha = alpha;
        return mu0_over_4pi * 4.0 * pi * sum_m2 / (3.0 * volume) *
               std::sqrt(mesh_error_q(t.mesh, box_length, order, alpha) / n);
      };
      if (mesh_error(std::exp(lo)) > part_target) continue;  // this mesh cannot reach the accuracy
      for (int it = 0; it < 10; ++it) {
        const double mid = 0.5 * (lo + hi);
        (mesh_error(std::exp(mid)) <= part_target ? lo : hi) = mid;
      }
      t.alpha = std::exp(lo);
      // The smallest cutoff whose real-space error is within its share (decreasing in rc).
      double rlo = 0.0, rhi = 12.0 / t.alpha;
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (rlo + rhi);
        (real_space_error(t.alpha, mid, volume, n, sum_m2) > part_target ? rlo : rhi) = mid;
      }
      t.real_cutoff = rhi;
      const double pairs = n * density * 4.0 * pi / 3.0 * std::pow(t.real_cutoff, 3);
      const double cost = kPair * pairs + kStencil * n * 12.0 * order * order * order +
                          kFft * 12.0 * points * std::log2(std::max(points, 2.0));
      if (cost < best_cost) {
        best_cost = cost;
        best = t;
      }
      // Finer meshes only add FFT work once the real-space part is small: stop once the cost rises and is well
      // above the best.
      if (cost > previous_cost && cost > 1.5 * best_cost) break;
      previous_cost = cost;
    }
  }
  if (best.order == 0) {
    // Nothing reached the accuracy within the mesh sizes tried: the finest mesh at order 7 (reported below).
    best.order = kMaxOrder;
    const int base = fft_size_at_least(std::cbrt(4.0 * n) + 16);
    for (int a = 0; a < 3; ++a) best.mesh[a] = fft_size_at_least(base * box_length[a] / min_length - 1e-9);
    best.alpha = 1.0 / min_length;
    best.real_cutoff = 0.5 * min_length;
  }
  best.estimated_error = p3m_error_estimate(best, box_length, particle_count, sum_m2).total() /
                         p3m_force_scale(box_length, particle_count, sum_m2);
  return best;
}

}  // namespace

}  // namespace lodestone
