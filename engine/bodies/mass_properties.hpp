#pragma once
// Mass, centre of mass and inertia tensor of a union of spheres (the pebbles of a clump, [PFC-dipole]),
// overlaps counted once.
//
// Why columns and not voxels: along a line parallel to z the union of spheres is a union of intervals
// whose ends are known exactly, so the integrals of 1, z and z^2 along each line are exact; only the
// (x, y) plane is sampled, by the midpoint rule on a square grid. This is voxel integration with the
// voxels' z extent taken to the limit: the error comes from the silhouettes' edges in the (x, y) grid
// alone (tests/engine/bodies/test_clumps.cpp measures it). A region covered by several pebbles is counted once,
// with the density of the first of them (the lowest index).
//
// When no two pebbles overlap (touching is allowed) the union is the plain sum of the spheres and the
// result is exact: each sphere contributes m, m c and 2/5 m R^2 about its centre (parallel axes).

#include "engine/core/math.hpp"

#include <vector>

namespace lodestone {

struct MassProperties {
  double mass = 0.0;            // [kg]
  Vec3 centre = Vec3::Zero();   // [m] centre of mass
  Mat3 inertia = Mat3::Zero();  // [kg m^2] inertia tensor about the centre of mass, world axes
  bool overlapping = false;     // some pebbles overlap: computed by column integration
};

struct SphereUnion {
  std::vector<Vec3> centre;     // [m]
  std::vector<double> radius;   // [m]
  std::vector<double> density;  // [kg/m^3]
};

// Exact when no two spheres overlap (unless `force_columns`); otherwise column integration with
// `cells_per_diameter` grid cells across the smallest sphere's diameter.
MassProperties sphere_union_mass_properties(const SphereUnion& spheres, int cells_per_diameter = 64,
                                            bool force_columns = false);

// Principal axes: inertia = R diag(principal) R^T with R a proper rotation (det +1), principal ascending.
struct PrincipalAxes {
  Vec3 moments = Vec3::Zero();       // [kg m^2]
  Quat rotation = Quat::Identity();  // principal (body) frame -> world
};
PrincipalAxes principal_axes(const Mat3& inertia);

}  // namespace lodestone
