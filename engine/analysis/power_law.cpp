#include "engine/analysis/power_law.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

PowerLawFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y) {
  PowerLawFit fit;
  std::vector<double> u, v;
  const size_t n = std::min(x.size(), y.size());
  for (size_t k = 0; k < n; ++k) {
    if (!(x[k] > 0.0) || !(y[k] > 0.0) || !std::isfinite(x[k]) || !std::isfinite(y[k])) {
      ++fit.skipped;
      continue;
    }
    u.push_back(std::log(x[k]));
    v.push_back(std::log(y[k]));
    fit.x_min = u.size() == 1 ? x[k] : std::min(fit.x_min, x[k]);
    fit.x_max = u.size() == 1 ? x[k] : std::max(fit.x_max, x[k]);
  }
  fit.points = static_cast<int>(u.size());
  if (u.size() < 2) return fit;
  // Centred sums (numerically safer than the raw-moment formulas).
  double u_mean = 0.0, v_mean = 0.0;
  for (size_t k = 0; k < u.size(); ++k) {
    u_mean += u[k];
    v_mean += v[k];
  }
  u_mean /= static_cast<double>(u.size());
  v_mean /= static_cast<double>(u.size());
  double suu = 0.0, suv = 0.0;
  for (size_t k = 0; k < u.size(); ++k) {
    suu += (u[k] - u_mean) * (u[k] - u_mean);
    suv += (u[k] - u_mean) * (v[k] - v_mean);
  }
  if (!(suu > 0.0)) return fit;  // all x equal: no slope
  fit.ok = true;
  fit.exponent = suv / suu;
  const double intercept = v_mean - fit.exponent * u_mean;
  fit.prefactor = std::exp(intercept);
  if (u.size() > 2) {
    double ssr = 0.0;
    for (size_t k = 0; k < u.size(); ++k) {
      const double r = v[k] - intercept - fit.exponent * u[k];
      ssr += r * r;
    }
    fit.exponent_error = std::sqrt(ssr / static_cast<double>(u.size() - 2) / suu);
  }
  return fit;
}

}  // namespace lodestone
