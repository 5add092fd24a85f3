#pragma once
// Hertz-Mindlin contact law ([Erokhin-Berkov] eqs. 7-9, with a Mindlin tangential spring as in
// Johnson, Contact Mechanics, and Tsuji-form damping):
//   fn = 4/3 E* sqrt(R*) delta^{3/2}                                  (elastic, [Erokhin-Berkov] eq. 7)
//   S_n = 2 E* sqrt(R* delta),  S_t = 8 G* sqrt(R* delta)             (tangent stiffnesses)
//   damping: -2 sqrt(5/6) beta sqrt(S m*) v   (normal and tangential)
//   tangential: Ft = -S_t us plus the dashpot while sticking, |Ft| <= mu fn with fn the normal force
//   acting, dashpot included (Coulomb limit on the whole tangential force; sliding cuts the tangential
//   dashpot; friction against the relative tangential velocity at the contact point, [Erokhin-Berkov] eq. 8)
// The total normal force is never attractive.

#include "engine/contact/contact_geometry.hpp"
#include "engine/core/model.hpp"

namespace lodestone {

inline bool hertz_mindlin_active(const ContactGeometry& g) {
  return g.overlap > 0.0;
}

ContactResponse hertz_mindlin_contact(const HertzMindlinParameters& law, const PairCoefficients& pair,
                                      const ContactGeometry& g, ContactHistory& h, const Vec3& previous_shear,
                                      bool newly_active);

}  // namespace lodestone
