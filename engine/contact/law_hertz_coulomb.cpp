#include "engine/contact/law_hertz_coulomb.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

ContactResponse hertz_coulomb_contact(const HertzCoulombParameters& law, const PairCoefficients& pair,
                                      const ContactGeometry& g, ContactHistory& h) {
  static const double kDampingFactor = 2.0 * std::sqrt(5.0 / 6.0);
  const double delta = g.overlap;
  const double root = std::sqrt(g.effective_radius * delta);
  const double fn_elastic = 4.0 / 3.0 * pair.e_star * root * delta;
  const double sn = 2.0 * pair.e_star * root;
  const double fn_damp = -kDampingFactor * law.damping_ratio_n * std::sqrt(sn * g.effective_mass) *
                         hertz_damping_scale(g) * g.dashpot_normal_velocity;
  const double fn = std::max(fn_elastic + fn_damp, 0.0);

  ContactResponse out;
  const double vt = g.tangential_velocity.norm();
  const double scale = std::max(vt, law.slip_velocity);
  const Vec3 ft = scale > 0.0 ? Vec3(-(pair.friction * fn_elastic / scale) * g.tangential_velocity) : Vec3::Zero();
  h.slipping = vt > 0.0 && pair.friction > 0.0;
  out.dashpot_force = (fn - fn_elastic) * g.normal;
  out.force = fn * g.normal + ft;
  out.elastic_energy = 0.4 * fn_elastic * delta;  // 8/15 E* sqrt(R*) delta^{5/2}
  // The friction's work is booked by the caller, over two half steps as a dashpot's (contacts.cpp).
  return out;
}

}  // namespace lodestone
