#pragma once
// Rolling and twisting resistance for the linear and Hertz-Mindlin laws: the elastic-plastic
// spring-dashpot (EPSD) rolling model of Ai, Chen, Rotter & Ooi (Powder Technol. 206 (2011) 269,
// as LIGGGHTS documents it for `rolling_friction epsd` / `epsd3`), and the same form about the normal
// for twisting (our choice: Ai et al. treat rolling only).
//
//   relative rotation of i against j, (w_i - w_j) dt, split into rolling (in the contact plane, the
//   angle vector carried into each new plane like the shear displacement) and twisting (about n)
//   rolling:  M_r = -k_r theta_r,      k_r = kappa_r k_n mu_r^2 R*^2,   |M_r| <= mu_r R* f_n
//   twisting: M_t = -k_t theta_t n,    k_t = kappa_t k_n mu_t^2 R*^2,   |M_t| <= mu_t R* f_n
//   beyond a limit the spring angle is shortened to it (plastic rolling / twisting, like the Coulomb
//   slip of the shear spring); the energy lost is booked as friction
//   dashpots -2 beta sqrt(I_r k_r) w_roll and -2 beta sqrt(I_t k_t) w_twist, off while at the limit
// k_n is the law's normal (tangent) stiffness, f_n its elastic normal force. The torques act on i
// and, opposite, on j: couples, so the contact conserves angular momentum.

#include "engine/contact/contact_geometry.hpp"
#include "engine/core/parameters.hpp"

namespace lodestone {

struct RollingResponse {
  Vec3 couple = Vec3::Zero();          // [N m] on i (springs and dashpots); j gets the opposite
  Vec3 dashpot_couple = Vec3::Zero();  // [N m] the dashpot part
  double elastic_energy = 0.0;         // [J] stored in the rolling and twisting springs now
  double slip_loss = 0.0;              // [J] lost to plastic rolling and twisting this step
  double stiffness_work = 0.0;         // [J] given to the springs by a change of k_n (Hertz-Mindlin)
  bool rolling_limited = false;        // the rolling torque is at its limit
  bool twisting_limited = false;
};

// Advances h by this step's relative rotation (none for dt = 0) and evaluates the springs.
// `normal_force` is the law's elastic normal force, `normal_stiffness` its k_n.
RollingResponse rolling_resistance(const RollingParameters& law, const ContactGeometry& g, double normal_force,
                                   double normal_stiffness, RollingHistory& h, double dt, bool newly_active);

}  // namespace lodestone
