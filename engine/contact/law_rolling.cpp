#include "engine/contact/law_rolling.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {
namespace {

// One elastic-plastic spring on an angle (vector or scalar along a fixed direction): the torque
// -k theta limited to `limit`, the angle shortened to match, and the energy terms of the step.
struct AngleSpring {
  Vec3 torque = Vec3::Zero();
  bool limited = false;
  ShearSpringEnergy energy;
  double stored = 0.0;
};

AngleSpring angle_spring(double k_old, double k, double limit, const Vec3& previous, Vec3& angle) {
  AngleSpring s;
  const Vec3 trial = angle;
  s.torque = -k * angle;
  s.limited = cap_spring(s.torque, angle, limit);
  // Same bookkeeping as the shear spring (contact_geometry.hpp): work of the relative rotation on
  // the spring (trapezoid), stiffness work, and the plastic loss.
  s.energy = shear_spring_energy(k_old, k, previous, trial, s.torque);
  s.stored = k > 0.0 ? 0.5 * s.torque.squaredNorm() / k : 0.0;
  return s;
}

}  // namespace

RollingResponse rolling_resistance(const RollingParameters& law, const ContactGeometry& g, double normal_force,
                                   double normal_stiffness, RollingHistory& h, double dt, bool newly_active) {
  const Vec3& n = g.normal;
  const double r = g.effective_radius;
  const double fn = std::max(normal_force, 0.0);
  const double kr = law.rolling_stiffness * normal_stiffness * law.rolling_friction * law.rolling_friction * r * r;
  const double kt = law.twisting_stiffness * normal_stiffness * law.twisting_friction * law.twisting_friction * r * r;

  // Relative rotation this step: rolling in the (new) contact plane, twisting about the normal.
  carry_into_plane(h.rolling, n);
  const Vec3& w = g.relative_angular_velocity;
  const double w_twist = w.dot(n);
  const Vec3 w_roll = w - w_twist * n;
  const Vec3 previous_rolling = h.rolling;
  const double previous_twisting = h.twisting;
  h.rolling += w_roll * dt;
  h.twisting += w_twist * dt;

  RollingResponse out;
  const AngleSpring rolling = angle_spring(newly_active ? kr : h.rolling_stiffness, kr, law.rolling_friction * r * fn,
                                           previous_rolling, h.rolling);
  // The twisting angle is a scalar about the current normal; written along x for the shared bookkeeping.
  Vec3 twist(h.twisting, 0.0, 0.0);
  const AngleSpring twisting = angle_spring(newly_active ? kt : h.twisting_stiffness, kt,
                                            law.twisting_friction * r * fn, Vec3(previous_twisting, 0.0, 0.0), twist);
  h.twisting = twist.x();
  h.rolling_stiffness = kr;
  h.twisting_stiffness = kt;

  // Dashpots, only below the limit (Ai et al.: no damping at full mobilisation), on the relative angular
  // velocity predicted for the end of the step (contact_geometry.hpp).
  const Vec3& wd = g.dashpot_angular_velocity;
  const double wd_twist = wd.dot(n);
  if (!rolling.limited && kr > 0.0)
    out.dashpot_couple -= 2.0 * law.damping_ratio * std::sqrt(g.rolling_inertia * kr) * (wd - wd_twist * n);
  if (!twisting.limited && kt > 0.0)
    out.dashpot_couple -= 2.0 * law.damping_ratio * std::sqrt(g.twisting_inertia * kt) * wd_twist * n;

  out.couple = rolling.torque + twisting.torque.x() * n + out.dashpot_couple;
  out.elastic_energy = rolling.stored + twisting.stored;
  out.slip_loss = rolling.energy.slip_loss + twisting.energy.slip_loss;
  out.stiffness_work = rolling.energy.stiffness_work + twisting.energy.stiffness_work;
  out.rolling_limited = rolling.limited;
  out.twisting_limited = twisting.limited;
  return out;
}

}  // namespace lodestone
