#include "engine/contact/law_linear.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

LinearStiffness linear_stiffness(const LinearLawParameters& law, const PairCoefficients& pair,
                                 const ContactGeometry& g) {
  if (law.emod <= 0.0) return {pair.kn, pair.ks};
  const bool wall = g.radius_j == 0.0;
  const double r_min = wall ? g.radius_i : std::min(g.radius_i, g.radius_j);
  const double length = wall ? g.radius_i : g.radius_i + g.radius_j;
  const double kn = pi * r_min * r_min * law.emod / length;
  return {kn, law.kratio > 0.0 ? kn / law.kratio : 0.0};
}

double linear_onset_weight(const LinearLawParameters& law, const ContactGeometry& g, double dt) {
  return onset_weight(law.rgap + g.overlap, -g.normal_velocity * dt);  // rgap - gap >= 0 for an active contact
}

Vec3 linear_exit_dashpot(const LinearLawParameters& law, const ContactGeometry& g, const ContactHistory& h, double dt) {
  const bool normal_acts = law.dp_mode == 0 || law.dp_mode == 2;
  const bool shear_acts = law.dp_mode == 0 || law.dp_mode == 1;
  if (!normal_acts && !shear_acts) return Vec3::Zero();
  const double s = exit_fraction(-g.overlap - law.rgap, g.normal_velocity * dt);  // gap - rgap > 0: open
  const double normal_part = h.dashpot_force.dot(g.normal);
  Vec3 last = Vec3::Zero();
  if (normal_acts) last += normal_part * g.normal;
  if (shear_acts) last += h.dashpot_force - normal_part * g.normal;
  return (s - 0.5) * last;
}

ContactResponse linear_contact(const LinearLawParameters& law, const PairCoefficients& pair, const ContactGeometry& g,
                               ContactHistory& h, const Vec3& previous_shear, bool newly_active) {
  const LinearStiffness k = linear_stiffness(law, pair, g);
  const double gap = -g.overlap;

  // Normal force of the linear spring, no tension.
  double fn;
  if (law.lin_mode == 0) {
    fn = k.kn * (law.rgap - gap);
  } else {
    fn = newly_active ? 0.0 : h.normal_force + k.kn * (h.gap - gap);
  }
  fn = std::max(fn, 0.0);
  h.normal_force = fn;
  h.gap = gap;

  // Dashpots: critical damping ratio times 2 sqrt(m k).
  double fn_damp =
      -2.0 * law.dp_nratio * std::sqrt(g.effective_mass * k.kn) * g.dashpot_normal_velocity * g.first_sample_weight;
  const bool no_tension_normal = law.dp_mode == 1 || law.dp_mode == 3;
  if (no_tension_normal) fn_damp = std::max(fn_damp, -fn);
  Vec3 fs_damp =
      -2.0 * law.dp_sratio * std::sqrt(g.effective_mass * k.ks) * g.first_sample_weight * g.dashpot_tangential_velocity;

  // Shear spring with Coulomb slip (Mohr-Coulomb plastic slip of the spring, [Yade-law]). With a slip-cut
  // shear dashpot (dp_mode 2, 3) the limit is Coulomb's on the whole contact force: spring and dashpot
  // together within mu times the normal force acting (elastic + dashpot, never below zero). Otherwise
  // ([PFC-dipole]'s full shear dashpot) it holds the spring within mu times the elastic normal force and
  // the dashpot adds.
  ContactResponse out;
  const Vec3 trial_shear = h.shear;
  const double ks_old = newly_active ? k.ks : h.shear_stiffness;
  Vec3 fs = -k.ks * h.shear;
  const bool slip_cut_shear = law.dp_mode == 2 || law.dp_mode == 3;
  if (law.lammps_rules()) {
    // LAMMPS (pair granular hooke + linear_history, gran/hooke/history): spring and dashpot together within
    // mu |fn + fn_d| (the normal force with its dashpot, by its absolute value, as LAMMPS's Fncrit); beyond
    // it both are scaled back onto the limit and the history is set so that the spring plus the same
    // dashpot give the limit: u = -(F_limit - F_d) / ks. A zero history gives no tangential force at all.
    const double limit = pair.friction * std::abs(fn + fn_damp);
    const Vec3 total = fs + fs_damp;
    const double norm = total.norm();
    h.slipping = norm > limit;
    if (h.slipping) {
      if (h.shear.squaredNorm() != 0.0 && k.ks > 0.0) {
        const Vec3 sliding = total * (limit / norm);
        fs = sliding - fs_damp;
        h.shear = -fs / k.ks;
      } else {
        fs.setZero();
        fs_damp.setZero();
      }
    }
  } else if (slip_cut_shear) {
    const double normal_force = std::max(fn + fn_damp, 0.0);
    const ShearForces bounded = bound_shear_forces(fs, fs_damp, h.shear, k.ks, pair.friction * normal_force);
    fs = bounded.spring;
    fs_damp = bounded.dashpot;
    h.slipping = bounded.slipping;
  } else {
    h.slipping = cap_spring(fs, h.shear, pair.friction * fn);
    // Friction 0 is frictionless in every mode: the full shear dashpot of dp_mode 0 and 1 acts beyond the spring's
    // cap, which at mu = 0 left a sphere spinning on a floor losing 92 % of its spin in 2 s (issue 40).
    if (pair.friction == 0.0) fs_damp.setZero();
  }
  const ShearSpringEnergy spring = shear_spring_energy(ks_old, k.ks, previous_shear, trial_shear, fs);
  out.slip_loss = spring.slip_loss;
  out.stiffness_work = spring.stiffness_work;
  h.shear_stiffness = k.ks;

  out.dashpot_force = fn_damp * g.normal + fs_damp;
  out.force = fn * g.normal + fs + out.dashpot_force;
  out.elastic_energy = 0.5 * fn * fn / k.kn + (k.ks > 0.0 ? 0.5 * fs.squaredNorm() / k.ks : 0.0);
  out.normal_force_elastic = fn;
  out.normal_stiffness = k.kn;
  return out;
}

}  // namespace lodestone
