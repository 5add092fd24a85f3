#include "engine/magnetic/ewald.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace lodestone {
namespace {

constexpr double kSqrtPi = 1.7724538509055160273;

// Particles per thread below which the per-target pass stays on one thread.
constexpr size_t kTargetGrain = 32;

}  // namespace

double ewald_tail_fraction(double x) {
  const double x2 = x * x;
  return std::erfc(x) + 2.0 * x / kSqrtPi * (1.0 + 2.0 * x2 / 3.0 + 4.0 * x2 * x2 / 15.0) * std::exp(-x2);
}

EwaldSplitting ewald_splitting_for_alpha(double accuracy, double alpha) {
  // Bisection: the fraction falls monotonically from 1 at x = 0; at x = 9 it is ~1e-31, beyond any accuracy
  // a double sum can reach.
  double lo = 0.0, hi = 9.0;
  for (int it = 0; it < 100; ++it) {
    const double mid = 0.5 * (lo + hi);
    (ewald_tail_fraction(mid) > accuracy ? lo : hi) = mid;
  }
  EwaldSplitting s;
  s.alpha = alpha;
  s.real_cutoff = hi / alpha;
  s.k_cutoff = 2.0 * alpha * hi;
  return s;
}

EwaldSplitting choose_ewald_splitting(double accuracy, const Vec3& box_length, size_t particle_count) {
  const double volume = box_length.x() * box_length.y() * box_length.z();
  const double n = static_cast<double>(std::max<size_t>(particle_count, 1));
  return ewald_splitting_for_alpha(accuracy, kSqrtPi * std::pow(n / (volume * volume), 1.0 / 6.0));
}

void EwaldSum::build(const EwaldSystem& system, ThreadTeam* team) {
  assert(system.position.size() == system.moment.size());
  assert(system.clump.empty() || system.clump.size() == system.position.size());
  position_.assign(system.position.begin(), system.position.end());
  moment_.assign(system.moment.begin(), system.moment.end());
  clump_.assign(system.clump.begin(), system.clump.end());
  length_ = system.box_length;
  split_ = system.split;
  surroundings_ = system.surroundings;
  volume_ = length_.x() * length_.y() * length_.z();
  table_stride_ = 0;
  for (int a = 0; a < 3; ++a) {
    n_max_[a] = static_cast<int>(std::floor(split_.k_cutoff * length_[a] / (2.0 * pi)));
    // |d_a + s L_a| >= |s| L_a - L_a/2 for a minimum-image d: shifts beyond rc/L + 1/2 are all out of reach.
    images_[a] = static_cast<int>(std::floor(split_.real_cutoff / length_[a] + 0.5));
    table_stride_ += static_cast<size_t>(2 * n_max_[a] + 1);
  }
  const size_t n = position_.size();
  phases_.resize(n * table_stride_);
  total_moment_ = Vec3::Zero();
  for (size_t i = 0; i < n; ++i) {
    fill_phases(position_[i], phases_.data() + i * table_stride_);
    total_moment_ += moment_[i];
  }

  // The half space (k and -k give the same term): nx > 0, or nx = 0 and ny > 0, or nx = ny = 0 and nz > 0.
  k_.clear();
  const double kc_sq = split_.k_cutoff * split_.k_cutoff;
  const double four_alpha_sq = 4.0 * split_.alpha * split_.alpha;
  for (int nx = 0; nx <= n_max_[0]; ++nx)
    for (int ny = nx == 0 ? 0 : -n_max_[1]; ny <= n_max_[1]; ++ny)
      for (int nz = (nx == 0 && ny == 0) ? 1 : -n_max_[2]; nz <= n_max_[2]; ++nz) {
        KVector kv;
        kv.n[0] = nx;
        kv.n[1] = ny;
        kv.n[2] = nz;
        kv.k = 2.0 * pi * Vec3(nx / length_.x(), ny / length_.y(), nz / length_.z());
        const double ksq = kv.k.squaredNorm();
        if (ksq > kc_sq) continue;
        kv.weight = mu0_over_4pi * 8.0 * pi / volume_ * std::exp(-ksq / four_alpha_sq) / ksq;
        k_.push_back(kv);
      }

  // S(k) = sum_j (mj.k) exp(i k.xj), each k summed over the particles in index order.
  auto structure_factors = [&](size_t begin, size_t end) {
    for (size_t q = begin; q < end; ++q) {
      KVector& kv = k_[q];
      std::complex<double> s = 0.0;
      for (size_t j = 0; j < n; ++j) s += moment_[j].dot(kv.k) * phase(phases_.data() + j * table_stride_, kv);
      kv.s_re = s.real();
      kv.s_im = s.imag();
    }
  };
  if (team)
    for_each_range(*team, k_.size(), 16, structure_factors);
  else
    structure_factors(0, k_.size());
}

void EwaldSum::fill_phases(const Vec3& x, std::complex<double>* table) const {
  for (int a = 0; a < 3; ++a) {
    const int nm = n_max_[a];
    const double theta = 2.0 * pi * x[a] / length_[a];
    for (int q = 0; q <= nm; ++q) {
      const std::complex<double> e = std::polar(1.0, q * theta);
      table[nm + q] = e;
      table[nm - q] = std::conj(e);
    }
    table += 2 * nm + 1;
  }
}

std::complex<double> EwaldSum::phase(const std::complex<double>* table, const KVector& kv) const {
  const std::complex<double>* ty = table + (2 * n_max_[0] + 1);
  const std::complex<double>* tz = ty + (2 * n_max_[1] + 1);
  return table[n_max_[0] + kv.n[0]] * ty[n_max_[1] + kv.n[1]] * tz[n_max_[2] + kv.n[2]];
}

void EwaldSum::real_space(const Vec3& x, const Vec3* m_target, long self, Vec3& force, Vec3& field) const {
  const double alpha = split_.alpha;
  const double alpha_sq = alpha * alpha;
  const double rc_sq = split_.real_cutoff * split_.real_cutoff;
  const double c = mu0_over_4pi;
  // The Gaussian part's own field at its centre: the k sum holds it for every particle, a point dipole has none
  // (U_self = -1/2 m.B_self).
  const double self_field = c * 4.0 * alpha_sq * alpha / (3.0 * kSqrtPi);
  const bool clumped = self >= 0 && !clump_.empty() && clump_[static_cast<size_t>(self)] >= 0;
  // Adds the pair term of moment mj at separation r (target minus source); bare: 1/r^3, 3/r^5, 15/r^7, scaled by sign.
  auto add = [&](const Vec3& r, const Vec3& mj, double rsq, bool bare, double sign) {
    const double inv_rsq = 1.0 / rsq;
    const double dist = std::sqrt(rsq);
    double b, cc, d;
    if (bare) {
      b = inv_rsq / dist;
      cc = 3.0 * b * inv_rsq;
      d = 5.0 * cc * inv_rsq;
    } else {
      // B_l = [(2l - 1) B_(l-1) + (2 alpha^2)^l / (alpha sqrt(pi)) exp(-alpha^2 r^2)] / r^2, B_0 = erfc(alpha r)/r.
      const double g = std::exp(-alpha_sq * rsq) / (alpha * kSqrtPi);
      const double b0 = std::erfc(alpha * dist) / dist;
      b = (b0 + 2.0 * alpha_sq * g) * inv_rsq;
      cc = (3.0 * b + 4.0 * alpha_sq * alpha_sq * g) * inv_rsq;
      d = (5.0 * cc + 8.0 * alpha_sq * alpha_sq * alpha_sq * g) * inv_rsq;
    }
    const double mj_r = mj.dot(r);
    field += (sign * c) * (cc * mj_r * r - b * mj);
    if (m_target) {
      const Vec3& mi = *m_target;
      const double mi_r = mi.dot(r);
      force += (sign * c) * (cc * (mi.dot(mj) * r + mj_r * mi + mi_r * mj) - d * mi_r * mj_r * r);
    }
  };
  const size_t n = position_.size();
  const int ix = images_[0], iy = images_[1], iz = images_[2];
  for (size_t j = 0; j < n; ++j) {
    Vec3 d0 = x - position_[j];
    for (int a = 0; a < 3; ++a) d0[a] -= length_[a] * round_to_integer(d0[a] / length_[a]);
    const Vec3& mj = moment_[j];
    for (int sx = -ix; sx <= ix; ++sx)
      for (int sy = -iy; sy <= iy; ++sy)
        for (int sz = -iz; sz <= iz; ++sz) {
          const Vec3 r = d0 + Vec3(sx * length_.x(), sy * length_.y(), sz * length_.z());
          const double rsq = r.squaredNorm();
          const bool nearest = sx == 0 && sy == 0 && sz == 0;
          if ((nearest && static_cast<long>(j) == self) || rsq == 0.0) {
            if (nearest) field += self_field * mj;  // the target itself, or a centre exactly at a free point
            continue;
          }
          if (rsq > rc_sq) continue;
          add(r, mj, rsq, false, 1.0);
        }
    // A pebble of the target's clump: its nearest image does not act (the erfc part above and the Gaussian part
    // in the k sum together make the bare term, which is taken off).
    if (clumped && static_cast<long>(j) != self && clump_[j] == clump_[static_cast<size_t>(self)]) {
      const double rsq = d0.squaredNorm();
      if (rsq > 0.0) add(d0, mj, rsq, true, -1.0);
    }
  }
}

double EwaldSum::add_particle_terms(Vec3* force, Vec3* field, ThreadTeam& team) const {
  const size_t n = position_.size();
  std::vector<Vec3> b(n, Vec3::Zero());
  const Vec3 surface_field = surroundings_ == EwaldSurroundings::Vacuum
                                 ? Vec3(-mu0_over_4pi * 4.0 * pi / (3.0 * volume_) * total_moment_)
                                 : Vec3::Zero();
  for_each_range(team, n, kTargetGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const Vec3& mi = moment_[i];
      Vec3 f = Vec3::Zero(), bi = Vec3::Zero();
      real_space(position_[i], &mi, static_cast<long>(i), f, bi);
      const std::complex<double>* table = phases_.data() + i * table_stride_;
      for (const KVector& kv : k_) {
        const std::complex<double> e = phase(table, kv);
        const double in_phase = kv.s_re * e.real() + kv.s_im * e.imag();    // Re(S* e^{ik.x})
        const double quadrature = kv.s_re * e.imag() - kv.s_im * e.real();  // Im(S* e^{ik.x})
        f += (kv.weight * mi.dot(kv.k) * quadrature) * kv.k;
        bi -= (kv.weight * in_phase) * kv.k;
      }
      bi += surface_field;
      if (force) force[i] += f;
      b[i] = bi;
    }
  });
  // U = -1/2 sum_i mi.B_i: every term of the sum is bilinear in the moments.
  double energy = 0.0;
  for (size_t i = 0; i < n; ++i) {
    energy -= 0.5 * moment_[i].dot(b[i]);
    if (field) field[i] += b[i];
  }
  return energy;
}

Vec3 EwaldSum::field_at(const Vec3& x) const {
  Vec3 unused = Vec3::Zero(), b = Vec3::Zero();
  real_space(x, nullptr, -1, unused, b);
  std::vector<std::complex<double>> table(table_stride_);
  fill_phases(x, table.data());
  for (const KVector& kv : k_) {
    const std::complex<double> e = phase(table.data(), kv);
    b -= (kv.weight * (kv.s_re * e.real() + kv.s_im * e.imag())) * kv.k;
  }
  if (surroundings_ == EwaldSurroundings::Vacuum) b -= mu0_over_4pi * 4.0 * pi / (3.0 * volume_) * total_moment_;
  return b;
}

}  // namespace lodestone
