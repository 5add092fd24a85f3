#include "engine/output/output_units.hpp"

#include "engine/scene/unit_system.hpp"

namespace lodestone {

FrameFields frame_in_units(FrameFields f, const DisplayUnits& units) {
  f.units = unit_system_note(units);
  if (units.system == UnitSystem::Si) return f;
  const LjUnits lj(units.lj);
  const double length = lj.of(Quantity::Length), velocity = lj.of(Quantity::Velocity);
  const double angular_velocity = lj.of(Quantity::AngularVelocity), moment = lj.of(Quantity::MagneticMoment);
  const double force = lj.of(Quantity::Force), torque = lj.of(Quantity::Energy);
  f.time /= lj.time;
  f.box_min /= length;
  f.box_max /= length;
  for (size_t i = 0; i < f.size(); ++i) {
    f.radius[i] /= length;
    f.position[i] /= length;
    f.velocity[i] /= velocity;
    f.angular_velocity[i] /= angular_velocity;
    f.moment[i] /= moment;
    f.force[i] /= force;
    f.torque[i] /= torque;
  }
  return f;
}

Observables observables_in_units(Observables o, const DisplayUnits& units) {
  if (units.system == UnitSystem::Si) return o;
  const LjUnits lj(units.lj);
  const double energy = lj.energy, force = lj.of(Quantity::Force);
  o.time /= lj.time;
  for (double* e :
       {&o.kinetic_translational, &o.kinetic_rotational, &o.elastic, &o.dipole, &o.zeeman, &o.gravitational,
        &o.dissipated_friction, &o.dissipated_dashpot, &o.dissipated_viscous, &o.field_work, &o.stiffness_work})
    *e /= energy;
  o.magnetization /= lj.of(Quantity::Magnetization);
  o.magnetization_along_field /= lj.of(Quantity::Magnetization);
  o.linear_momentum /= lj.momentum;
  o.angular_momentum /= lj.angular_momentum;
  o.floor_force /= force;
  o.lid_force /= force;
  o.lid_height /= lj.length;
  o.phase_time /= lj.time;
  if (o.alignment_time >= 0.0) o.alignment_time /= lj.time;  // -1 means "not reached", in any units
  return o;
}

}  // namespace lodestone
