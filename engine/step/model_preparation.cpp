#include "engine/step/model_preparation.hpp"

#include "engine/bodies/pressure.hpp"
#include "engine/contact/law_sand.hpp"
#include "engine/core/preset.hpp"
#include "engine/core/state.hpp"
#include "engine/magnetic/dlc.hpp"
#include "engine/magnetic/ewald.hpp"
#include "engine/magnetic/p3m.hpp"
#include "engine/magnetic/stoner_wohlfarth.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace lodestone {

namespace {

double max_field_strength(const FieldParameters& f) {
  return f.program == FieldProgram::Ramp ? std::max(f.start_strength, f.strength) : f.strength;
}

// The largest angular frequency met so far and what set it.
class FrequencyLimit {
 public:
  void consider(double omega, const char* what) {
    if (std::isfinite(omega) && omega > advice_.omega_max) {
      advice_.omega_max = omega;
      advice_.limited_by = what;
    }
  }
  TimeStepAdvice advice() const {
    TimeStepAdvice out = advice_;
    out.suggested = out.omega_max > 0.0 ? 1.0 / (2.0 * pi * out.omega_max) : 1e-4;
    return out;
  }

 private:
  TimeStepAdvice advice_;
};

// What of the scene the contact rates depend on: the materials present (walls included), the largest
// radius and the lightest particle.
struct SceneExtent {
  std::vector<char> present;
  double r_max = 0.0;
  double m_min = INFINITY;
};

SceneExtent scene_extent(const Model& m, const Particles& p) {
  SceneExtent s;
  s.present.assign(m.materials.size(), 0);
  for (size_t i = 0; i < p.size(); ++i) {
    s.present[static_cast<size_t>(p.material[i])] = 1;
    s.r_max = std::max(s.r_max, p.radius[i]);
    s.m_min = std::min(s.m_min, p.mass[i]);
  }
  s.present[static_cast<size_t>(m.wall_material)] = 1;
  return s;
}

// Contact springs between every pair of materials present (walls included).
void consider_contact_springs(const Model& m, const SceneExtent& s, FrequencyLimit& limit) {
  const bool overdamped = m.integrator.scheme == IntegratorScheme::OverdampedHeun;
  const double r_max = s.r_max;
  const size_t n_mat = m.materials.size();
  for (size_t a = 0; a < n_mat; ++a) {
    for (size_t b = 0; b < n_mat; ++b) {
      if (!s.present[a] || !s.present[b]) continue;
      const PairCoefficients& c = m.pair(static_cast<int>(a), static_cast<int>(b));
      double k = 0.0, kn_linear = c.kn;
      if (m.contact.law == ContactLaw::Linear) {
        const LinearLawParameters& lin = m.contact.linear;
        if (lin.emod > 0.0) {
          kn_linear = pi * r_max * lin.emod;  // wall contact: A = pi R^2, L = R (the stiffest)
          k = std::max(kn_linear, lin.kratio > 0.0 ? kn_linear / lin.kratio : 0.0);
        } else {
          k = std::max(c.kn, c.ks);
        }
      } else {
        // Hertz stiffness grows with overlap; take the tangent stiffness at 1 % of the largest radius
        // against a wall (R* = R), the stiffest usual case. Hertz-Coulomb has no tangential spring.
        const double delta_ref = 0.01 * r_max;
        const double tangential = m.contact.law == ContactLaw::HertzMindlin ? 8.0 * c.g_star : 0.0;
        k = std::max(2.0 * c.e_star, tangential) * std::sqrt(r_max * delta_ref);
      }
      // Rotational springs [N m/rad] against a wall (R* = R = r_max) for the lightest sphere: rate
      // sqrt(K / I) with I = 7/5 m R^2 about the contact point (rolling) or 2/5 m R^2 (twisting).
      double k_rolling = 0.0, k_twisting = 0.0;
      if (m.contact.law == ContactLaw::Sand) {
        const SandConstants sc = sand_constants(m.contact.sand, c, r_max);
        k = std::max(k, sc.k_sliding);
        k_rolling = sc.k_rolling * r_max * r_max;
        k_twisting = sc.k_twisting;
      } else if (m.contact.rolling.enabled && m.contact.law != ContactLaw::HertzCoulomb) {
        const RollingParameters& rp = m.contact.rolling;
        const double kn =
            m.contact.law == ContactLaw::Linear ? kn_linear : 2.0 * c.e_star * std::sqrt(r_max * 0.01 * r_max);
        k_rolling = rp.rolling_stiffness * kn * rp.rolling_friction * rp.rolling_friction * r_max * r_max;
        k_twisting = rp.twisting_stiffness * kn * rp.twisting_friction * rp.twisting_friction * r_max * r_max;
      }
      // Overdamped, a spring k relaxes at the rate k / gamma; the rule becomes dt < 1 / (2 pi rate).
      limit.consider(overdamped ? k / m.environment.translational_damping : std::sqrt(k / s.m_min),
                     "contact stiffness");
      const double k_rot = std::max(k_rolling / 1.4, k_twisting / 0.4);  // over I / (m R^2)
      if (k_rot > 0.0)
        limit.consider(overdamped ? std::max(k_rolling, k_twisting) / (r_max * r_max * m.environment.rotational_damping)
                                  : std::sqrt(k_rot / (s.m_min * r_max * r_max)),
                       "contact rolling/twisting stiffness");
    }
  }
}

// Field torque (small-angle libration sqrt(m B / I)), dipole coupling at contact, damping.
void consider_particle_rates(const Model& m, const Particles& p, FrequencyLimit& limit) {
  const bool overdamped = m.integrator.scheme == IntegratorScheme::OverdampedHeun;
  const double b_max = max_field_strength(m.field);
  const double gamma = m.environment.translational_damping;
  const double gamma_rot = m.environment.rotational_damping;
  for (size_t i = 0; i < p.size(); ++i) {
    const Material& mat = m.materials[static_cast<size_t>(p.material[i])];
    if (overdamped) {
      // Relaxation rates: field or anisotropy torque stiffness over the rotational drag.
      const double drag = p.radius[i] * p.radius[i] * m.environment.rotational_damping;
      const double volume = sphere_volume(p.radius[i]);
      double k_rot = p.moment_body[i].norm() * b_max;
      if (mat.moment_model == MomentModel::StonerWohlfarth)
        k_rot = std::min(mat.magnetization * volume * b_max, 2.0 * mat.anisotropy * volume);
      if (mat.moment_model == MomentModel::Induced) k_rot = 0.0;
      limit.consider(k_rot / drag, "field torque");
      continue;
    }
    const double mu = p.moment_body[i].norm();
    const double inertia = p.inertia[i];
    if (mu > 0.0 && b_max > 0.0) limit.consider(std::sqrt(mu * b_max / inertia), "field torque");
    if (mu > 0.0 && m.magnetics.method != DipoleMethod::Off) {
      const double d = std::max(2.0 * p.radius[i], m.magnetics.dipole_cap);
      const double k_rot = 2.0 * mu0_over_4pi * mu * mu / (d * d * d);             // aligned pair, torque stiffness
      const double k_trans = 24.0 * mu0_over_4pi * mu * mu / (d * d * d * d * d);  // head to tail, dF/dr
      limit.consider(std::sqrt(k_rot / inertia), "dipole coupling");
      limit.consider(std::sqrt(k_trans / p.mass[i]), "dipole coupling");
    }
    if (gamma > 0.0) limit.consider(gamma / p.mass[i], "viscous damping");
    if (gamma_rot > 0.0) limit.consider(p.radius[i] * p.radius[i] * gamma_rot / inertia, "viscous damping");
  }
}

// Largest angular frequency in the scene and what sets it; the design rule is
// dt < 1 / (2 pi omega_max) with omega_max = sqrt(k / m_min) for the stiffest spring.
TimeStepAdvice advise_time_step(const Model& m, const Particles& p) {
  if (p.size() == 0) {
    TimeStepAdvice advice;
    advice.suggested = 1e-4;
    advice.limited_by = "no particles";
    return advice;
  }
  FrequencyLimit limit;
  consider_contact_springs(m, scene_extent(m, p), limit);
  consider_particle_rates(m, p, limit);
  return limit.advice();
}

}  // namespace

namespace {

// Combinations the field tables cannot check one field at a time.
void check_model_combinations(const Model& m) {
  for (size_t k = 0; k < m.materials.size(); ++k) {
    const Material& mat = m.materials[k];
    const std::string path = "$.materials[" + std::to_string(k) + "]";
    if (mat.moment_model == MomentModel::StonerWohlfarth && (mat.magnetization <= 0.0 || mat.anisotropy <= 0.0))
      throw PresetError(path + ".moment_model",
                        "stoner_wohlfarth needs magnetization (Ms) > 0 and anisotropy (K) > 0; got Ms = " +
                            std::to_string(mat.magnetization) + " A/m, K = " + std::to_string(mat.anisotropy) +
                            " J/m^3");
  }
  if (m.integrator.scheme == IntegratorScheme::OverdampedHeun &&
      (m.environment.translational_damping <= 0.0 || m.environment.rotational_damping <= 0.0))
    throw PresetError("$.integrator.scheme",
                      "overdamped_heun needs environment.translational_damping > 0 and rotational_damping > 0 "
                      "(v = F / gamma); got " +
                          std::to_string(m.environment.translational_damping) + " and " +
                          std::to_string(m.environment.rotational_damping) + " N s/m");
  if (const EnvironmentParameters& env = m.environment;
      env.temperature > 0.0 && (env.translational_damping <= 0.0 || env.rotational_damping <= 0.0)) {
    std::ostringstream os;
    os << "T = " << env.temperature << " K needs environment.translational_damping > 0 and rotational_damping > 0 "
       << "(got " << env.translational_damping << " and " << env.rotational_damping << " N s/m): the thermal noise "
       << "is matched to the damping (fluctuation-dissipation), and without damping there is no heat bath";
    throw PresetError("$.environment.temperature", os.str());
  }
  if (m.pressure.method == PressureMethod::Lid) {
    if (m.box.z_max != SideKind::Wall)
      throw PresetError("$.pressure.method", "lid needs box.z_max = \"wall\" (the lid replaces that side)");
  }
}

// The materials: every particle's exists, the walls' is named; the coefficients of every pair of them.
void set_materials(Model& m, const Particles& p) {
  const size_t n_mat = m.materials.size();
  if (n_mat == 0) throw PresetError("$.materials", "at least one material is needed");
  check_model_combinations(m);
  for (size_t i = 0; i < p.size(); ++i)
    if (p.material[i] < 0 || static_cast<size_t>(p.material[i]) >= n_mat)
      throw PresetError("$.materials", "particle " + std::to_string(p.id[i]) + " uses material index " +
                                           std::to_string(p.material[i]) + ", which does not exist");
  m.wall_material = material_index(m.materials, m.box.wall_material);
  if (m.wall_material < 0) throw PresetError("$.box.wall_material", "no material named '" + m.box.wall_material + "'");

  m.pair_table.assign(n_mat * n_mat, PairCoefficients{});
  for (size_t a = 0; a < n_mat; ++a)
    for (size_t b = 0; b < n_mat; ++b) m.pair_table[a * n_mat + b] = mix_materials(m.materials[a], m.materials[b]);
}

// The ranges the neighbour lists and the periodic checks need: the largest radius, the contact reach beyond touching,
// the skin and the dipole cutoff.
void set_ranges(Model& m, const Particles& p) {
  m.max_radius = 0.0;
  for (double r : p.radius) m.max_radius = std::max(m.max_radius, r);
  const double diameter = 2.0 * m.max_radius;

  m.contact_reach = m.contact.law == ContactLaw::Linear ? std::max(0.0, m.contact.linear.rgap) : 0.0;
  if (m.contact.law == ContactLaw::Sand) {
    // A sand contact holds until its gap exceeds the break separation, which grows with R* (wall: R).
    for (const PairCoefficients& c : m.pair_table)
      m.contact_reach = std::max(m.contact_reach, sand_constants(m.contact.sand, c, m.max_radius).break_separation);
  }
  m.skin = m.integrator.neighbor_skin.value_or(diameter > 0.0 ? 0.3 * diameter : 1e-6);
  m.dipole_cutoff = m.magnetics.cutoff.value_or(diameter > 0.0 ? 4.0 * diameter : 0.0);
}

// Refuses the tree method where it cannot sum the scene: a periodic side or an activity distance.
void check_tree_method(const Model& m) {
  // A cell's multipole expansion cannot take the minimum image of each of its particles, and the tree sums
  // all pairs, so a truncation by surface gap has no place in it (engine/magnetic/dipole_tree.hpp).
  for (int a = 0; a < 3; ++a)
    if (m.box.periodic(a))
      throw PresetError("$.magnetics.method", std::string("\"tree\" needs open boundaries, but the box is periodic "
                                                          "along ") +
                                                  "xyz"[a] +
                                                  "; use \"direct\" (exact, minimum image) or \"cutoff\" there");
  if (m.magnetics.activity_distance) {
    std::ostringstream os;
    os << *m.magnetics.activity_distance << " m is set, but the tree method sums all pairs and ignores no pair; "
       << "allowed with \"tree\": \"none\" (or use \"direct\" or \"cutoff\" with an activity distance)";
    throw PresetError("$.magnetics.activity_distance", os.str());
  }
}

// The periodic lengths; a periodic box must be longer than twice the interaction range plus skin.
void set_periodic_lengths(Model& m) {
  const double diameter = 2.0 * m.max_radius;
  for (int a = 0; a < 3; ++a) {
    m.periodic_length[a] = m.box.periodic(a) ? m.box.max[a] - m.box.min[a] : 0.0;
    if (!m.box.periodic(a)) continue;
    const double length = m.box.max[a] - m.box.min[a];
    double range = diameter + m.contact_reach;
    if (m.magnetics.method == DipoleMethod::Cutoff) range = std::max(range, m.dipole_cutoff);
    if (length < 2.0 * (range + m.skin)) {
      std::ostringstream os;
      os << "periodic along "
         << "xyz"[a] << ": the box length " << length << " m is shorter than twice the "
         << "interaction range plus skin (2 x (" << range << " + " << m.skin << ") m); enlarge the box or "
         << "reduce magnetics.cutoff / integrator.neighbor_skin";
      throw PresetError("$.box", os.str());
    }
  }
}

// The Ewald sum's splitting or P3M's mesh, once the box and the options are checked against them.
void choose_periodic_sum(Model& m, const Particles& p) {
  // The Ewald sum (and P3M, its mesh form) is a sum over the images of a box periodic in all three directions; it
  // sums every pair at its true distance, so neither a cap nor a truncation by surface gap has a place in it.
  const bool mesh = m.magnetics.method == DipoleMethod::P3M;
  const std::string name = mesh ? "\"p3m\"" : "\"ewald\"";
  std::string open_axes;
  for (int a = 0; a < 3; ++a)
    if (!m.box.periodic(a)) open_axes += "xyz"[a];
  // Fully periodic, or a slab (periodic along x and y, walls or open sides along z) with the layer correction
  // (engine/magnetic/dlc.hpp).
  if (!open_axes.empty() && !is_slab(m))
    throw PresetError("$.magnetics.method",
                      name +
                          " needs a box periodic along x, y and z, or along x and y (a slab: walls or open "
                          "sides along z, summed with the layer correction), but it is not periodic along " +
                          open_axes +
                          " (box.*_min/_max); allowed there: \"direct\", \"cutoff\", \"tree\" (open sides only) "
                          "or \"off\"");
  if (is_slab(m) && m.magnetics.ewald_surroundings == EwaldSurroundings::Vacuum)
    throw PresetError("$.magnetics.ewald_surroundings",
                      "a slab (periodic along x and y only) is summed with the layer correction, whose 3-D sum "
                      "needs conducting surroundings (the planar surface term is part of the correction); allowed "
                      "in a slab: \"conducting\"");
  const std::string sum = mesh ? "P3M (a mesh form of the Ewald sum)" : "the Ewald sum";
  if (m.magnetics.activity_distance)
    throw PresetError("$.magnetics.activity_distance",
                      sum + " counts every pair and ignores none; allowed with " + name + ": \"none\"");
  if (m.magnetics.dipole_cap > 0.0)
    throw PresetError("$.magnetics.dipole_cap",
                      sum + " takes every pair at its true distance; allowed with " + name + ": 0");
  if (mesh && std::any_of(p.clump.begin(), p.clump.end(), [](int c) { return c >= 0; }))
    throw PresetError("$.magnetics.method",
                      "\"p3m\" does not yet take rigid clumps (their pebbles must not act on each other); allowed "
                      "with clumps in a periodic box: \"ewald\", \"direct\", \"cutoff\" or \"off\"");
  if (mesh) {
    m.p3m = choose_p3m_tuning(m.magnetics.p3m_accuracy, ewald_box(m), p.size());
    // No mesh within the sizes tried (up to about 8 points per particle) meets the accuracy: say so rather than
    // run less accurately than asked.
    if (m.p3m.estimated_error > m.magnetics.p3m_accuracy * 1.0001) {
      std::ostringstream os;
      os << m.magnetics.p3m_accuracy << " cannot be met for " << p.size()
         << " particles in this box (the best mesh tried gives an estimated " << m.p3m.estimated_error
         << "); allowed here: " << m.p3m.estimated_error << " or more, or magnetics.method \"ewald\"";
      throw PresetError("$.magnetics.p3m_accuracy", os.str());
    }
  } else
    m.ewald = choose_ewald_splitting(m.magnetics.ewald_accuracy, ewald_box(m), p.size());
}

}  // namespace

void prepare_model_ranges(Model& m, const Particles& p) {
  set_materials(m, p);
  set_ranges(m, p);
  if (m.magnetics.method == DipoleMethod::Tree) check_tree_method(m);
  set_periodic_lengths(m);
  m.ewald = EwaldSplitting{};
  m.p3m = P3MTuning{};
  if (m.magnetics.method == DipoleMethod::Ewald || m.magnetics.method == DipoleMethod::P3M) choose_periodic_sum(m, p);
}

void prepare_model(Model& m, const Particles& p) {
  prepare_model_ranges(m, p);
  m.advice = advise_time_step(m, p);  // first: without damping the lid's is taken from the contacts' frequency
  m.lid_damping = m.pressure.lid_damping.value_or(auto_lid_damping(m, p));
  m.time_step = m.integrator.time_step.value_or(m.advice.suggested);
}

}  // namespace lodestone
