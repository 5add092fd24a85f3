#include "engine/analysis/angles.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

namespace {
constexpr double kDegrees = 180.0 / pi;
}  // namespace

AxisAngles axis_angles(const Vec3& easy_axis, const Vec3& moment, const Vec3& field_direction) {
  // atan2(|a x b|, a.b) rather than acos(a.b): accurate near 0 and 180 deg, and no normalising.
  // The pole nearer the field; across the field (to rounding: a turned frame leaves n.b ~ 1e-17
  // for a right angle), the pole nearer the moment.
  const double nb = easy_axis.dot(field_direction);
  const double mn = moment.dot(easy_axis);
  const bool across = std::abs(nb) <= 1e-12 * easy_axis.norm() * field_direction.norm();
  const double pole = across ? (mn >= 0.0 ? 1.0 : -1.0) : nb > 0.0 ? 1.0 : -1.0;
  AxisAngles a;
  a.theta = std::atan2(easy_axis.cross(field_direction).norm(), std::abs(nb));
  a.psi = std::atan2(moment.cross(easy_axis).norm(), pole * mn);
  return a;
}

int angle_bin(double degrees, int bins) {
  // Clamped in double, then cast: a NaN or huge angle must not reach the cast (undefined behaviour).
  const double k = std::floor(degrees / kAngleBinDegrees);
  if (!(k >= 0.0)) return 0;
  return static_cast<int>(std::min(k, bins - 1.0));
}

AngleHistograms angle_histograms(const Particles& p, const Vec3& field_direction) {
  AngleHistograms h;
  std::array<std::int64_t, kThetaBins> theta_count{};
  std::array<std::int64_t, kPsiBins> psi_count{};
  double theta_sum = 0.0, psi_sum = 0.0;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p.moment[i].squaredNorm() == 0.0) continue;
    const AxisAngles a = axis_angles(p.easy_axis(i), p.moment[i], field_direction);
    const double theta = a.theta * kDegrees, psi = a.psi * kDegrees;
    // A moment or axis that is not finite (a run that blew up, which its health check reports) has no
    // angle; counting it would make every mean NaN (found by fuzzing a checkpoint, docs/reliability.md).
    if (!std::isfinite(theta) || !std::isfinite(psi)) continue;
    ++theta_count[static_cast<size_t>(angle_bin(theta, kThetaBins))];
    ++psi_count[static_cast<size_t>(angle_bin(psi, kPsiBins))];
    theta_sum += theta;
    psi_sum += psi;
    ++h.particles;
  }
  if (h.particles == 0) return h;
  const double n = static_cast<double>(h.particles);
  for (size_t k = 0; k < h.theta.size(); ++k) h.theta[k] = static_cast<double>(theta_count[k]) / n;
  for (size_t k = 0; k < h.psi.size(); ++k) h.psi[k] = static_cast<double>(psi_count[k]) / n;
  h.mean_theta = theta_sum / n;
  h.mean_psi = psi_sum / n;
  return h;
}

}  // namespace lodestone
