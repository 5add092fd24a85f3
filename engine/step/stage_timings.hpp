#pragma once
// The named stages of a step (engine/step/simulation.hpp) and the time each took: what the runner prints and the
// app's Run panel shows. A leaf, so that a snapshot (engine/live/snapshot.hpp) carries the timings without the
// simulation.

#include <array>
#include <cstdint>
#include <string_view>

namespace lodestone {

enum class Stage : int {
  FirstHalf,
  Neighbors,
  ClearForces,
  Moments,
  Contacts,
  Dipoles,
  Bonds,
  Field,
  GravityAndDamping,
  Pressure,
  Floor,
  Clumps,
  SecondHalf,
  Checks,
  Protocol,  // the session's work after each step: the alignment time, the protocol's end conditions
  Count
};
inline constexpr int kStageCount = static_cast<int>(Stage::Count);
std::string_view stage_name(Stage s);

struct StageTimings {
  std::array<double, kStageCount> total_seconds{};  // since construction
  std::array<double, kStageCount> last_seconds{};   // the last step
  std::int64_t steps = 0;
};

}  // namespace lodestone
