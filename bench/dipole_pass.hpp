#pragma once
// One timed dipole pass of the engine (compute_dipole_forces into zeroed forces and torques), for the P3M benches
// (bench/p3m.cpp, bench/p3m_anchor.cpp).

#include "bench/timing.hpp"
#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/magnetic/magnetics.hpp"

namespace lodestone::bench {

// Wall seconds of one pass.
inline double timed_dipole_pass(const Model& model, State& state, ThreadTeam& team) {
  for (size_t i = 0; i < state.particles.size(); ++i) {
    state.particles.force[i].setZero();
    state.particles.torque[i].setZero();
  }
  const auto start = Clock::now();
  compute_dipole_forces(model, state, team);
  return seconds_since(start);
}

}  // namespace lodestone::bench
