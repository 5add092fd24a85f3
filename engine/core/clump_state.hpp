#pragma once
// The changing state of rigid clumps ([PFC-dipole]): one entry per clump, a structure of arrays like the
// particles. Pebbles are ordinary particles tagged with their clump (Particles::clump) and a fixed offset
// in the clump's principal frame (Particles::clump_offset); engine/bodies/clumps.hpp moves them with the clump.
// The rotation is carried by the angular momentum (world frame), which the free-rotation splitting
// (engine/bodies/clumps.cpp) keeps exactly.

#include "engine/core/image_flags.hpp"
#include "engine/core/math.hpp"

#include <cstdint>
#include <vector>

namespace lodestone {

struct Clumps {
  std::vector<Vec3> position;          // [m] centre of mass
  std::vector<Vec3> velocity;          // [m/s] of the centre of mass
  std::vector<Quat> orientation;       // principal (body) frame -> world, unit
  std::vector<Vec3> angular_momentum;  // [kg m^2/s] world frame, about the centre of mass
  std::vector<Vec3> force;             // [N] total force of the last force pass (gravity at the centre of mass)
  std::vector<Vec3> torque;            // [N m] about the centre of mass, world frame
  std::vector<double> mass;            // [kg] of the union of the pebbles, overlaps counted once
  std::vector<Vec3> inertia;           // [kg m^2] principal moments (the body frame's diagonal)
  std::vector<std::uint64_t> id;       // stable id (order of creation)
  std::vector<ImageFlags> image;       // periodic images the centre of mass crossed; its pebbles' images follow it

  size_t size() const { return position.size(); }
  // [rad/s] world frame: R I^-1 R^T L.
  Vec3 angular_velocity(size_t c) const {
    const Vec3 body = orientation[c].conjugate() * angular_momentum[c];
    return orientation[c] * body.cwiseQuotient(inertia[c]);
  }
  void clear() { *this = Clumps{}; }
};

}  // namespace lodestone
