#pragma once
// Pressure on the packing ([Erokhin-Berkov] Sec. 3).
//  - top_layer (the paper's method): a force pi R^2 P along -z on every particle whose centre is
//    above top_fraction of the packing height (centres, measured from the floor). For a flat top
//    layer of touching spheres this is P times the area each one covers, up to packing.
//  - lid: the z_max side is a lid whose height is part of the state. It moves with the velocity
//    (F_z - P A) / lid_damping, F_z the force the particles push it up with and A its area: a servo
//    that comes to rest when the packing carries exactly P A.

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

namespace lodestone {

// The pressure stage (after the contact forces): the top layer's forces (on the team, the same bits), or the lid's
// velocity from the force the particles push it with.
void apply_pressure(const Model& model, State& state, ThreadTeam& team = ThreadTeam::serial());
// Puts the lid on the packing (top of the highest sphere, at most the box top) when the lid
// method has just been switched on; clears the lid state when it is off.
void place_lid(const Model& model, State& state);
double lid_area(const Model& model);
// Automatic lid damping: gamma x (lid area / pi r_mean^2), i.e. like the layer of particles under it; without
// a translational damping gamma, a critically damped contact per particle, 2 m_mean omega_max (the stiffest
// frequency of the time step's advice), so that a lid can be put on any walled box.
double auto_lid_damping(const Model& model, const Particles& particles);

}  // namespace lodestone
