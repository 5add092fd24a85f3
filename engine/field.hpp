#pragma once
// The external field B(t, x) = B_program(t) + G (x - x0) and the body-force stages:
// field torque m x B and force grad(m.B) = G^T m (seed 000 eqs. 4-5, seed 002 eq. 40),
// gravity, and global viscous damping -gamma v, -R^2 gamma* omega (seed 004 eqs. 5-6).

#include "engine/model.hpp"
#include "engine/state.hpp"

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
// a time-varying field since the previous step.
void apply_field(const Model& model, State& state, double dt);
// Adds gravity and viscous damping, with its Langevin force at T > 0 (velocity Verlet, engine/thermal.hpp);
// a non-zero `dt` books the damping dissipation (at T > 0 the net heat given to the bath).
void apply_gravity_and_damping(const Model& model, State& state, double dt);

}  // namespace lodestone
