#pragma once
// The particles as numpy arrays: fresh copies, ordered by particle id. The engine keeps its particles in a
// dense order that the neighbour sort changes in scenes of 4096 particles or more (engine/step/neighbor.hpp);
// ordering by id gives row k the same particle at every call, so arrays taken at different times line up.
// A copy costs a pass over N particles and stays valid (and unchanged) whatever runs later; writing to it
// changes nothing in the simulation.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

#include <pybind11/numpy.h>

#include <cstdint>
#include <span>
#include <vector>

namespace lodestone::python {

// Dense indices in ascending id order: row k of every array is particle order[k].
std::vector<int> id_order(const Particles& particles);

// Which per-particle value an array holds. Vectors are (N, 3) float64 in the world frame; orientations
// (N, 4) float64 unit quaternions x, y, z, w (scalar last, as scipy's Rotation and the .xyz frames);
// radii (N,) float64; ids (N,) uint64.
enum class ParticleArray : int {
  Positions,          // [m]
  Velocities,         // [m/s]
  AngularVelocities,  // [rad/s]
  Orientations,       // body -> world
  Moments,            // [A m^2]
  EasyAxes,           // unit
  Forces,             // [N] of the last force pass
  Torques,            // [N m] of the last force pass
};
pybind11::array_t<double> particle_array(const Particles& particles, ParticleArray which);
pybind11::array_t<double> radii(const Particles& particles);
pybind11::array_t<std::uint64_t> ids(const Particles& particles);
// Periodic image flags (N, 3) int32 in id order (engine/core/image_flags.hpp: box lengths crossed per axis).
pybind11::array_t<std::int32_t> images(const Particles& particles);
// Unwrapped centres (N, 3) float64 [m] in id order: position + image * L along the periodic axes.
pybind11::array_t<double> unwrapped_positions(const Model& model, const Particles& particles);

// Points given as an array-like of shape (3,) or (M, 3) [m], as a list of vectors.
std::vector<Vec3> points_from(
    const pybind11::array_t<double, pybind11::array::c_style | pybind11::array::forcecast>& points);
// Vectors as an array of the shape the points had: (3,) or (M, 3).
pybind11::array_t<double> vectors_like(std::span<const Vec3> vectors, bool single);

}  // namespace lodestone::python
