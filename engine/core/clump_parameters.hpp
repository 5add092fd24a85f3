#pragma once
// The `clumps` section of a preset (engine/scene/clump_schema.cpp holds its field table): rigid bodies made of
// pebbles ([PFC-dipole] 'clumps of dipoles for non-spherical magnets'), added to the particles of the
// generator. engine/bodies/clumps.hpp builds and moves them.

#include "engine/core/math.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lodestone {

// list: the pebbles given; cube: n x n x n pebbles on a cubic lattice; bar: n pebbles in a row along the axis.
enum class ClumpShape : int { List, Cube, Bar };

// One pebble of a list clump, in the clump's shape frame (its z axis is the clump's `axis`).
struct ClumpPebble {
  Vec3 offset = Vec3::Zero();    // [m] centre relative to the clump's `position`, shape frame
  double radius = 5e-4;          // [m]
  Vec3 axis{0.0, 0.0, 1.0};      // unit, shape frame: easy axis (and moment) direction
  std::string material;          // empty: the clump's material
  std::optional<double> moment;  // [A m^2] unset: material magnetisation x sphere volume
};

struct ClumpEntry {
  ClumpShape shape = ClumpShape::Cube;
  Vec3 position = Vec3::Zero();          // [m] centre of the shape (cube, bar) or origin of the offsets (list)
  Vec3 axis{0.0, 0.0, 1.0};              // unit: the shape frame's z axis in the world (bar length, cube edge, moments)
  Vec3 velocity = Vec3::Zero();          // [m/s] of the centre of mass
  Vec3 angular_velocity = Vec3::Zero();  // [rad/s]
  std::string material;                  // empty: particles.material
  int count = 2;                         // cube: pebbles per edge; bar: pebbles along the bar
  double pebble_radius = 5e-4;           // [m] cube, bar
  std::optional<double> spacing;         // [m] cube, bar: centre distance; unset: 2 pebble_radius (touching)
  std::optional<double> moment;          // [A m^2] cube, bar, per pebble; unset: magnetisation x spacing^3
  std::vector<ClumpPebble> pebbles;      // list
};

}  // namespace lodestone
