#include "app/runner/progress.hpp"

namespace lodestone::runner {

Progress::Progress(std::int64_t total_steps, double interval_seconds, bool enabled)
    : total_(total_steps), interval_(interval_seconds), enabled_(enabled),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

void Progress::maybe_print(std::int64_t done, double simulated_time, bool force) {
  const auto now = std::chrono::steady_clock::now();
  if (!force && std::chrono::duration<double>(now - last_).count() < interval_) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0.0 ? static_cast<double>(done) / elapsed : 0.0;
  const double left = rate > 0.0 ? static_cast<double>(total_ - done) / rate : 0.0;
  std::fprintf(stderr, "  step %lld/%lld (%5.1f %%)  t = %.4g s  %.0f steps/s  %s %.0f s\n",
               static_cast<long long>(done), static_cast<long long>(total_),
               total_ > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100.0, simulated_time,
               rate, force ? "elapsed" : "left", force ? elapsed : left);
  printed_ = true;
}

void Progress::finish(std::int64_t done, double simulated_time) {
  if (enabled_ && printed_) maybe_print(done, simulated_time, true);
}

}  // namespace lodestone::runner
