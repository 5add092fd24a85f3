#include "engine/magnetic/dlc.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <complex>
#include <vector>

namespace lodestone {
namespace {

struct Slab {
  double z_mid = 0.0;
  double thickness = 0.0;
};

Slab slab_of(std::span<const Vec3> position) {
  Slab s;
  if (position.empty()) return s;
  double lo = position[0].z(), hi = lo;
  for (const Vec3& x : position) {
    lo = std::min(lo, x.z());
    hi = std::max(hi, x.z());
  }
  s.z_mid = 0.5 * (lo + hi);
  s.thickness = hi - lo;
  return s;
}

}  // namespace

double dlc_mode_cutoff(const DlcSystem& system) {
  const double gap = system.box_length.z() - slab_of(system.position).thickness;
  if (!(gap > 0.0)) return INFINITY;
  // A mode's force and field terms are at most ~k^2 e^{kh} / (e^{k Lz} - 1) ~ k^2 e^{-k gap}, and the modes on a
  // ring of radius k number ~k: relative to the first mode k1, (k/k1)^3 e^{-(k - k1) gap}. The smallest k_c where
  // that falls to the accuracy (it decreases beyond k = 3/gap).
  const double k1 = 2.0 * pi / std::max(system.box_length.x(), system.box_length.y());
  auto relative = [&](double k) { return std::pow(k / k1, 3) * std::exp(-(k - k1) * gap); };
  double kc = std::max(k1, 3.0 / gap);
  while (relative(kc) > system.accuracy) kc += 0.125 * k1;
  return kc;
}

void LayerCorrection::build(const DlcSystem& system) {
  assert(system.position.size() == system.moment.size());
  position_.assign(system.position.begin(), system.position.end());
  moment_.assign(system.moment.begin(), system.moment.end());
  const size_t n = position_.size();
  const double lx = system.box_length.x(), ly = system.box_length.y(), lz = system.box_length.z();
  const double area = lx * ly;
  volume_ = area * lz;
  z_mid_ = slab_of(system.position).z_mid;
  mz_ = 0.0;
  for (const Vec3& m : moment_) mz_ += m.z();
  const double kc = dlc_mode_cutoff(system);
  assert(std::isfinite(kc));
  const int nx_max = static_cast<int>(std::floor(kc * lx / (2.0 * pi)));
  const int ny_max = static_cast<int>(std::floor(kc * ly / (2.0 * pi)));
  modes_.clear();
  // Half of the modes (k and -k give complex-conjugate terms): nx > 0, or nx = 0 and ny > 0; each counted twice.
  for (int nx = 0; nx <= nx_max; ++nx)
    for (int ny = nx == 0 ? 1 : -ny_max; ny <= ny_max; ++ny) {
      Mode md;
      md.kx = 2.0 * pi * nx / lx;
      md.ky = 2.0 * pi * ny / ly;
      md.k = std::hypot(md.kx, md.ky);
      if (md.k > kc) continue;
      // -1/(k (e^{k Lz} - 1)), times 2 pi / A for the half space (pi / A over all k). The minus: a pair's energy is
      // (m_i.grad_i)(m_j.grad_j) of the charge Green's function, and grad_j = -g_s on these modes.
      md.w = -2.0 * pi / area / (md.k * std::expm1(md.k * lz));
      for (int si = 0; si < 2; ++si) {
        const double s = si == 0 ? 1.0 : -1.0;
        std::complex<double> p = 0.0, q = 0.0;
        for (size_t j = 0; j < n; ++j) {
          const Vec3& m = moment_[j];
          // m.g_s = i (m_x kx + m_y ky) + s k m_z
          const std::complex<double> mg(s * md.k * m.z(), m.x() * md.kx + m.y() * md.ky);
          const std::complex<double> e = std::polar(1.0, md.kx * position_[j].x() + md.ky * position_[j].y());
          const double grow = std::exp(s * md.k * (position_[j].z() - z_mid_));
          p += mg * (e * grow);
          q += mg * (std::conj(e) / grow);
        }
        md.p[si] = p;
        md.q[si] = q;
      }
      modes_.push_back(md);
    }
}

double LayerCorrection::add_particle_terms(Vec3* force, Vec3* field) const {
  const double c = mu0_over_4pi;
  using C = std::complex<double>;
  double u_img = 0.0;
  for (const Mode& md : modes_)
    for (int si = 0; si < 2; ++si) u_img += md.w * (md.p[si] * md.q[si]).real();
  for (size_t i = 0; i < position_.size(); ++i) {
    Vec3 d_dm = Vec3::Zero(), d_dr = Vec3::Zero();  // dU_img/dm_i, dU_img/dr_i
    const Vec3& m = moment_[i];
    for (const Mode& md : modes_) {
      const C e = std::polar(1.0, md.kx * position_[i].x() + md.ky * position_[i].y());
      for (int si = 0; si < 2; ++si) {
        const double s = si == 0 ? 1.0 : -1.0;
        const C gx(0.0, md.kx), gy(0.0, md.ky), gz(s * md.k, 0.0);
        const double grow = std::exp(s * md.k * (position_[i].z() - z_mid_));
        const C e_plus = e * grow, e_minus = std::conj(e) / grow;
        const C a = e_plus * md.q[si] + e_minus * md.p[si];  // d(P Q)/d(m_i.g_s)
        d_dm += md.w * Vec3((gx * a).real(), (gy * a).real(), (gz * a).real());
        const C mg = m.x() * gx + m.y() * gy + m.z() * gz;
        const C b = mg * (e_plus * md.q[si] - e_minus * md.p[si]);  // d(P Q)/dr_i = g_s times this
        d_dr += md.w * Vec3((gx * b).real(), (gy * b).real(), (gz * b).real());
      }
    }
    // B = -dU/dm_i and F = -dU/dr_i of U = -c U_img + c 2 pi Mz^2 / V.
    if (field) field[i] += c * d_dm - Vec3(0.0, 0.0, c * 4.0 * pi * mz_ / volume_);
    if (force) force[i] += c * d_dr;
  }
  return -c * u_img + c * 2.0 * pi * mz_ * mz_ / volume_;
}

Vec3 LayerCorrection::field_at(const Vec3& x) const {
  using C = std::complex<double>;
  Vec3 b = Vec3::Zero();
  for (const Mode& md : modes_) {
    const C e = std::polar(1.0, md.kx * x.x() + md.ky * x.y());
    for (int si = 0; si < 2; ++si) {
      const double s = si == 0 ? 1.0 : -1.0;
      const C gx(0.0, md.kx), gy(0.0, md.ky), gz(s * md.k, 0.0);
      const double grow = std::exp(s * md.k * (x.z() - z_mid_));
      const C a = e * grow * md.q[si] + std::conj(e) / grow * md.p[si];
      b += md.w * Vec3((gx * a).real(), (gy * a).real(), (gz * a).real());
    }
  }
  return mu0_over_4pi * b - Vec3(0.0, 0.0, mu0_over_4pi * 4.0 * pi * mz_ / volume_);
}

double add_dlc_correction(const DlcSystem& system, Vec3* force, Vec3* field) {
  LayerCorrection lc;
  lc.build(system);
  return lc.add_particle_terms(force, field);
}

}  // namespace lodestone
