#pragma once
// The tuning of the dipolar P3M sum (engine/magnetic/p3m.hpp; CBLH as there): the a-priori error estimate of a
// parameter set, and the cheapest set that reaches an accuracy. Apart from the sum it tunes (as ESPResSo keeps
// its TuningAlgorithm apart from P3M), so that the sum's file is the sum.
//
// A-priori RMS force errors (CBLH eq. 37 for the mesh part, Wang & Holm, J. Chem. Phys. 115, 6351 (2001) eq. 33
// for the real-space part), for N randomly placed dipoles with sum m^2 = S2 in volume V:
//   dF_real = c S2 exp(-alpha^2 rc^2) / sqrt(V alpha^4 rc^9 N) sqrt(13/6 C^2 + 2/15 D^2 - 13/15 C D),
//             C = 4 (alpha rc)^4 + 6 (alpha rc)^2 + 3, D = 8 (alpha rc)^6 + 20 (alpha rc)^4 + 30 (alpha rc)^2 + 15
//   dF_k    = c 4 pi S2 / (3 V) sqrt(Q / N),
//             Q = sum_{k in the mesh, k != 0} [ sum_m k_m^2 exp(-k_m^2/2 alpha^2)
//                                               - (sum_m U^2(k_m) (k.k_m)^3 phi(k_m))^2 / (k^6 [sum_m U^2(k_m)]^2) ]
//   dF = sqrt(dF_real^2 + dF_k^2).
// The tuning (choose_p3m_tuning) picks mesh, order, alpha and cutoff that minimise an estimated cost subject to
// dF <= accuracy x F0, F0 = c <m^2> / a^4 with a = (V/N)^(1/3) the mean spacing (the force scale of two dipoles
// at the mean spacing).

#include "engine/core/model.hpp"

#include <cstddef>

namespace lodestone {

struct P3MErrorEstimate {
  double real = 0.0;  // [N] RMS force error of the real-space part
  double mesh = 0.0;  // [N] of the mesh part
  double total() const;
};

// The force scale F0 = c <m^2> / a^4 [N] the accuracy is relative to (a = (V/N)^(1/3)).
double p3m_force_scale(const Vec3& box_length, size_t particle_count, double sum_m2);

// The a-priori RMS force error of a parameter set (see the header comment).
P3MErrorEstimate p3m_error_estimate(const P3MTuning& t, const Vec3& box_length, size_t particle_count, double sum_m2);

// The automatic tuning: the cheapest (mesh, order, alpha, real-space cutoff) whose estimated RMS force error is at
// most accuracy x F0. sum_m2 = sum_i |m_i|^2 [A^2 m^4] (only the ratio to N matters: the estimate relative to F0
// does not depend on it).
P3MTuning choose_p3m_tuning(double accuracy, const Vec3& box_length, size_t particle_count);

}  // namespace lodestone
