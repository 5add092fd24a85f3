#pragma once
// A floor with static and dynamic Coulomb friction ([Voxel-beams] "Collision and Friction").
//
// Parameters (FloorParameters, preset section "floor"): the wall side that is the floor, mu_s, mu_d,
// normal stiffness k and damping ratio zeta. Per particle touching the floor (overlap delta > 0):
//   normal   f_n = max(0, k delta - 2 zeta sqrt(m k) v_n)       (collisions damped normal to the floor)
//   lateral  F_l = the lateral part of every other force on the particle (the stage runs last)
//   stuck    (stick flag set): friction -F_l, the particle does not move laterally; the flag clears when
//            |F_l| > mu_s f_n and the particle slides from then on
//   sliding  friction -mu_d f_n v_l / |v_l| (along -F_l at v_l = 0); when |v_l| <= mu_d f_n dt / m (the
//            seed's minimum motion threshold: friction would stop it within a step) and |F_l| <= mu_s f_n
//            (static friction can hold it), the lateral velocity is set to zero and the stick flag set again.
//            (Halting whenever |v_l| is below the threshold would also hold a particle that the lateral force
//            is just starting to move, if mu_d f_n > |F_l| - mu_d f_n, forever.)
// Friction acts at the centre (no torque), like the seed's voxels: a sphere on the floor slides, it does
// not roll. The stick flag is the wall contact history's `slipping` flag read as "not stuck", so it is
// kept in checkpoints and follows reordered particles; stick-slip changes are recorded as slip events.
// Energy: spring in energy.elastic, normal dashpot in dissipated_dashpot, sliding friction and the lateral
// kinetic energy removed by a stop in dissipated_friction.

#include "engine/contact/contacts.hpp"

namespace lodestone {

// Adds the floor's normal and friction forces; must run after every other force of the pass. The normal
// dashpot sees `predicted` velocities when given (as the contact stage's dashpots do).
// A `trial` pass (Heun's predictor) works on copies of the floor side's histories and leaves them and their flags as
// they were (compute_contact_forces).
void apply_floor(const Model& model, State& state, double dt, const PredictedVelocities* predicted = nullptr,
                 bool trial = false);

// The floor's normal stiffness for a particle of material `material` [N/m].
double floor_stiffness(const Model& model, int material);

}  // namespace lodestone
