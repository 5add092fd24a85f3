#include "ui/step_progress.hpp"

#include <cstdio>

namespace lodestone::ui {

std::string wall_time_text(double seconds) {
  char text[64];
  if (!(seconds >= 1.0)) return "under a second";
  if (seconds < 90.0)
    std::snprintf(text, sizeof text, "about %.0f s", seconds);
  else if (seconds < 90.0 * 60.0)
    std::snprintf(text, sizeof text, "about %.0f min", seconds / 60.0);
  else if (seconds < 48.0 * 3600.0)
    std::snprintf(text, sizeof text, "about %.2g h", seconds / 3600.0);
  else if (seconds < 730.0 * 86400.0)
    std::snprintf(text, sizeof text, "about %.3g days", seconds / 86400.0);
  else
    std::snprintf(text, sizeof text, "about %.2g years", seconds / (365.25 * 86400.0));
  return text;
}

std::string step_progress_text(const StepProgress& p) {
  char text[160];
  if (p.asked_steps > 0)
    std::snprintf(text, sizeof text, "step %lld of %lld (%.1f %%)", static_cast<long long>(p.done_steps),
                  static_cast<long long>(p.asked_steps), 100.0 * p.fraction);
  else
    std::snprintf(text, sizeof text, "advance %.4g s: %.1f %% done", p.asked_seconds, 100.0 * p.fraction);
  const std::string left =
      p.wall_seconds_left < 0.0 ? "time left not known yet" : wall_time_text(p.wall_seconds_left) + " left";
  return std::string(text) + ", " + left;
}

}  // namespace lodestone::ui
