#include "app/runner/progress.hpp"

namespace lodestone::runner {

Progress::Progress(std::int64_t total_steps, double total_time, double interval_seconds, bool enabled)
    : total_(total_steps),
      total_time_(total_time),
      interval_(interval_seconds),
      enabled_(enabled),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Progress::maybe_print(std::int64_t done, double simulated_time, const std::string& label, bool force) {
  const auto now = std::chrono::steady_clock::now();
  if (!force && std::chrono::duration<double>(now - last_).count() < interval_) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0.0 ? static_cast<double>(done) / elapsed : 0.0;
  // Fraction done by steps, or by simulated time when only that is known (an upper bound for a
  // protocol whose phases may end early).
  double fraction = 1.0;
  if (total_ > 0)
    fraction = static_cast<double>(done) / static_cast<double>(total_);
  else if (total_time_ > 0.0)
    fraction = simulated_time / total_time_;
  const double left = fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
  if (total_ > 0)
    std::fprintf(stderr, "  step %lld/%lld (%5.1f %%)", static_cast<long long>(done), static_cast<long long>(total_),
                 100.0 * fraction);
  else
    std::fprintf(stderr, "  step %lld (%5.1f %% of the time)", static_cast<long long>(done), 100.0 * fraction);
  std::fprintf(stderr, "  t = %.4g s  %.0f steps/s  %s %.0f s%s%s\n", simulated_time, rate,
               force        ? "elapsed"
               : total_ > 0 ? "left"
                            : "left at most",
               force ? elapsed : left, label.empty() ? "" : "  phase ", label.c_str());
  printed_ = true;
}

void Progress::finish(std::int64_t done, double simulated_time) {
  if (enabled_ && printed_) maybe_print(done, simulated_time, {}, true);
}

}  // namespace lodestone::runner
