#pragma once
// Progress lines on stderr for long runs: step, percentage, simulated time, speed, time left.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace lodestone::runner {

class Progress {
 public:
  // total_steps = 0: the length is only known in simulated time (a protocol), total_time [s].
  Progress(std::int64_t total_steps, double total_time, double interval_seconds, bool enabled);
  // Call after each step; prints at most once per interval. `label`: the protocol phase, or "".
  void update(std::int64_t steps_done, double simulated_time, const std::string& label = {}) {
    if (!enabled_ || (steps_done & 63) != 0) return;  // look at the clock every 64 steps
    maybe_print(steps_done, simulated_time, label, false);
  }
  void finish(std::int64_t steps_done, double simulated_time);

 private:
  void maybe_print(std::int64_t steps_done, double simulated_time, const std::string& label, bool force);

  std::int64_t total_;
  double total_time_;
  double interval_;
  bool enabled_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace lodestone::runner
