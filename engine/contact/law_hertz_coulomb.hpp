#pragma once
// [Erokhin-Berkov] eqs. 7-9 as the paper writes them:
//   F_n = 4/3 E* sqrt(R*) delta^{3/2} n                      (Hertz, eq. 7; optional normal damping)
//   F_t = -mu F_n v_t / |v_t|                                  (sliding friction, eq. 8)
// v_t is the tangential relative velocity at the contact point (the seeds README: friction acts
// against it). No tangential spring: the contact keeps no shear history. Below `slip_velocity`
// the friction grows linearly, F_t = -mu F_n v_t / slip_velocity (0: eq. 8 exactly, no force at
// v_t = 0). The friction force uses the elastic normal force, as eq. 8 does.

#include "engine/contact/contact_geometry.hpp"
#include "engine/core/model.hpp"

namespace lodestone {

inline bool hertz_coulomb_active(const ContactGeometry& g) {
  return g.overlap > 0.0;
}

ContactResponse hertz_coulomb_contact(const HertzCoulombParameters& law, const PairCoefficients& pair,
                                      const ContactGeometry& g, ContactHistory& h);

}  // namespace lodestone
