#pragma once
// The SAND contact law ([Dominik-Nubold], Dominik & Nübold, App. A.5-A.6): adhesive contacts tracked by
// contact pointers, with elastic springs against pulling, sliding, rolling and twisting, and plastic
// motion of the contact beyond critical displacements.
//
// Tracking ([Dominik-Nubold] eqs. 42-49). When a contact forms, P1 = c - r_i, P2 = c - r_j (c: the contact
// point, the middle of the overlap, as in contact_geometry.hpp) and a unit vector Q normal to the
// line of centres are stored in each body's frame (ContactHistory::sand). Each evaluation rotates
// them into the world with the current orientations:
//   p1 = R_i P1, p2 = R_j P2, q1 = R_i Q1, q2 = R_j Q2                        (eq. 42)
//   delta = r_j + p2 - r_i - p1                                               (eq. 43)
//   e = (r_i - r_j) / |r_i - r_j|                                             (eq. 44)
//   pulling   delta_perp = (delta . e) e                                      (eq. 45)
//   sliding   delta_par  = delta - delta_perp                                 (eq. 46)
//   rolling   xi = (p1 - p2) x (p1 x p2) / |p1 - p2|^2                        (eq. 47)
//   twisting  alpha_par  = arcsin((q1 x q2) . e)     (eq. 48, bracket restored: seeds README)
//   rolling angle alpha_perp = arccos(p1^ . (-p2^))  (eq. 49; unit vectors, as the arccos needs)
// xi is minus the foot of the perpendicular from the origin onto the line through the tips of p1
// and p2, xi = -(p1 - (p1.u) u) with u = (p2 - p1)/|p2 - p1|, the form used here.
//
// Springs (our choice: [Dominik-Nubold] defers to Dominik & Tielens 1997, which is not among the seeds;
// docs/physics.md says what is taken from where). With s = R_i + R_j - |r_i - r_j| the overlap:
//   U = U_n(s) + 1/2 k_s |delta_par|^2 + 1/2 k_r |xi|^2 + 1/2 k_t alpha_par^2
//   U_n: Hertz repulsion plus a constant pull F_c = 3 pi gamma R* (the JKR pull-off force) while
//        s >= 0, the pull falling linearly to 0 at the break separation s_b (gap):
//        f_n = dU_n/ds = 4/3 E* sqrt(R*) s^{3/2} - F_c  (s >= 0),  -F_c (1 + s/s_b)  (-s_b <= s < 0)
//   a0 = (9 pi gamma R*^2 / E*)^{1/3}      JKR contact radius at zero load
//   k_s = 8 G* a0                          Mindlin tangential stiffness of a disc of radius a0
//   k_r = 4 F_c / R*                       rolling torque ~ k_r R* xi = 4 F_c xi
//   k_t = 16/3 G_t a0^3                    torsion of a bonded disc, both bodies in series
//   s_b = a0^2 / (2 6^{1/3} R*)            JKR separation at break under displacement control (auto)
// Forces and torques are the exact derivatives of U with respect to the positions and rotations of
// the two bodies. U is unchanged by a common translation or rotation of both, so the forces are
// equal and opposite and the torques balance: total angular momentum is conserved to round-off.
// The force on i is reported at the contact point with a couple (ContactResponse::couple).
//
// Plastic motion (App. A.6), checked at every evaluation before the forces:
//   |delta_par| > delta_crit: both pointers move along the excess, p1 += R_i/(R_i+R_j) D,
//     p2 -= R_j/(R_i+R_j) D, D = delta_par (1 - delta_crit/|delta_par|): delta_par returns to
//     delta_crit exactly, xi is kept to first order (exactly for an unrolled contact);
//   |xi| > xi_crit: both pointer tips move by W = xi (1 - xi_crit/|xi|): xi returns to xi_crit
//     exactly, delta is unchanged;
//   |alpha_par| > alpha_crit: q1, q2 are set in the contact plane at -/+ alpha_crit/2 about their
//     bisector: alpha_par = +-alpha_crit exactly.
// The energy released is booked as dissipated friction: at a static evaluation U(before) - U(after)
// at the same configuration; within a run, the work the step's motion did on the springs (as the
// integrator applied their forces) minus the change of their energy (law_sand.cpp). Beyond s < -s_b the contact breaks;
// the energy still stored in it (F_c s_b / 2 in the normal part plus the springs) is booked as dissipated too
// (sand_break). The pull that jumps on when a contact forms and the springs and dashpots that drop at a break are
// sampled so that neither costs velocity Verlet a first-order error (docs/physics.md "Integration").
//
// Walls use the same law with the wall as the second body (infinite radius, at rest): p2 is the
// wall's material point in world coordinates, q2 a world vector, e the wall normal, delta = w - r_i
// - p1, and xi = -(p1 - (p1.e) e) (eq. 47 in the limit R_j -> infinity).
//
// Normal and tangential dashpots (optional) act on the relative velocity at the contact point.

#include "engine/contact/contact_geometry.hpp"
#include "engine/core/model.hpp"

namespace lodestone {

// Constants of one contact, from the pair's materials and R*.
struct SandConstants {
  double pull_off = 0.0;          // [N]  F_c = 3 pi gamma R*
  double contact_radius = 0.0;    // [m]  a0 = (9 pi gamma R*^2 / E*)^{1/3}
  double k_sliding = 0.0;         // [N/m] 8 G* a0
  double k_rolling = 0.0;         // [N/m] 4 F_c / R* (energy 1/2 k_r xi^2)
  double k_twisting = 0.0;        // [N m/rad] 16/3 G_t a0^3
  double break_separation = 0.0;  // [m]  s_b
};

SandConstants sand_constants(const SandParameters& law, const PairCoefficients& pair, double effective_radius);

// Elastic normal force f_n(s) (> 0 repulsive) and its potential U_n(s) (beyond the break: U_n(-s_b)).
double sand_normal_force(const PairCoefficients& pair, const SandConstants& c, double effective_radius, double overlap);
double sand_normal_energy(const PairCoefficients& pair, const SandConstants& c, double effective_radius,
                          double overlap);

// What the law needs besides the geometry.
struct SandBodies {
  Vec3 separation = Vec3::Zero();  // [m] r_i - r_j (minimum image); a wall: unused
  Vec3 position_i = Vec3::Zero();  // [m] r_i
  Quat orientation_i = Quat::Identity();
  Quat orientation_j = Quat::Identity();  // a wall: identity
  Vec3 periodic_length = Vec3::Zero();    // [m] Model::periodic_length (wall points are wrapped near r_i)
  bool wall = false;
};

// The displacements of [Dominik-Nubold] eqs. 42-49 in the world frame.
struct SandDisplacements {
  Vec3 p1 = Vec3::Zero(), p2 = Vec3::Zero();  // [m] eq. 42 (a wall: p2 = wall point - r_i)
  Vec3 q1 = Vec3::Zero(), q2 = Vec3::Zero();  // eq. 42
  Vec3 delta = Vec3::Zero();                  // [m] eq. 43
  Vec3 axis = Vec3::Zero();                   // e, eq. 44
  Vec3 pulling = Vec3::Zero();                // [m] delta_perp, eq. 45
  Vec3 sliding = Vec3::Zero();                // [m] delta_par, eq. 46
  Vec3 rolling = Vec3::Zero();                // [m] xi, eq. 47
  double twisting_angle = 0.0;                // [rad] alpha_par, eq. 48
  double rolling_angle = 0.0;                 // [rad] alpha_perp, eq. 49
};

SandDisplacements sand_displacements(const ContactGeometry& g, const SandBodies& b, const SandPointers& pointers);

// True while the contact holds: it forms when the surfaces touch (overlap > 0) and breaks beyond
// the break separation.
inline bool sand_active(const SandConstants& c, const ContactGeometry& g, bool was_active) {
  return was_active ? g.overlap >= -c.break_separation : g.overlap > 0.0;
}

// Evaluates the law (forming the pointers when `newly_active`, moving them when a critical value is
// exceeded). Updates the pointers in `law_state` and h.slipping (set when the contact slides this step). `dt` is the
// step just made (0: a static evaluation); the plastic loss is booked as the integrator applied the forces.
// g.first_sample_weight scales the adhesive pull F_c (in the force, not in the energy) and the dashpots: the
// contact stage sets it in the step the contact forms (onset_weight, contact_geometry.hpp), so that their jumps
// cost no first-order error.
ContactResponse sand_contact(const SandParameters& law, const PairCoefficients& pair, const ContactGeometry& g,
                             const SandBodies& b, ContactHistory& h, LawState& law_state, bool newly_active,
                             double dt = 0.0);

// A contact that breaks in this step (its separation passed s_b at t0 = t_n + s dt, exit_fraction in
// contact_geometry.hpp). The normal force is 0 at the break, but the springs and dashpots drop from their last
// sample: under velocity Verlet (`verlet`) the force and couple of (s - 1/2) times their values are made up at
// t_{n+1}, as the linear law's dashpot is (linear_exit_dashpot), and what is lost is the energy stored at t0,
// U(t_{n+1}) + (1 - s) dt P with P the springs' power on the bodies: the work they did after t_n is then what
// velocity Verlet applies, and the balance keeps no first-order error per break. Without it (a static evaluation,
// the overdamped scheme) the energy stored now.
struct SandBreak {
  double lost = 0.0;      // [J] booked as dissipated ([Dominik-Nubold] App. A.6)
  OpeningMakeUp made_up;  // velocity Verlet only
};

SandBreak sand_break(const SandParameters& law, const PairCoefficients& pair, const ContactGeometry& g,
                     const SandBodies& b, const ContactHistory& h, const LawState& law_state, double dt, bool verlet);

}  // namespace lodestone
