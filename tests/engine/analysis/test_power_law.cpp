// Power-law fits (engine/analysis/power_law.hpp): exact data, a small case worked out by hand, and the
// standard error of the exponent against the spread of exponents over many noisy data sets.

#include "engine/analysis/power_law.hpp"
#include "engine/core/random.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace lodestone;

TEST_CASE("a power law through exact points is recovered", "[clusters][power_law]") {
  std::vector<double> x, y;
  for (double v : {0.5, 1.0, 3.0, 10.0, 250.0}) {
    x.push_back(v);
    y.push_back(3.0 * std::pow(v, 1.7));
  }
  const PowerLawFit fit = fit_power_law(x, y);
  REQUIRE(fit.ok);
  CHECK(fit.points == 5);
  CHECK(fit.skipped == 0);
  // Round-off of logs and sums of five terms.
  CHECK(fit.exponent == Approx(1.7).epsilon(1e-12));
  CHECK(fit.prefactor == Approx(3.0).epsilon(1e-12));
  CHECK(fit.exponent_error < 1e-12);
  CHECK(fit.x_min == 0.5);
  CHECK(fit.x_max == 250.0);
}

TEST_CASE("exponent, prefactor and standard error of a small case worked out by hand", "[clusters][power_law]") {
  // ln x = 0, 1, 2, 3 and ln y = 0.1, 0.9, 2.1, 2.9. By hand: mean 1.5 for both,
  // Suu = 2.25 + 0.25 + 0.25 + 2.25 = 5, Suv = 2.1 + 0.3 + 0.3 + 2.1 = 4.8, slope b = 0.96,
  // intercept 1.5 - 0.96 x 1.5 = 0.06, residuals 0.04, -0.12, 0.12, -0.04, sum of squares 0.032,
  // s^2 = 0.032 / (4 - 2) = 0.016, standard error sqrt(s^2 / Suu) = sqrt(0.0032).
  std::vector<double> x, y;
  const double lx[] = {0, 1, 2, 3}, ly[] = {0.1, 0.9, 2.1, 2.9};
  for (int k = 0; k < 4; ++k) {
    x.push_back(std::exp(lx[k]));
    y.push_back(std::exp(ly[k]));
  }
  const PowerLawFit fit = fit_power_law(x, y);
  REQUIRE(fit.ok);
  CHECK(fit.exponent == Approx(0.96).epsilon(1e-12));
  CHECK(fit.prefactor == Approx(std::exp(0.06)).epsilon(1e-12));
  CHECK(fit.exponent_error == Approx(std::sqrt(0.0032)).epsilon(1e-12));
}

TEST_CASE("the standard error matches the scatter of exponents fitted to noisy data", "[clusters][power_law]") {
  // y = 2 x^0.63 e^(sigma g), g standard normal, at x = 1..10. Least squares is unbiased with
  // variance sigma^2 / Suu (Suu = sum (ln x - mean)^2), and the reported error squared, s^2 / Suu,
  // has that expectation. Over K = 4000 data sets: the sample variance of the exponents has a
  // relative standard deviation sqrt(2 / K) = 2.2 %, so 8 % is 3.6 of them; the mean of the
  // reported error squared (s^2 has 8 degrees of freedom, relative spread sqrt(2 / 8) = 0.5 per
  // set) has sqrt(0.25 / K) = 0.8 %, so 4 % is 5 of them. The mean exponent is within
  // 4 sqrt(sigma^2 / Suu / K) of 0.63.
  const double sigma = 0.1, b = 0.63;
  const int sets = 4000;
  std::vector<double> x;
  for (int k = 1; k <= 10; ++k) x.push_back(k);
  double u_mean = 0.0;
  for (double v : x) u_mean += std::log(v);
  u_mean /= static_cast<double>(x.size());
  double suu = 0.0;
  for (double v : x) suu += (std::log(v) - u_mean) * (std::log(v) - u_mean);
  const double variance = sigma * sigma / suu;

  Random rng(2024);
  double sum = 0.0, sum2 = 0.0, reported2 = 0.0;
  std::vector<double> y(x.size());
  for (int s = 0; s < sets; ++s) {
    for (size_t k = 0; k < x.size(); ++k) y[k] = 2.0 * std::pow(x[k], b) * std::exp(sigma * rng.normal());
    const PowerLawFit fit = fit_power_law(x, y);
    REQUIRE(fit.ok);
    sum += fit.exponent;
    sum2 += fit.exponent * fit.exponent;
    reported2 += fit.exponent_error * fit.exponent_error;
  }
  const double mean = sum / sets;
  const double sample_variance = (sum2 - sets * mean * mean) / (sets - 1);
  CHECK(mean == Approx(b).margin(4.0 * std::sqrt(variance / sets)));
  CHECK(sample_variance == Approx(variance).epsilon(0.08));
  CHECK(reported2 / sets == Approx(variance).epsilon(0.04));
}

TEST_CASE("points without a logarithm are skipped and counted, one x value gives no fit", "[clusters][power_law]") {
  const PowerLawFit fit = fit_power_law({0.0, 1.0, -2.0, 2.0, 4.0, 3.0}, {1.0, 5.0, 1.0, 10.0, 20.0, 0.0});
  REQUIRE(fit.ok);
  CHECK(fit.skipped == 3);  // x = 0, x = -2, y = 0
  CHECK(fit.points == 3);
  CHECK(fit.exponent == Approx(1.0).epsilon(1e-12));  // (1, 5), (2, 10), (4, 20)
  CHECK(fit.prefactor == Approx(5.0).epsilon(1e-12));

  const PowerLawFit flat = fit_power_law({2.0, 2.0, 2.0}, {1.0, 2.0, 3.0});
  CHECK_FALSE(flat.ok);
  CHECK(flat.points == 3);
  const PowerLawFit two = fit_power_law({1.0, 4.0}, {3.0, 12.0});
  REQUIRE(two.ok);  // two points: the line through them, no scatter to estimate an error from
  CHECK(two.exponent == Approx(1.0).epsilon(1e-12));
  CHECK(two.exponent_error == 0.0);
  CHECK_FALSE(fit_power_law({}, {}).ok);
}
