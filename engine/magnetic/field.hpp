#pragma once
// The external field B(t, x) = B_program(t) + G (x - x0) and its stage: field torque m x B and force
// grad(m.B) = G^T m ([PFC-dipole] eqs. 4-5, [Dominik-Nubold] eq. 40).

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"

namespace lodestone {

// The uniform part of the field at time t [T].
Vec3 uniform_field(const FieldParameters& field, double t);
// Field at position x [T].
inline Vec3 field_at(const FieldParameters& field, double t, const Vec3& x) {
  return uniform_field(field, t) + field.gradient * (x - field.gradient_origin);
}
// Unit vector along the uniform field; the configured direction while the field is zero.
Vec3 field_direction(const FieldParameters& field, double t);

// Adds field torques and forces, sets the Zeeman energy. A non-zero `dt` books the work done by
// a time-varying field since the previous step. Each particle's torque and force are its own; the energy and the
// total moment are summed per part of the team and the parts added in order (ThreadTeam).
void apply_field(const Model& model, State& state, double dt, ThreadTeam& team = ThreadTeam::serial());

}  // namespace lodestone
