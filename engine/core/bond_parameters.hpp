#pragma once
// Parameters of beam bonds and of a frictional floor ([Voxel-beams]: a voxel/beam soft-body simulator).
// Field tables in preset_schema.cpp; the physics in engine/bodies/bonds.hpp and engine/contact/law_floor.hpp.

#include <optional>
#include <vector>

namespace lodestone {

// [SECTION] Bonds
// How a preset creates bonds: none, between every pair of generated particles that touch (a lattice
// or a chain), or from an explicit list of particle indices (generation order, = the particle ids).
enum class BondCreation : int { None, Touching, List };

struct BondEntry {
  int a = 0;  // index of the first particle in generation order
  int b = 1;  // index of the second
};

// One set of properties for every bond of the scene. The bond is a circular beam of radius
// radius_ratio x the smaller particle radius between the two centres; E and G give its axial (EA/L),
// bending (EI/L) and torsion (GJ/L) stiffness, unless given directly.
struct BondParameters {
  BondCreation create = BondCreation::None;
  double touch_tolerance = 0.01;            // [-] touching: centre distance <= (r_a + r_b)(1 + tolerance)
  std::vector<BondEntry> list;              // create = list
  double youngs_modulus = 1.0e7;            // [Pa] E
  std::optional<double> shear_modulus;      // [Pa] G; unset: E / (2 (1 + 0.3))
  double radius_ratio = 1.0;                // [-] cross-section radius / smaller particle radius
  std::optional<double> axial_stiffness;    // [N/m]     EA/L directly (replaces E)
  std::optional<double> bending_stiffness;  // [N m/rad] EI/L directly (replaces E)
  std::optional<double> torsion_stiffness;  // [N m/rad] GJ/L directly (replaces G)
  double damping_ratio = 1.0;               // [-] local damping of the relative motion (1: critical)
  std::optional<double> tensile_strength;   // [Pa] largest normal stress (tension + bending); unset: unbreakable
  std::optional<double> shear_strength;     // [Pa] largest shear stress (shear + torsion); unset: unbreakable
};

// [SECTION] Floor with static and dynamic friction ([Voxel-beams] "Collision and Friction")
// The wall side `side` becomes a floor: a spring-dashpot normal force and Coulomb friction applied at
// the centre with a stick flag per particle.
enum class FloorSide : int { None, XMin, XMax, YMin, YMax, ZMin, ZMax };  // wall side index = value - 1

struct FloorParameters {
  FloorSide side = FloorSide::None;
  double static_friction = 0.5;     // [-] mu_s
  double dynamic_friction = 0.4;    // [-] mu_d (<= mu_s)
  std::optional<double> stiffness;  // [N/m] normal stiffness; unset: the linear kn of particle and wall material
  double damping_ratio = 0.5;       // [-] normal damping ratio of collisions (1: critical)
};

}  // namespace lodestone
