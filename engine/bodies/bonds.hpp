#pragma once
// Beam bonds between particles ([Voxel-beams]: beam elements between neighbouring voxels).
//
// A bond is an Euler-Bernoulli beam between the two centres, evaluated in a co-rotating frame B whose
// x axis is the current chord d = x_b - x_a (the mean of the two ends' material frames, turned so that
// its x axis lies on the chord). In B the ends have no transverse displacement, only rotations theta_a,
// theta_b relative to the chord; the beam's end moments and forces are then
//   axial     F_b,x = -(EA/L0) (|d| - L0)
//   torsion   M_a,x = (GJ/L0)(theta_b,x - theta_a,x) = -M_b,x
//   bending   M_a = -(EI/L0)(4 theta_a + 2 theta_b),  M_b = -(EI/L0)(2 theta_a + 4 theta_b)   (y and z)
//   shear     F_b,perp = x × (M_a + M_b)_perp / |d|,    F_a = -F_b   (moment balance)
// which are [Voxel-beams]'s reduced stiffness equations (a1 = EA/L, a2 = GJ/L, b1 = 12EI/L^3, b2 = 6EI/L^2,
// b3 = 2EI/L) with node 1 on the axis: a transverse end displacement Y2 turns the chord by Y2/L, and
// 4 theta_a + 2 theta_b with theta_a = -Y2/L, theta_b = theta_z2 - Y2/L gives -b2 Y2 + b3 theta_z2 (Mz1),
// 2 theta_a + 4 theta_b gives -b2 Y2 + 2 b3 theta_z2 (Mz2), and the shear force b1 Y2 - b2 theta_z2.
// (Those are the forces that hold the displacement; the bond acts on the particles with the opposite sign.)
// A rigid translation or rotation of both ends moves B with them: no force, no moment.
//
// Local damping ([Voxel-beams] "Damping"): on the relative motion of the ends only,
//   v_rel = v_b - v_a - omega_mean × d,   omega_rel = omega_b - omega_a,
// force -2 zeta sqrt(mu k) v_rel (k = EA/L0 along d, b1 = 12 EI/L0^3 across; mu the reduced mass) on b
// and its opposite on a, with the couple -d × F_d shared by the ends so that angular momentum is kept;
// moment -2 zeta sqrt(I_red k_phi) omega_rel on b (k_phi = GJ/L0 about d, EI/L0 across) and the
// opposite on a. Both vanish for rigid-body motion.

#include "engine/core/bond_state.hpp"
#include "engine/core/math.hpp"
#include "engine/core/thread_team.hpp"

#include <cstdint>
#include <vector>

namespace lodestone {

struct Model;
struct State;
struct Particles;
struct BondParameters;
struct Preset;

// Stiffness of one bond from the parameters and its rest length and radius.
struct BondStiffness {
  double axial = 0.0;          // [N/m]     EA/L0
  double bending = 0.0;        // [N m/rad] EI/L0
  double torsion = 0.0;        // [N m/rad] GJ/L0
  double area = 0.0;           // [m^2] pi r^2
  double second_moment = 0.0;  // [m^4] I = pi r^4 / 4 (J = 2 I)
};
BondStiffness bond_stiffness(const BondParameters& params, const Bond& bond);

// A bond between particles a and b in their current configuration (which becomes the rest state).
Bond make_bond(const Particles& p, size_t a, size_t b, const BondParameters& params);

// The bonds a preset asks for (bonds.create) between freshly generated particles. Throws PresetError
// naming the JSON path (e.g. "$.bonds.list[2].b") for an index out of range or a particle bonded to itself.
std::vector<Bond> create_bonds(const Preset& preset, const Particles& particles);

// Forces, moments, energy and breaking of every intact bond (the "bonds" stage). Adds to p.force and
// p.torque; books the elastic energy in energy.elastic, the dashpot loss in dissipated_dashpot and the
// energy released by a breaking bond in dissipated_friction. The bonds are worked out in parallel on the team and
// added in bond order: the same bits at any number of threads.
void compute_bond_forces(const Model& model, State& state, double dt, ThreadTeam& team = ThreadTeam::serial());

// Rotation vector (angle x axis) of a unit quaternion, angle in [0, pi].
Vec3 rotation_vector(const Quat& q);

// Adds the bonds (omega = sqrt(k / m_min), the seed's rule) and the floor stiffness to the time-step advice
// and sets model.time_step when the preset leaves it to the advice. Checks the bond and floor parameters
// against the rest of the model (throws PresetError).
void advise_bonds_and_floor(Model& model, const Particles& p, const std::vector<Bond>& bonds);

// Intact bonds.
std::int64_t intact_bond_count(const std::vector<Bond>& bonds);

}  // namespace lodestone
