#pragma once
// Contact geometry, computed once per contact before any law (Yade's split, [Yade-law]):
// normal, overlap, contact point, relative velocity at the contact point, and the shear
// displacement carried in the contact plane.

#include "engine/core/math.hpp"
#include "engine/core/state.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

struct ContactGeometry {
  Vec3 normal = Vec3::UnitZ();                    // unit, from the second body towards the first (i)
  double overlap = 0.0;                           // [m] sum of radii minus distance (> 0 when the surfaces overlap)
  Vec3 lever_i = Vec3::Zero();                    // [m] contact point minus centre of i
  Vec3 lever_j = Vec3::Zero();                    // [m] contact point minus centre of j (zero for a wall)
  Vec3 relative_velocity = Vec3::Zero();          // [m/s] of i relative to j at the contact point
  double normal_velocity = 0.0;                   // [m/s] relative_velocity . normal (> 0 separating)
  Vec3 tangential_velocity = Vec3::Zero();        // [m/s] in the contact plane
  double effective_mass = 0.0;                    // [kg] m_i m_j / (m_i + m_j); a wall: m_i
  double effective_radius = 0.0;                  // [m]  R_i R_j / (R_i + R_j); a wall: R_i
  double radius_i = 0.0, radius_j = 0.0;          // [m]  radius_j = 0 for a wall
  Vec3 relative_angular_velocity = Vec3::Zero();  // [rad/s] w_i - w_j; a wall: w_i
  Vec3 angular_velocity_sum = Vec3::Zero();       // [rad/s] w_i + w_j; a wall: w_i (LAMMPS's contact velocity)
  // Rolling: the bodies' moments of inertia about the contact point in series, 1/I = sum 1/(I + m R^2)
  // (Ai et al. 2011); twisting: about the line of centres, 1/I = sum 1/I. A wall: body i alone.
  double rolling_inertia = 0.0;   // [kg m^2]
  double twisting_inertia = 0.0;  // [kg m^2]
  // What the dashpots see: the relative velocities predicted for the end of the step, when the force
  // being computed acts (set_dashpot_velocities; docs/physics.md "Integration"). The fields above are
  // the half-step velocities, which carry the shear and rolling displacements from the last step to
  // this one. Without a prediction (a static evaluation, the overdamped scheme) the two agree.
  Vec3 dashpot_velocity = Vec3::Zero();             // [m/s] relative, at the contact point
  double dashpot_normal_velocity = 0.0;             // [m/s] (> 0 separating)
  Vec3 dashpot_tangential_velocity = Vec3::Zero();  // [m/s]
  Vec3 dashpot_angular_velocity = Vec3::Zero();     // [rad/s] w_i - w_j (a wall: w_i)
  // Weight of a force that jumps on when the contact forms (the linear law's dashpot; the sand law's pull and
  // dashpots), in the step it forms: 1/2 + the fraction of the step spent in contact (onset_weight below); 1
  // otherwise.
  double first_sample_weight = 1.0;
  // The normal travel over the step a force sample stands for, |v_n| dt (0: a static evaluation or the
  // overdamped scheme), and whether the contact formed in this step: the Hertz dashpots average their
  // delta^{1/4} over it (hertz_damping_scale).
  double dashpot_travel = 0.0;  // [m]
  bool dashpot_first = false;
};

// Velocity Verlet samples a force at whole steps, each sample standing for the step around it (t_n +- dt/2).
// A force that jumps on at the moment t0 a contact forms (the linear law's dashpot, c v0 at zero overlap; the sand
// law's adhesive pull, -F_c at zero overlap) is thus sampled to first order in dt, the error depending on where in
// the step t0 falls. The exact impulse over the two steps around the first sample t_{n+1} is F dt (1/2 + s), with
// s = (t_{n+1} - t0)/dt the fraction of the step spent in contact; the free flight before makes s = depth /
// (v_approach dt) exact (depth: how far inside the contact's range the bodies are at t_{n+1}; v_approach dt the
// normal travel at the half-step speed). So the first sample is weighted by 1/2 + s, in (1/2, 3/2]; a contact
// already deeper than one step's travel (placed or pushed there) counts as formed a whole step ago.
inline double onset_weight(double depth, double approach_travel) {
  const double s = approach_travel > depth ? std::max(depth, 0.0) / approach_travel : 1.0;
  return 0.5 + s;
}

// The same at the other end: a force that drops to zero when its contact opens at t0 = t_n + s dt inside the step
// to t_{n+1} was sampled last at t_n, standing for it until t_{n+1/2}. Returns s from how far beyond the contact's
// range the bodies are at t_{n+1} and the normal travel that took them there (separating > 0): the force to make up
// at t_{n+1} is (s - 1/2) times the last sample.
inline double exit_fraction(double beyond, double separating_travel) {
  return separating_travel > beyond ? 1.0 - std::max(beyond, 0.0) / separating_travel : 0.0;
}

// That made-up force, a force of the opening step alone: on body i at the contact point (-force on j), with a couple;
// its dashpots' part is booked as dashpot work, its springs' part in the energy the opening loses.
struct OpeningMakeUp {
  Vec3 force = Vec3::Zero();          // [N] springs and dashpots
  Vec3 couple = Vec3::Zero();         // [N m] on i (-couple on j)
  Vec3 dashpot_force = Vec3::Zero();  // [N] the dashpots' part of `force`
  bool any() const { return force != Vec3::Zero() || couple != Vec3::Zero(); }
};

// The Hertz dashpots (Tsuji form) scale as sqrt(S) ~ delta^{1/4}, whose derivative is infinite at the onset:
// sampled at whole steps their impulse is only O(dt^{5/4}) accurate (the sum over the first samples of a
// function rising as (t - t0)^{1/4}). Each sample stands for the step around it, over which the overlap
// moves by the travel w = |v_n| dt; the factor here turns delta^{1/4} into its mean over that step,
//   <delta^{1/4}> = 4/5 ((delta + w/2)^{5/4} - max(delta - w/2, 0)^{5/4}) / w,
// (the lower end max(delta - 3w/2, 0) in the step the contact forms, whose sample also stands for the part
// of the step before it that was already in contact), which makes the impulse exact for an overlap moving
// at constant speed and the error O(dt^2) (docs/physics.md "Integration"). Away from the onset it differs
// from 1 by O((w/delta)^2). Returns 1 without a travel.
inline double hertz_damping_scale(const ContactGeometry& g) {
  const double d = g.overlap, w = g.dashpot_travel;
  if (!(w > 1e-6 * d) || !(d > 0.0)) return 1.0;
  const double lo = std::max(d - (g.dashpot_first ? 1.5 : 0.5) * w, 0.0);
  const double mean = 0.8 * (std::pow(d + 0.5 * w, 1.25) - std::pow(lo, 1.25)) / w;
  return mean / std::sqrt(std::sqrt(d));
}

// Sets the dashpot velocities from the bodies' predicted velocities (vj = wj = 0 for a wall).
inline void set_dashpot_velocities(ContactGeometry& g, const Vec3& vi, const Vec3& vj, const Vec3& wi, const Vec3& wj) {
  g.dashpot_velocity = (vi + wi.cross(g.lever_i)) - (vj + wj.cross(g.lever_j));
  g.dashpot_normal_velocity = g.dashpot_velocity.dot(g.normal);
  g.dashpot_tangential_velocity = g.dashpot_velocity - g.dashpot_normal_velocity * g.normal;
  g.dashpot_angular_velocity = wi - wj;
}

// Sphere-sphere: `separation` = x_i - x_j (minimum image), distance > 0.
// `ii`, `ij` are the moments of inertia (only the rolling and twisting laws use them).
inline ContactGeometry sphere_sphere_geometry(const Vec3& separation, double distance, double ri, double rj,
                                              const Vec3& vi, const Vec3& vj, const Vec3& wi, const Vec3& wj, double mi,
                                              double mj, double ii = 0.0, double ij = 0.0) {
  ContactGeometry g;
  g.normal = separation / distance;
  g.overlap = ri + rj - distance;
  // Contact point in the middle of the overlap region.
  g.lever_i = -(ri - 0.5 * g.overlap) * g.normal;
  g.lever_j = (rj - 0.5 * g.overlap) * g.normal;
  g.relative_velocity = (vi + wi.cross(g.lever_i)) - (vj + wj.cross(g.lever_j));
  g.normal_velocity = g.relative_velocity.dot(g.normal);
  g.tangential_velocity = g.relative_velocity - g.normal_velocity * g.normal;
  g.effective_mass = mi * mj / (mi + mj);
  g.effective_radius = ri * rj / (ri + rj);
  g.radius_i = ri;
  g.radius_j = rj;
  g.relative_angular_velocity = wi - wj;
  g.angular_velocity_sum = wi + wj;
  const double ri_contact = ii + mi * ri * ri, rj_contact = ij + mj * rj * rj;
  g.rolling_inertia = ri_contact * rj_contact / (ri_contact + rj_contact);
  g.twisting_inertia = ii + ij > 0.0 ? ii * ij / (ii + ij) : 0.0;
  set_dashpot_velocities(g, vi, vj, wi, wj);
  return g;
}

// Sphere-plane: `normal` points from the wall into the box, `distance` = centre to plane.
inline ContactGeometry sphere_wall_geometry(const Vec3& normal, double distance, double ri, const Vec3& vi,
                                            const Vec3& wi, double mi, double ii = 0.0) {
  ContactGeometry g;
  g.normal = normal;
  g.overlap = ri - distance;
  g.lever_i = -(ri - 0.5 * g.overlap) * normal;
  g.relative_velocity = vi + wi.cross(g.lever_i);
  g.normal_velocity = g.relative_velocity.dot(normal);
  g.tangential_velocity = g.relative_velocity - g.normal_velocity * normal;
  g.effective_mass = mi;
  g.effective_radius = ri;
  g.radius_i = ri;
  g.radius_j = 0.0;
  g.relative_angular_velocity = wi;
  g.angular_velocity_sum = wi;
  g.rolling_inertia = ii + mi * ri * ri;
  g.twisting_inertia = ii;
  set_dashpot_velocities(g, vi, Vec3::Zero(), wi, Vec3::Zero());
  return g;
}

// The contact velocity as LAMMPS takes it (pair granular, fix wall/gran; the linear law's "lammps"
// convention, law_linear.hpp): the rolling part with the full radii, v_t + n x (R_i w_i + R_j w_j), which is
// ours (levers R - delta/2) plus (delta/2) n x (w_i + w_j); and the dashpots on it as it is, the half-step
// velocity, with no prediction and no onset weight. The relative velocity at the contact point
// (`relative_velocity`, the energy books use it) stays ours, as do the torques' levers. Returns the excess
// (delta/2) n x (w_i + w_j): the shear spring is stretched faster than the bodies move at the contact point, so the
// model itself does work on the spring (contacts.cpp books it).
inline Vec3 use_lammps_contact_velocity(ContactGeometry& g) {
  const Vec3 excess = (0.5 * g.overlap) * g.normal.cross(g.angular_velocity_sum);
  g.tangential_velocity += excess;
  g.dashpot_velocity = g.normal_velocity * g.normal + g.tangential_velocity;
  g.dashpot_normal_velocity = g.normal_velocity;
  g.dashpot_tangential_velocity = g.tangential_velocity;
  g.dashpot_angular_velocity = g.relative_angular_velocity;
  g.first_sample_weight = 1.0;
  return excess;
}

// The contact as LAMMPS's gran/hooke/history (and fix wall/gran hooke/history) takes it: the levers are the full radii,
// -R_i n and R_j n (zero for a wall), for the torques as for the contact velocity, which then is LAMMPS's
// v_t + n x (R_i w_i + R_j w_j) with no excess over the bodies' motion at the point where the force acts; the
// dashpots on the half-step velocity, with no prediction and no onset weight (as use_lammps_contact_velocity).
inline void use_full_radius_levers(ContactGeometry& g) {
  // Moving the levers out by delta/2 adds (delta/2) n x (w_i + w_j) to the velocity at the point (a wall: w_i).
  const Vec3 outward = (0.5 * g.overlap) * g.normal.cross(g.angular_velocity_sum);
  g.lever_i = -g.radius_i * g.normal;
  g.lever_j = g.radius_j * g.normal;
  g.relative_velocity += outward;
  g.tangential_velocity += outward;
  g.dashpot_velocity = g.relative_velocity;
  g.dashpot_normal_velocity = g.normal_velocity;
  g.dashpot_tangential_velocity = g.tangential_velocity;
  g.dashpot_angular_velocity = g.relative_angular_velocity;
  g.first_sample_weight = 1.0;
}

// Turns a vector kept in the contact plane into the current plane by the smallest rotation that
// takes the old plane onto the new one (its length is kept).
inline void carry_into_plane(Vec3& v, const Vec3& normal) {
  const double old_length_sq = v.squaredNorm();
  if (old_length_sq == 0.0) return;
  const Vec3 in_plane = v - v.dot(normal) * normal;
  const double new_length_sq = in_plane.squaredNorm();
  v = new_length_sq > 0.0 ? Vec3(in_plane * std::sqrt(old_length_sq / new_length_sq)) : Vec3::Zero();
}

// Carries the shear displacement into the current contact plane (the smallest rotation that takes
// the old plane onto the new one keeps its length) and adds this step's tangential motion.
// Returns the carried displacement before the increment (the laws book energy with it).
inline Vec3 update_shear_displacement(ContactHistory& h, const ContactGeometry& g, double dt) {
  carry_into_plane(h.shear, g.normal);
  const Vec3 previous = h.shear;
  h.shear += g.tangential_velocity * dt;
  return previous;
}

// LAMMPS's gran/hooke/history: the increment first, then the part along the current normal taken away (a
// projection, which shortens the displacement where pair granular's rotation keeps its length). As the increment lies
// in the plane, that is the projection of the old displacement plus the increment. Returns the projected old
// displacement, as update_shear_displacement does, and sets `projection_loss` to the energy the projection takes from
// a spring of stiffness k_old, 1/2 k_old ((u.n)^2): the model's own work on the spring, which the books keep.
inline Vec3 update_shear_displacement_projected(ContactHistory& h, const ContactGeometry& g, double dt,
                                                double& projection_loss) {
  const double along = h.shear.dot(g.normal);
  h.shear -= along * g.normal;
  projection_loss = 0.5 * h.shear_stiffness * along * along;
  const Vec3 previous = h.shear;
  h.shear += g.tangential_velocity * dt;
  return previous;
}

// Energy terms of a shear spring over one step, booked the way velocity Verlet applies forces.
//  - work_in: work the relative motion does on the spring, the trapezoid of the force applied last
//    step (-k_old u_prev) and the new force over the increment u_trial - u_prev;
//  - stiffness_work: energy the spring gains when its stiffness changes from k_old to k_new at
//    fixed displacement, 1/2 (k_new - k_old) u_prev . u_trial (the Mindlin stiffness follows the
//    overlap, and the model applies no normal force for it; zero for the linear law);
//  - slip_loss = work_in + stiffness_work - (stored energy after - before): exactly zero while the
//    spring sticks, and zero for a frictionless contact, where no force acts at all.
struct ShearSpringEnergy {
  double slip_loss = 0.0;       // [J]
  double stiffness_work = 0.0;  // [J]
};

inline ShearSpringEnergy shear_spring_energy(double k_old, double k_new, const Vec3& previous_shear,
                                             const Vec3& trial_shear, const Vec3& new_force) {
  if (k_new <= 0.0) return {};
  const Vec3 increment = trial_shear - previous_shear;
  const double work_in = 0.5 * (k_old * previous_shear - new_force).dot(increment);
  ShearSpringEnergy e;
  e.stiffness_work = 0.5 * (k_new - k_old) * previous_shear.dot(trial_shear);
  const double stored_before = 0.5 * k_old * previous_shear.squaredNorm();
  const double stored_after = 0.5 * new_force.squaredNorm() / k_new;
  e.slip_loss = work_in + e.stiffness_work - (stored_after - stored_before);
  return e;
}

// Mohr-Coulomb slip of a spring ([Yade-law]): a spring force (or torque) -k u beyond `limit` is cut back
// to it, and the displacement u shortened by the same factor (the plastic part of the motion). Returns
// true when it slipped.
inline bool cap_spring(Vec3& force, Vec3& displacement, double limit) {
  const double norm_sq = force.squaredNorm();
  if (!(norm_sq > limit * limit)) return false;
  const double scale = limit / std::sqrt(norm_sq);
  force *= scale;
  displacement *= scale;
  return true;
}

// A shear spring and a shear dashpot under one Coulomb limit (the slip-cut dashpot of [PFC-dipole], with the
// limit on their sum): while the trial total -k u + F_d stays within `limit` both act as they are; beyond
// it the contact slides, the dashpot is cut and the spring carries the limit along the trial total, its
// displacement u set to match (the plastic part of the motion). Without a spring (k = 0) the dashpot
// alone is held at the limit. So the tangential force never exceeds `limit`, also on the first step of a
// contact, where the spring is still zero and the dashpot meets the full sliding speed.
struct ShearForces {
  Vec3 spring = Vec3::Zero();   // [N] on body i
  Vec3 dashpot = Vec3::Zero();  // [N] on body i
  bool slipping = false;
};
inline ShearForces bound_shear_forces(const Vec3& spring, const Vec3& dashpot, Vec3& displacement, double k,
                                      double limit) {
  const Vec3 total = spring + dashpot;
  const double norm_sq = total.squaredNorm();
  if (!(norm_sq > limit * limit)) return {spring, dashpot, false};
  const Vec3 sliding = total * (limit / std::sqrt(norm_sq));
  if (!(k > 0.0)) return {Vec3::Zero(), sliding, true};
  displacement = -sliding / k;
  return {sliding, Vec3::Zero(), true};
}

// What a law returns: the force on body i (the other body gets the opposite) and energy terms.
// A pure torque (couple) goes to i and its opposite to j, so that a contact never changes the total
// angular momentum: with the force at one contact point for both bodies, r x F sums to zero too.
struct ContactResponse {
  Vec3 force = Vec3::Zero();          // [N] on i, applied at the contact point (all parts)
  Vec3 dashpot_force = Vec3::Zero();  // [N] the dashpot part of `force`
  Vec3 couple = Vec3::Zero();         // [N m] torque on i besides lever_i x force; j gets -couple
  double normal_force_elastic = 0.0;  // [N] elastic normal force (> 0 compressive): the rolling limits use it
  double normal_stiffness = 0.0;      // [N/m] tangent normal stiffness: the rolling stiffness scales with it
  double elastic_energy = 0.0;        // [J] stored in the springs now
  double slip_loss = 0.0;             // [J] dissipated by Coulomb slip during this step
  double stiffness_work = 0.0;        // [J] gained by the shear spring from a change of its stiffness
};

}  // namespace lodestone
