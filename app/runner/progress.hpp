#pragma once
// Progress lines on stderr for long runs: step, percentage, simulated time, speed, time left.

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace lodestone::runner {

class Progress {
 public:
  Progress(std::int64_t total_steps, double interval_seconds, bool enabled);
  // Call after each step; prints at most once per interval.
  void update(std::int64_t steps_done, double simulated_time) {
    if (!enabled_ || (steps_done & 63) != 0) return;  // look at the clock every 64 steps
    maybe_print(steps_done, simulated_time, false);
  }
  void finish(std::int64_t steps_done, double simulated_time);

 private:
  void maybe_print(std::int64_t steps_done, double simulated_time, bool force);

  std::int64_t total_;
  double interval_;
  bool enabled_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace lodestone::runner
