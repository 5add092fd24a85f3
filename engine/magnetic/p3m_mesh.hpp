#pragma once
// What the dipolar P3M sum (engine/magnetic/p3m.cpp) and its tuning (engine/magnetic/p3m_tuning.cpp) both need of
// the mesh: the wave numbers of its slots with their aliases and the charge-assignment function's transform
// (CBLH, the header of engine/magnetic/p3m.hpp). Internal to those two files.

#include "engine/core/math.hpp"

#include <array>
#include <cmath>
#include <vector>

namespace lodestone::p3m_detail {

// The highest charge-assignment order the sum implements (and the tuning tries).
constexpr int kMaxOrder = 7;

// sin(x)/x
inline double sinc(double x) {
  return std::abs(x) < 1e-8 ? 1.0 - x * x / 6.0 : std::sin(x) / x;
}

// The signed frequency index of FFT slot i of n: in [-n/2, n/2).
inline int signed_index(int i, int n) {
  return i < (n + 1) / 2 ? i : i - n;
}

// Per axis: the wave numbers of the mesh slots, their aliases and the assignment function's transform.
struct AxisTables {
  int n = 0;
  std::vector<double> d;                 // differential operator D_a (k, 0 at Nyquist)
  std::vector<std::array<double, 3>> k;  // aliases m = -1, 0, 1: k + 2 pi m N / L
  std::vector<std::array<double, 3>> u2;
};

inline AxisTables axis_tables(int n, double length, int order) {
  AxisTables t;
  t.n = n;
  t.d.resize(static_cast<size_t>(n));
  t.k.resize(static_cast<size_t>(n));
  t.u2.resize(static_cast<size_t>(n));
  const double h = length / n;
  for (int i = 0; i < n; ++i) {
    const int s = signed_index(i, n);
    t.d[static_cast<size_t>(i)] = (2 * s == -n) ? 0.0 : 2.0 * pi * s / length;
    for (int m = -1; m <= 1; ++m) {
      const double km = 2.0 * pi * (s + m * n) / length;
      t.k[static_cast<size_t>(i)][static_cast<size_t>(m + 1)] = km;
      t.u2[static_cast<size_t>(i)][static_cast<size_t>(m + 1)] = std::pow(sinc(0.5 * km * h), 2 * order);
    }
  }
  return t;
}

}  // namespace lodestone::p3m_detail
