#pragma once
// Periodic image flags: per particle (and per clump centre), how many box lengths it has crossed along each axis
// since it was made, so that its unwrapped position is position + image * L (LAMMPS's ix iy iz). They are counted
// where a position is wrapped back into the box (wrap_periodic, engine/core/model.hpp), by the number of box lengths
// taken off, so a jump over several boxes counts all of them. Axes that are not periodic keep 0.

#include "engine/core/math.hpp"

#include <array>

namespace lodestone {

using ImageFlags = std::array<int, 3>;  // box lengths crossed along x, y, z (+ in the + direction)

// position + image * L along the periodic axes (periodic_length 0 elsewhere: those axes are left as they are).
inline Vec3 unwrapped_position(const Vec3& position, const ImageFlags& image, const Vec3& periodic_length) {
  Vec3 out = position;
  for (int a = 0; a < 3; ++a) out[a] += static_cast<double>(image[static_cast<size_t>(a)]) * periodic_length[a];
  return out;
}

}  // namespace lodestone
