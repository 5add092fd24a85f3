#pragma once
// Distributions of the two angles of [Erokhin-Berkov] (Sec. 2.2, Fig. 1-2) over the particles that carry
// a moment: theta, the angle of the easy axis n to the field direction b, and psi, the angle of
// the moment m to the easy axis. An analysis taken with the observables (one pass, O(N)), not a
// stage of the step.
//
// The easy axis is headless (n and -n are the same axis), so, as for the alignment <|n.b|>:
//   theta = angle(n', b) in [0, 90] deg, with n' = sign(n.b) n the pole nearer the field;
//   psi   = angle(m, n') in [0, 180] deg.
// psi <= 90 deg is a moment on the field side of its axis; psi > 90 deg a moment still on the pole
// away from the field (a Stoner-Wohlfarth moment that has not switched: it switches only above the
// astroid field, h >= 0.5). With n.b = 0 (to rounding: |n.b| <= 1e-12 |n| |b|) the pole nearer
// the moment is taken (both are equivalent). In equilibrium on the switched branch
// 0 <= psi <= theta ([Erokhin-Berkov] Fig. 2); at theta = 90 deg sin psi = h = H / H_K (h < 1). The
// magnetic torque (mu H_K / 2) sin 2 psi ([Erokhin-Berkov] eq. 4) vanishes at psi = 0, 90 and 180 deg.

#include "engine/core/math.hpp"
#include "engine/core/state.hpp"

#include <array>
#include <cstdint>

namespace lodestone {

inline constexpr double kAngleBinDegrees = 5.0;  // [deg] width of every bin
inline constexpr int kThetaBins = 18;            // 0..90 deg
inline constexpr int kPsiBins = 36;              // 0..180 deg

// The angles of one particle [rad]; see the file comment for the folding.
struct AxisAngles {
  double theta = 0.0;  // [rad] easy axis to field, 0..pi/2
  double psi = 0.0;    // [rad] moment to the field-side pole of the easy axis, 0..pi
};

// easy_axis and field_direction need not be unit length (only directions are used); a zero
// moment gives psi = 0.
AxisAngles axis_angles(const Vec3& easy_axis, const Vec3& moment, const Vec3& field_direction);

// Bin k of a histogram of angles in degrees: [k, k + 1) x kAngleBinDegrees; the upper end (90 or
// 180 deg) falls in the last bin; below 0, the first; NaN, the first.
int angle_bin(double degrees, int bins);

struct AngleHistograms {
  std::int64_t particles = 0;              // particles with a non-zero moment and finite angles, the ones counted
  std::array<double, kThetaBins> theta{};  // fraction of them per bin of theta (sums to 1; all 0 without moments)
  std::array<double, kPsiBins> psi{};      // fraction of them per bin of psi
  double mean_theta = 0.0;                 // [deg] <theta>
  double mean_psi = 0.0;                   // [deg] <psi>

  static double bin_low(int k) { return kAngleBinDegrees * k; }         // [deg]
  static double bin_high(int k) { return kAngleBinDegrees * (k + 1); }  // [deg]
};

// Over the particles with a moment (|m| > 0), easy axes Particles::easy_axis(i), moments
// Particles::moment[i], against the field direction (field_direction(): the configured
// direction while B = 0).
AngleHistograms angle_histograms(const Particles& particles, const Vec3& field_direction);

}  // namespace lodestone
