#pragma once
// Least-squares power laws y = A x^b, fitted as the straight line ln y = ln A + b ln x. Used for
// the accretional remanence mu ~ s^b of clusters ([Dominik-Nubold] eq. 16, b = 0.63 in Nubold &
// Glassmeier's simulations, 1 for aligned chains, eq. 15) and the dynamic exponent z of
// S(t) ~ t^z ([Dominik-Nubold] eq. 18).

#include <vector>

namespace lodestone {

struct PowerLawFit {
  bool ok = false;         // at least two usable points with different x
  double exponent = 0.0;   // b
  double prefactor = 0.0;  // A (in the units of y / x^b)
  // Standard error of b from the scatter about the line: sqrt(sum r^2 / (n - 2) / sum (u - u_mean)^2),
  // u = ln x, r the residuals of ln y. Needs n >= 3 (0 with two points, where the line is exact).
  double exponent_error = 0.0;
  int points = 0;                   // points used
  int skipped = 0;                  // points left out because x or y was not positive (no logarithm)
  double x_min = 0.0, x_max = 0.0;  // range of the x used
};

// Fits y = A x^b to the points (x[k], y[k]) with x, y > 0 (the others are skipped and counted).
PowerLawFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace lodestone
