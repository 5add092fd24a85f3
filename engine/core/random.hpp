#pragma once
// Portable random numbers: std::mt19937_64 is specified bit for bit by the standard, but the
// standard distributions are not, so the conversions are written here. Same seed, same scene,
// on any compiler.

#include "engine/core/math.hpp"

#include <array>
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

// [SECTION] Counter-based random numbers (Philox4x32-10; Salmon, Moraes, Dror & Shaw, "Parallel random
// numbers: as easy as 1, 2, 3", SC 2011): four 32-bit words that are a fixed function of a 128-bit counter
// and a 64-bit key, with no state in between. The thermal noise uses them (engine/step/thermal.hpp): keyed by
// the preset's seed and counted by (step, particle id), a step's noise is the same however often, in
// whatever order and after whatever restart it is drawn, which Heun's two stages and bit-identical
// checkpoints need (HOOMD-blue keys its Langevin noise the same way). Checked against the Random123
// known-answer vectors in tests/engine/step/test_thermal.cpp.

using PhiloxWords = std::array<std::uint32_t, 4>;
using PhiloxKey = std::array<std::uint32_t, 2>;

inline PhiloxWords philox4x32_10(PhiloxWords counter, PhiloxKey key) {
  constexpr std::uint64_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;  // round multipliers
  constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;  // key increments (golden ratio, sqrt(3) - 1)
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += kW0;
      key[1] += kW1;
    }
    const std::uint64_t p0 = kM0 * counter[0], p1 = kM1 * counter[2];
    counter = {static_cast<std::uint32_t>(p1 >> 32) ^ counter[1] ^ key[0], static_cast<std::uint32_t>(p1),
               static_cast<std::uint32_t>(p0 >> 32) ^ counter[3] ^ key[1], static_cast<std::uint32_t>(p0)};
  }
  return counter;
}

// Two standard normal numbers from one Philox block: the four words make two uniforms of 53 bits in
// (0, 1) (never 0, so no rejection), then Box-Muller with both values.
inline std::array<double, 2> philox_normal_pair(const PhiloxWords& counter, const PhiloxKey& key) {
  const PhiloxWords w = philox4x32_10(counter, key);
  auto open_uniform = [](std::uint32_t hi, std::uint32_t lo) {
    const std::uint64_t bits = (static_cast<std::uint64_t>(hi) << 32) | lo;
    return (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53;
  };
  const double u1 = open_uniform(w[0], w[1]), u2 = open_uniform(w[2], w[3]);
  const double radius = std::sqrt(-2.0 * std::log(u1));
  return {radius * std::cos(2.0 * pi * u2), radius * std::sin(2.0 * pi * u2)};
}

}  // namespace lodestone
