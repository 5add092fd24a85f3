#pragma once
// Waiting on the simulation thread (engine/live/simulation_thread.hpp) in tests: no timing thresholds,
// only a generous limit after which the test fails instead of hanging.

#include "engine/live/simulation_thread.hpp"

#include <chrono>
#include <functional>
#include <thread>

namespace lodestone::testing {

// Polls the thread's snapshots until `done` holds; false after 60 s.
inline bool wait_until(SimulationThread& t, const std::function<bool(const Snapshot&)>& done) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < give_up) {
    t.update_snapshot();
    if (done(t.snapshot())) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

}  // namespace lodestone::testing
