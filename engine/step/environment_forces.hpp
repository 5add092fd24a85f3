#pragma once
// Gravity and global viscous damping -gamma v, -R^2 gamma* omega ([Erokhin-Berkov] eqs. 5-6), with the Langevin
// force matched to the damping at T > 0 (engine/step/thermal.hpp).

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

namespace lodestone {

// Adds gravity and viscous damping, with its Langevin force at T > 0 (velocity Verlet); a non-zero `dt`
// books the damping dissipation (at T > 0 the net heat given to the bath).
void apply_gravity_and_damping(const Model& model, State& state, double dt, ThreadTeam& team = ThreadTeam::serial());

}  // namespace lodestone
