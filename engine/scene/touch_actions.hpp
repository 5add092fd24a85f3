#pragma once
// The touch entries of a timeline (docs/session-log.md): a hand on the particles, recorded at the step it
// acted before, like a parameter change. Each entry's `touch` is one object with one key:
//
//   {"drag": {"id": 12, "target": [x, y, z], "stiffness": k, "damping": c}}   spring on particle 12 (SI)
//   {"release": {}}                                                           the drag lets go
//   {"add": {"id": 101, "position": [...], "radius": ..., ...}}               a particle (a list generator entry)
//   {"add_clump": {"first_id": 101, "shape": "bar", ...}}                     a clump (a `clumps` entry)
//   {"delete": {"id": 5}}                                                     a particle, or the clump it is a pebble
//   of
//   {"hold": {"id": 5, "fixed": "position"}}                                  hold it still (engine/core/hold.hpp):
//   position, orientation, both, or none (let go)
//   {"go": {}}                                                                a waiting protocol phase ends (a hand
//                                                                             on the run: the teacher's button)
//
// What each does to the state: engine/bodies/touch.hpp; the Session applies and records them.

#include "engine/core/preset.hpp"
#include "engine/scene/schema.hpp"

#include <cstdint>
#include <string>

namespace lodestone {

enum class TouchKind : int { Drag, Release, Add, AddClump, Delete, Hold, Go };

struct TouchAction {
  TouchKind kind = TouchKind::Release;
  // Drag: the particle pulled; add: the new particle's id; add_clump: the first pebble's (the others follow);
  // delete: the particle removed (a pebble: its whole clump); hold: the particle held or let go.
  std::uint64_t id = 0;
  Vec3 target = Vec3::Zero();      // [m] drag
  double stiffness = 0.0;          // [N/m] drag
  double damping = 0.0;            // [N s/m] drag
  ParticleEntry particle;          // add
  ClumpEntry clump;                // add_clump
  HoldKind hold = HoldKind::None;  // hold: what is kept still from now on
};

// Reads a `touch` object; throws PresetError naming `where`.<kind>.<key>, the value and what is allowed.
TouchAction read_touch(const json& touch, const std::string& where);
// The `touch` object of an action (SI), read back by read_touch to the same action.
json write_touch(const TouchAction& action);
// One line for messages, the undo list and the Run panel: "add particle 101 at (1, 2, 3) mm".
std::string describe_touch(const TouchAction& action);

}  // namespace lodestone
