#pragma once
// One beam bond between two particles, as the state keeps it (the beam itself: engine/bodies/bonds.hpp).

#include "engine/core/math.hpp"

#include <cstdint>

namespace lodestone {

// Quaternions first: no padding between members (the checkpoint asserts the size).
struct Bond {
  Quat frame_a = Quat::Identity();     // the rest bond frame (x along the bond) in a's body frame
  Quat frame_b = Quat::Identity();     // ... in b's body frame
  Vec3 damping_force = Vec3::Zero();   // [N]   dashpot force on b at the last evaluation (world)
  Vec3 damping_couple = Vec3::Zero();  // [N m] relative-rotation dashpot moment on b at the last evaluation
  double rest_length = 0.0;            // [m] L0, centre distance when bonded
  double radius = 0.0;                 // [m] cross-section radius of the beam
  std::uint64_t id_a = 0, id_b = 0;    // stable ids of the two particles
  int a = 0, b = 0;                    // their dense indices (refreshed when particles are reordered)
  bool broken = false;
};

}  // namespace lodestone
