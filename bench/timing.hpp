#pragma once
// What the benches time with: a steady clock, seconds since a start, the median of repeated timings.

#include <algorithm>
#include <chrono>
#include <vector>

namespace lodestone::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace lodestone::bench
