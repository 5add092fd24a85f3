#pragma once
// Portable random numbers: std::mt19937_64 is specified bit for bit by the standard, but the
// standard distributions are not, so the conversions are written here. Same seed, same scene,
// on any compiler.

#include "engine/math.hpp"

#include <cmath>
#include <cstdint>
#include <random>

namespace lodestone {

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  // Standard normal (Box-Muller; both values used).
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u1 = uniform();
    while (u1 <= 0.0) u1 = uniform();
    const double u2 = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    spare_ = radius * std::sin(2.0 * pi * u2);
    has_spare_ = true;
    return radius * std::cos(2.0 * pi * u2);
  }

  // Uniformly distributed rotation (Shoemake's method).
  Quat orientation() {
    const double u1 = uniform(), u2 = uniform(), u3 = uniform();
    const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
    return Quat(b * std::cos(2.0 * pi * u3), a * std::sin(2.0 * pi * u2), a * std::cos(2.0 * pi * u2),
                b * std::sin(2.0 * pi * u3));
  }

 private:
  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace lodestone
