#include "engine/contact/law_hertz_mindlin.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

ContactResponse hertz_mindlin_contact(const HertzMindlinParameters& law, const PairCoefficients& pair,
                                      const ContactGeometry& g, ContactHistory& h, const Vec3& previous_shear,
                                      bool newly_active) {
  static const double kDampingFactor = 2.0 * std::sqrt(5.0 / 6.0);
  const double delta = g.overlap;
  const double root = std::sqrt(g.effective_radius * delta);  // sqrt(R* delta)
  const double fn_elastic = 4.0 / 3.0 * pair.e_star * root * delta;
  const double sn = 2.0 * pair.e_star * root;
  const double st = 8.0 * pair.g_star * root;

  ContactResponse out;
  const double scale = hertz_damping_scale(g);  // delta^{1/4} averaged over the step (contact_geometry.hpp)
  const double fn_damp =
      -kDampingFactor * law.damping_ratio_n * std::sqrt(sn * g.effective_mass) * scale * g.dashpot_normal_velocity;
  const double fn = std::max(fn_elastic + fn_damp, 0.0);

  // The tangential dashpot is slip-cut and Coulomb's limit bounds spring and dashpot together by mu times
  // the normal force acting, dashpot included (engine/contact/contact_geometry.hpp, bound_shear_forces).
  const Vec3 trial_shear = h.shear;
  const double st_old = newly_active ? st : h.shear_stiffness;
  Vec3 ft = -st * h.shear;
  Vec3 ft_damp =
      -kDampingFactor * law.damping_ratio_t * std::sqrt(st * g.effective_mass) * scale * g.dashpot_tangential_velocity;
  const ShearForces bounded = bound_shear_forces(ft, ft_damp, h.shear, st, pair.friction * fn);
  ft = bounded.spring;
  ft_damp = bounded.dashpot;
  h.slipping = bounded.slipping;
  // The Mindlin stiffness follows the overlap: the energy that gives the spring is booked apart.
  const ShearSpringEnergy spring = shear_spring_energy(st_old, st, previous_shear, trial_shear, ft);
  out.slip_loss = spring.slip_loss;
  out.stiffness_work = spring.stiffness_work;
  h.shear_stiffness = st;

  out.dashpot_force = (fn - fn_elastic) * g.normal + ft_damp;
  out.force = fn * g.normal + ft + ft_damp;
  // Hertz potential 8/15 E* sqrt(R*) delta^{5/2} = 2/5 fn delta; tangential spring at the current stiffness.
  out.elastic_energy = 0.4 * fn_elastic * delta + (st > 0.0 ? 0.5 * ft.squaredNorm() / st : 0.0);
  out.normal_force_elastic = fn_elastic;
  out.normal_stiffness = sn;
  return out;
}

}  // namespace lodestone
