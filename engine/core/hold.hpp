#pragma once
// What a held particle keeps still (particles[].fixed, the Inspector's "hold still", the touch `hold`; issue 40):
// its position, its orientation or both. The forces and torques on it are still computed and written; its held
// velocities stay zero (engine/step/integrator.hpp). Only free spheres are held: a clump's pebble is refused.

#include <cstdint>
#include <string>

namespace lodestone {

// The values are bits: Both = Position | Orientation.
enum class HoldKind : int { None = 0, Position = 1, Orientation = 2, Both = 3 };

inline constexpr const char* kHoldNames[] = {"none", "position", "orientation", "both"};

inline std::string hold_name(HoldKind h) {
  return kHoldNames[static_cast<int>(h) & 3];
}

}  // namespace lodestone
