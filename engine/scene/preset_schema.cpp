// [SECTION] The field tables of a preset: every field declared once, with unit, range and help.
// Parsing, writing, docs/presets.md and the app's panels all come from these tables.

#include "engine/scene/preset_io.hpp"

namespace lodestone {

using namespace fields;
namespace r = ranges;
using Q = Quantity;

const Schema<Material>& material_schema() {
  static const Schema<Material> s = {
      text<Material>("name", &Material::name, "Name used by the generator, the box and particle entries."),
      real<Material>("density", &Material::density, Q::Density, r::positive(), "Mass density of the particles."),
      real<Material>("youngs_modulus", &Material::youngs_modulus, Q::Pressure, r::positive(),
                     "Young's modulus E (Hertz-Mindlin law, [Erokhin-Berkov] eq. 9)."),
      real<Material>("poisson_ratio", &Material::poisson_ratio, Q::Dimensionless, r::half_open(-1.0, 0.5),
                     "Poisson ratio nu (Hertz-Mindlin law)."),
      real<Material>("kn", &Material::kn, Q::Stiffness, r::positive(),
                     "Linear law: normal stiffness; a pair uses both in series ([PFC-dipole] eq. 11)."),
      real<Material>("ks", &Material::ks, Q::Stiffness, r::non_negative(),
                     "Linear law: shear stiffness; a pair uses both in series."),
      real<Material>("friction", &Material::friction, Q::Dimensionless, r::non_negative(),
                     "Coulomb friction coefficient; a pair uses the smaller one ([PFC-dipole] eq. 12)."),
      real<Material>("magnetization", &Material::magnetization, Q::Magnetization, r::non_negative(),
                     "Remanent magnetisation M; a particle's moment is M V along its easy axis "
                     "(\"G\" means emu/cm^3 here: 380 G = 3.8e5 A/m). Stoner-Wohlfarth: the saturation "
                     "magnetisation Ms."),
      choice<Material>(
          "moment_model", &Material::moment_model, {"rigid", "stoner_wohlfarth", "induced"},
          "rigid: moment M V fixed along the easy axis in the body; stoner_wohlfarth: moment Ms V at "
          "the energy minimum between easy axis and field, the body feels -2KV (m.n)(m x n) ([Erokhin-Berkov] "
          "eqs. 1-4); induced: m = chi V B / mu0 along the local field, no torque on the body."),
      real<Material>("anisotropy", &Material::anisotropy, Q::EnergyDensity, r::non_negative(),
                     "Stoner-Wohlfarth: uniaxial anisotropy constant K (3.5e6 erg/cm^3 for Sr-ferrite)."),
      real<Material>("susceptibility", &Material::susceptibility, Q::Dimensionless, r::non_negative(),
                     "Induced: volume susceptibility chi of the sphere (effective, demagnetisation included)."),
      real<Material>("surface_energy", &Material::surface_energy, Q::SurfaceEnergy, r::non_negative(),
                     "Sand law: surface energy gamma; pull-off force 3 pi gamma R*, a pair uses sqrt(gamma1 gamma2). "
                     "0: no adhesion and no sliding, rolling or twisting springs."),
  };
  return s;
}

const Schema<LinearLawParameters>& linear_law_schema() {
  using P = LinearLawParameters;
  static const Schema<P> s = {
      integer<P>("lin_mode", &P::lin_mode, 0, 1,
                 "Normal-force update: 0 absolute (kn times overlap), 1 incremental (starts at zero when the "
                 "contact activates, so an initial overlap gives no force)."),
      real<P>("rgap", &P::rgap, Q::Length, r::any(),
              "Reference gap: the contact is active when the surface gap is at most rgap."),
      real<P>("dp_nratio", &P::dp_nratio, Q::Dimensionless, r::closed(0.0, 1.0),
              "Normal critical damping ratio of the dashpot."),
      real<P>("dp_sratio", &P::dp_sratio, Q::Dimensionless, r::closed(0.0, 1.0),
              "Shear critical damping ratio of the dashpot."),
      integer<P>("dp_mode", &P::dp_mode, 0, 3,
                 "Dashpot mode: 0 full normal and shear, 1 no-tension normal, 2 slip-cut shear, 3 both cuts."),
      real<P>("emod", &P::emod, Q::Pressure, r::non_negative(),
              "Deformability: effective modulus E*; when > 0, kn = pi r_min^2 E* / (R1 + R2) per contact "
              "and replaces the materials' kn and ks."),
      real<P>("kratio", &P::kratio, Q::Dimensionless, r::non_negative(),
              "Deformability: normal-to-shear stiffness ratio kn/ks (0 sets ks = 0)."),
      choice<P>("convention", &P::convention, {"pfc", "lammps", "gran/hooke/history"},
                "pfc: the rules above. lammps: LAMMPS's pair granular (hooke, linear_history): shear spring and "
                "shear dashpot together limited by mu |F_n| with F_n the total normal force (dashpot included), the "
                "shear history rescaled to match, dashpots on the half-step velocity, the rolling part of the "
                "contact velocity with the full radii, the history turned into the new contact plane before the "
                "step's increment, torques about the contact point (levers R - overlap/2). gran/hooke/history: "
                "LAMMPS's pair style of that name, the same but for two rules: torques on the full radii, and the "
                "increment added before the history's normal part is taken away (a projection). An exported scene "
                "runs in LAMMPS as here in either (docs/lammps.md)."),
  };
  return s;
}

const Schema<HertzMindlinParameters>& hertz_mindlin_schema() {
  using P = HertzMindlinParameters;
  static const Schema<P> s = {
      real<P>("damping_ratio_n", &P::damping_ratio_n, Q::Dimensionless, r::closed(0.0, 1.0),
              "Normal damping ratio beta_n: force -2 sqrt(5/6) beta_n sqrt(S_n m*) v_n, S_n = 2 E* sqrt(R* delta)."),
      real<P>(
          "damping_ratio_t", &P::damping_ratio_t, Q::Dimensionless, r::closed(0.0, 1.0),
          "Tangential damping ratio beta_t: force -2 sqrt(5/6) beta_t sqrt(S_t m*) v_t, S_t = 8 G* sqrt(R* delta)."),
  };
  return s;
}

const Schema<HertzCoulombParameters>& hertz_coulomb_schema() {
  using P = HertzCoulombParameters;
  static const Schema<P> s = {
      real<P>("damping_ratio_n", &P::damping_ratio_n, Q::Dimensionless, r::closed(0.0, 1.0),
              "Normal damping ratio (as hertz_mindlin); the overdamped integrator needs none."),
      real<P>("slip_velocity", &P::slip_velocity, Q::Velocity, r::non_negative(),
              "Friction -mu F_n v_t / max(|v_t|, slip_velocity): 0 is eq. 8 exactly (no force at v_t = 0)."),
  };
  return s;
}

const Schema<SandParameters>& sand_law_schema() {
  using P = SandParameters;
  static const Schema<P> s = {
      real<P>("sliding_limit", &P::sliding_limit, Q::Length, r::positive(),
              "Critical sliding displacement delta_crit: beyond it the contact slides and the excess is released "
              "([Dominik-Nubold] App. A.6)."),
      real<P>(
          "rolling_limit", &P::rolling_limit, Q::Length, r::positive(),
          "Critical rolling displacement xi_crit ([Dominik-Nubold] App. A.5 uses 10 A); beyond it the contact rolls."),
      real<P>("twisting_limit", &P::twisting_limit, Q::Angle, r::open_closed(0.0, pi / 4.0),
              "Critical twisting angle alpha_crit; beyond it the contact twists plastically."),
      optional_real<P>("break_separation", &P::break_separation, Q::Length, r::non_negative(), "auto",
                       "Surface gap at which a contact breaks (the adhesive pull falls linearly from F_c at touching "
                       "to 0 there); auto: JKR's critical separation a0^2 / (2 6^(1/3) R*)."),
      real<P>("damping_ratio_n", &P::damping_ratio_n, Q::Dimensionless, r::closed(0.0, 1.0),
              "Normal dashpot -2 beta_n sqrt(m* S_n) v_n, S_n = 2 E* max(a0, sqrt(R* delta))."),
      real<P>("damping_ratio_t", &P::damping_ratio_t, Q::Dimensionless, r::closed(0.0, 1.0),
              "Tangential dashpot -2 beta_t sqrt(m* k_s) v_t on the relative velocity at the contact point."),
  };
  return s;
}

const Schema<RollingParameters>& rolling_schema() {
  using P = RollingParameters;
  static const Schema<P> s = {
      boolean<P>("enabled", &P::enabled,
                 "Adds rolling and twisting resistance to the linear and hertz_mindlin laws (the sand law has its "
                 "own; hertz_coulomb ignores it)."),
      real<P>("rolling_friction", &P::rolling_friction, Q::Dimensionless, r::non_negative(),
              "Rolling friction mu_r: the rolling torque is at most mu_r R* f_n (f_n the elastic normal force)."),
      real<P>("rolling_stiffness", &P::rolling_stiffness, Q::Dimensionless, r::positive(),
              "Rolling stiffness k_r = rolling_stiffness k_n mu_r^2 R*^2 (EPSD model of Ai et al. 2011: 2.25)."),
      real<P>("twisting_friction", &P::twisting_friction, Q::Dimensionless, r::non_negative(),
              "Twisting friction mu_t: the twisting torque is at most mu_t R* f_n (0: no twisting resistance)."),
      real<P>("twisting_stiffness", &P::twisting_stiffness, Q::Dimensionless, r::positive(),
              "Twisting stiffness k_t = twisting_stiffness k_n mu_t^2 R*^2."),
      real<P>("damping_ratio", &P::damping_ratio, Q::Dimensionless, r::closed(0.0, 1.0),
              "Dashpot torques -2 ratio sqrt(I k) omega_rel on rolling and twisting while below the limit."),
  };
  return s;
}

const Schema<ContactParameters>& contact_schema() {
  using P = ContactParameters;
  static const Schema<P> s = {
      choice<P>("law", &P::law, {"linear", "hertz_mindlin", "hertz_coulomb", "sand"},
                "Contact law for particle-particle and particle-wall contacts."),
      object<P>("linear", &P::linear, &linear_law_schema, "Linear spring-dashpot law ([PFC-dipole])."),
      object<P>("hertz_mindlin", &P::hertz_mindlin, &hertz_mindlin_schema,
                "Hertz normal force with Mindlin tangential spring and Coulomb limit ([Erokhin-Berkov] eqs. 7-9)."),
      object<P>("hertz_coulomb", &P::hertz_coulomb, &hertz_coulomb_schema,
                "Hertz normal force and pure sliding friction, [Erokhin-Berkov] eqs. 7-8 as written."),
      object<P>("sand", &P::sand, &sand_law_schema,
                "Adhesive contacts tracked by pointers, with sliding, rolling and twisting springs and limits (seed "
                "002 App. A.5-A.6, the SAND code)."),
      object<P>("rolling", &P::rolling, &rolling_schema,
                "Rolling and twisting resistance for the linear and hertz_mindlin laws (off by default)."),
  };
  return s;
}

const Schema<MagneticParameters>& magnetics_schema() {
  using P = MagneticParameters;
  static const Schema<P> s = {
      choice<P>(
          "method", &P::method, {"off", "cutoff", "direct", "tree", "ewald", "p3m"},
          "Dipole-dipole interactions: off, cutoff (neighbour list), direct (exact sum over all pairs, "
          "minimum image on periodic axes), tree (Barnes-Hut approximation of the direct sum, cost N log N; "
          "open boundaries only, no activity_distance; accuracy set by tree_opening_angle), ewald (the "
          "dipolar Ewald sum over all periodic images: boxes periodic along x, y and z, or slabs periodic along x "
          "and y with walls or open sides along z (summed with the dipolar layer correction); no activity_distance "
          "or dipole_cap; accuracy set by ewald_accuracy; cost ~N^1.5 to N^2, for up to a few thousand "
          "particles), or p3m (the same sum with its reciprocal part on a mesh with FFTs, P3M: same boxes and "
          "refusals as ewald, and no rigid clumps yet; cost ~N log N, for large N; accuracy set by p3m_accuracy)."),
      optional_real<P>("cutoff", &P::cutoff, Q::Length, r::positive(), "auto",
                       "Centre distance beyond which dipole pairs are ignored (cutoff method); auto: 4 largest "
                       "diameters."),
      real<P>("dipole_cap", &P::dipole_cap, Q::Length, r::non_negative(),
              "Capping distance: smaller distances are replaced by it in force and torque (0: no cap)."),
      [] {
        // PFC's dipole_d defaults to 0, pieces in contact only; ours to no limit. "touching" names PFC's default.
        FieldSpec<P> f = optional_real<P>(
            "activity_distance", &P::activity_distance, Q::Length, r::non_negative(), "none",
            "Surface gap beyond which a dipole pair is inactive (PFC dipole_d); none (the default): no limit, "
            "every pair interacts; \"touching\" (= 0, PFC's default): pieces in contact only.");
        const auto read_number = f.read;
        f.read = [read_number](P& s, const json& j, const std::string& path) {
          if (j.is_string() && j.get<std::string>() == "touching") {
            s.activity_distance = 0.0;
            return;
          }
          try {
            read_number(s, j, path);
          } catch (const PresetError& e) {
            throw PresetError(e.path(), e.message() + " or \"touching\"");
          }
        };
        return f;
      }(),
      integer<P>("induced_iterations", &P::induced_iterations, 0, 100,
                 "Induced moments: fixed-point passes in which each moment also feels its neighbours' dipole "
                 "fields (0: the applied field only)."),
      integer<P>(
          "force_interval", &P::force_interval, 1, 1000,
          "Multiple time steps ([Dominik-Nubold] App. A.8): dipole forces, torques and energy are computed every k "
          "steps and extrapolated to first order in time from the last two full passes in between, an "
          "approximation with error O((k dt)^2) (docs/physics.md). 1: every step, exact."),
      real<P>("tree_opening_angle", &P::tree_opening_angle, Q::Dimensionless, r::open_closed(0.0, 1.0),
              "Tree method: opening angle theta. A cell of particles whose radius is below theta times its distance "
              "to a particle acts on it through its net moment and first- and second-order corrections; nearer "
              "cells are opened down to exact pairs (leaves of up to 8 particles always). Smaller is more accurate "
              "and slower: the error falls about as theta^3; RMS force / torque error about 3e-4 / 1e-3 at the "
              "default on random scenes of 10 000 to 100 000 particles, about 1e-4 / 4e-4 at 0.25 "
              "(docs/physics.md, docs/performance.md)."),
      real<P>("ewald_accuracy", &P::ewald_accuracy, Q::Dimensionless, r::open_closed(0.0, 0.1),
              "Ewald method: the splitting alpha = sqrt(pi) (N/V^2)^(1/6) balances the real-space and reciprocal "
              "work; the real-space cutoff x/alpha and the reciprocal cutoff 2 alpha x are set where the dropped "
              "terms are this fraction of a pair's strongest term (docs/physics.md). The RMS relative force and "
              "torque errors are far smaller: 1e-8 to 5e-7 at the default on random scenes of 30 to 1000 spheres "
              "(docs/physics.md). Smaller is more accurate and slower."),
      choice<P>("ewald_surroundings", &P::ewald_surroundings, {"conducting", "vacuum"},
                "Ewald and P3M methods (fully periodic boxes; slabs take conducting only): what surrounds the infinite "
                "array of boxes. conducting (tin foil): no surface term, "
                "the usual choice for bulk; vacuum: adds 2 pi M.M / (3 V) x mu0/4pi (M the net moment, V the box "
                "volume), the limit of a growing sphere of boxes in vacuum."),
      real<P>("p3m_accuracy", &P::p3m_accuracy, Q::Dimensionless, r::open_closed(0.0, 0.1),
              "P3M method: the a-priori RMS force error allowed (Cerda et al. 2008; real-space and mesh parts), "
              "relative to F0 = mu0/4pi <m^2> / a^4, the force between two mean moments at the mean spacing a = "
              "(V/N)^(1/3). Mesh size, assignment order, splitting and real-space cutoff are tuned to meet it at "
              "least cost. Typical forces are 10 to 100 F0, so the RMS relative force and torque errors against the "
              "Ewald sum are far smaller: below 5e-5 at the default on random scenes of volume fraction 0.01 to 0.3 "
              "(docs/physics.md). Smaller is more accurate and slower."),
  };
  return s;
}

const Schema<FieldParameters>& field_schema() {
  using P = FieldParameters;
  static const Schema<P> s = {
      choice<P>("program", &P::program, {"constant", "ramp", "rotating", "oscillating"},
                "Time dependence of the uniform field B(t)."),
      real<P>("strength", &P::strength, Q::FluxDensity, r::non_negative(),
              "Field strength |B| (amplitude for oscillating, final value for ramp). Oe and kOe convert by "
              "B = mu0 H: 1 kOe = 0.1 T."),
      direction<P>("direction", &P::direction, "Field direction (at t = 0 for the rotating program)."),
      real<P>("start_strength", &P::start_strength, Q::FluxDensity, r::non_negative(), "Ramp: |B| at t = 0."),
      real<P>("ramp_time", &P::ramp_time, Q::Time, r::positive(), "Ramp: time to go from start_strength to strength."),
      real<P>("frequency", &P::frequency, Q::Frequency, r::non_negative(), "Rotating and oscillating programs."),
      direction<P>("rotation_axis", &P::rotation_axis,
                   "Rotating program: axis the field turns about (right-handed); not parallel to direction."),
      real<P>("phase", &P::phase, Q::Angle, r::any(),
              "Oscillating program: B = strength sin(2 pi f t + phase) direction."),
      matrix3<P>("gradient", &P::gradient, Q::FieldGradient,
                 "Constant gradient dB_a/dx_b (rows a); symmetric and traceless. Adds the force grad(m.B)."),
      vector3<P>("gradient_origin", &P::gradient_origin, Q::Length, "Point where B equals the program value."),
  };
  return s;
}

const Schema<EnvironmentParameters>& environment_schema() {
  using P = EnvironmentParameters;
  static const Schema<P> s = {
      vector3<P>("gravity", &P::gravity, Q::Acceleration, "Gravitational acceleration."),
      real<P>("translational_damping", &P::translational_damping, Q::LinearDamping, r::non_negative(),
              "Global viscous damping gamma: force -gamma v on every particle ([Erokhin-Berkov] eq. 5)."),
      real<P>("rotational_damping", &P::rotational_damping, Q::LinearDamping, r::non_negative(),
              "Global rotational damping gamma*: torque -R^2 gamma* omega ([Erokhin-Berkov] eq. 6)."),
      real<P>("temperature", &P::temperature, Q::Temperature, r::non_negative(),
              "Brownian motion at temperature T: random forces and torques matched to the two dampings (both must "
              "be > 0), so that free spheres reach 1/2 m v^2 = 1/2 I w^2 = 3/2 kT (velocity_verlet) or diffuse with "
              "D = kT / gamma, D_r = kT / (R^2 gamma*) (overdamped_heun). The noise follows particles.seed. 0: off."),
  };
  return s;
}

const Schema<BoxParameters>& box_schema() {
  using P = BoxParameters;
  const std::vector<std::string> sides = {"wall", "open", "periodic"};
  static const Schema<P> s = {
      vector3<P>("min", &P::min, Q::Length, "Lower corner of the box."),
      vector3<P>("max", &P::max, Q::Length, "Upper corner of the box."),
      choice<P>("x_min", &P::x_min, sides, "Side x = min.x: wall, open, or periodic (then x_max too)."),
      choice<P>("x_max", &P::x_max, sides, "Side x = max.x."),
      choice<P>("y_min", &P::y_min, sides, "Side y = min.y."),
      choice<P>("y_max", &P::y_max, sides, "Side y = max.y."),
      choice<P>("z_min", &P::z_min, sides, "Side z = min.z (the floor when gravity points down)."),
      choice<P>("z_max", &P::z_max, sides, "Side z = max.z."),
      text<P>("wall_material", &P::wall_material, "Material of the walls (name); empty: the first material."),
  };
  return s;
}

const Schema<IntegratorParameters>& integrator_schema() {
  using P = IntegratorParameters;
  static const Schema<P> s = {
      choice<P>("scheme", &P::scheme, {"velocity_verlet", "overdamped_heun"},
                "velocity_verlet: inertial, quaternion rotation; overdamped_heun: inertia neglected, v = F/gamma, "
                "omega = T/(R^2 gamma*), Heun's method ([Erokhin-Berkov]; needs both environment dampings > 0)."),
      optional_real<P>("time_step", &P::time_step, Q::Time, r::positive(), "auto",
                       "Time step; auto: the suggested 1/(2 pi omega_max) from the stiffest contact, field and "
                       "damping."),
      optional_real<P>("neighbor_skin", &P::neighbor_skin, Q::Length, r::positive(), "auto",
                       "Verlet skin added to the cutoffs; the list is rebuilt when a particle moves half of it. "
                       "auto: 0.3 largest diameters."),
      optional_real<P>("max_displacement", &P::max_displacement, Q::Length, r::positive(), "none",
                       "Overdamped: a step is shortened so that no particle moves further (for removing large "
                       "initial overlaps); none: fixed steps."),
  };
  return s;
}

const Schema<Region>& region_schema() {
  static const Schema<Region> s = {
      vector3<Region>("min", &Region::min, Q::Length, "Lower corner."),
      vector3<Region>("max", &Region::max, Q::Length, "Upper corner."),
  };
  return s;
}

const Schema<ParticleEntry>& particle_entry_schema() {
  using P = ParticleEntry;
  static const Schema<P> s = {
      vector3<P>("position", &P::position, Q::Length, "Centre position."),
      real<P>("radius", &P::radius, Q::Length, r::positive(), "Radius."),
      vector3<P>("velocity", &P::velocity, Q::Velocity, "Initial velocity."),
      vector3<P>("angular_velocity", &P::angular_velocity, Q::AngularVelocity, "Initial angular velocity."),
      direction<P>("axis", &P::axis, "Easy axis (and moment) direction at t = 0."),
      text<P>("material", &P::material, "Material name; empty: the generator's material."),
      optional_real<P>("moment", &P::moment, Q::MagneticMoment, r::non_negative(), "auto",
                       "Magnitude of the magnetic moment; auto: material magnetisation times volume."),
      choice<P>("fixed", &P::fixed, {kHoldNames[0], kHoldNames[1], kHoldNames[2], kHoldNames[3]},
                "Held still from the start: its position, its orientation or both stay as given (the held velocity "
                "is zero) while the forces and torques on it are still computed and written; none: free."),
  };
  // A free particle's entry leaves `fixed` out, as it was before the key existed.
  static const Schema<P> written = [] {
    Schema<P> out = s;
    out.back().omit_when_default = true;
    return out;
  }();
  return written;
}

const Schema<GeneratorParameters>& generator_schema() {
  using P = GeneratorParameters;
  static const Schema<P> s = {
      choice<P>("kind", &P::kind, {"lattice", "random", "list", "checkpoint"},
                "lattice: simple cubic or bcc (`lattice`); random: random non-overlapping placement; list: the entries "
                "in `particles`; "
                "checkpoint: continue the saved run in `file` (particles, contacts, time, protocol phase) with this "
                "preset's parameters."),
      integer<P>("count", &P::count, 0, kMaxParticles,
                 "Number of particles (lattice and random); with the clumps' pebbles at most 10000000 in all."),
      text<P>("material", &P::material, "Material name; empty: the first material."),
      unsigned_integer<P>("seed", &P::seed,
                          "Random seed: the same seed gives the same scene and the same thermal noise "
                          "(environment.temperature)."),
      optional_object<P>("region", &P::region, &region_schema, "Region to fill; null: the whole box."),
      choice<P>("size_distribution", &P::size_distribution, {"monodisperse", "uniform", "lognormal"},
                "Diameter distribution (lattice and random)."),
      real<P>("diameter", &P::diameter, Q::Length, r::positive(), "Mean diameter."),
      real<P>("size_spread", &P::size_spread, Q::Dimensionless, r::closed(0.0, 1.0),
              "lognormal: sigma of ln d (mean diameter kept); uniform: half-width relative to the mean."),
      optional_real<P>("spacing", &P::spacing, Q::Length, r::positive(), "auto",
                       "Lattice spacing (edge of the cubic cell); auto: the smallest without overlap (the largest "
                       "diameter for simple_cubic, 2/sqrt(3) of it for bcc)."),
      choice<P>("lattice", &P::lattice, {"simple_cubic", "bcc"},
                "Lattice generator: simple cubic (one site per cell) or body-centred cubic (two sites per cell, "
                "for dense packings up to volume fraction 0.68)."),
      real<P>("jitter", &P::jitter, Q::Length, r::non_negative(),
              "Lattice generator: each coordinate of each site moves by a uniform random amount in "
              "[-jitter, jitter] (spacing minus the nearest-site distance must leave room: 2 jitter sqrt(3) at "
              "most the gap)."),
      choice<P>("orientation", &P::orientation, {"aligned", "random", "random_hemisphere"},
                "Easy axes (body z, the moment's starting direction) all along `axis`, uniformly random, or "
                "uniformly random on the half sphere around `axis` (moments start on the side of the easy axis "
                "nearer `axis`: [Erokhin-Berkov]'s 0 <= theta <= 90 deg when `axis` is the field)."),
      direction<P>("axis", &P::axis,
                   "Easy axis direction (aligned), or the pole of the half sphere (random_hemisphere)."),
      real<P>("velocity_spread", &P::velocity_spread, Q::Velocity, r::non_negative(),
              "Standard deviation of each initial velocity component."),
      integer<P>("max_attempts", &P::max_attempts, 1, 1'000'000,
                 "Random placement: tries per particle before the generator reports the region as too full."),
      boolean<P>("allow_overlap", &P::allow_overlap,
                 "Random placement: put centres anywhere in the region, overlaps allowed (a protocol phase "
                 "removes them, [Erokhin-Berkov] Sec. 2.1)."),
      object_list<P>("particles", &P::particles, &particle_entry_schema, "List generator: the particles."),
      text<P>("file", &P::file,
              "checkpoint: the checkpoint file (lodestone-run --checkpoint); a relative path is relative to the "
              "preset file's folder."),
  };
  return s;
}

const Schema<PressureParameters>& pressure_schema() {
  using P = PressureParameters;
  static const Schema<P> s = {
      choice<P>("method", &P::method, {"none", "lid", "top_layer"},
                "lid: the z_max side becomes a lid pressed down with pressure x area (a servo); top_layer: seed "
                "004's force pi R^2 P down on particles with z > top_fraction z_max."),
      real<P>("pressure", &P::pressure, Q::Pressure, r::non_negative(), "Pressure on the packing."),
      optional_real<P>("lid_damping", &P::lid_damping, Q::LinearDamping, r::positive(), "auto",
                       "Lid: velocity = (force from the particles - P A) / lid_damping; auto: the translational "
                       "damping (without one, a critically damped contact, 2 m omega_max) times the number of "
                       "mean particle cross-sections in the lid area."),
      real<P>("top_fraction", &P::top_fraction, Q::Dimensionless, r::open_closed(0.0, 1.0),
              "top_layer: particles with z - floor > top_fraction (z_max - floor) are pushed (z_max: highest "
              "particle top)."),
  };
  return s;
}

// [SECTION] Beam bonds and the frictional floor ([Voxel-beams]; engine/bodies/bonds.hpp, engine/contact/law_floor.hpp)

const Schema<BondEntry>& bond_entry_schema() {
  using P = BondEntry;
  static const Schema<P> s = {
      integer<P>("a", &P::a, 0, kMaxParticles,
                 "First particle: its index in generation order (list entries in order)."),
      integer<P>("b", &P::b, 0, kMaxParticles, "Second particle."),
  };
  return s;
}

const Schema<BondParameters>& bonds_schema() {
  using P = BondParameters;
  static const Schema<P> s = {
      choice<P>("create", &P::create, {"none", "touching", "list"},
                "none: no bonds; touching: a bond between every two generated particles that touch (a lattice, a "
                "chain, a strip); list: the pairs in `list`. Bonds join centres and start unstrained."),
      real<P>("touch_tolerance", &P::touch_tolerance, Q::Dimensionless, r::closed(0.0, 1.0),
              "touching: particles closer than (r_a + r_b)(1 + touch_tolerance) are bonded."),
      object_list<P>("list", &P::list, &bond_entry_schema, "list: the bonded pairs."),
      real<P>("youngs_modulus", &P::youngs_modulus, Q::Pressure, r::positive(),
              "Young's modulus E of the bond beam: axial stiffness EA/L, bending EI/L (shear b1 = 12 EI/L^3)."),
      optional_real<P>("shear_modulus", &P::shear_modulus, Q::Pressure, r::positive(), "auto",
                       "Shear modulus G: torsion stiffness GJ/L; auto: E / 2.6 (Poisson ratio 0.3)."),
      real<P>("radius_ratio", &P::radius_ratio, Q::Dimensionless, r::positive(),
              "Bond cross-section radius / the smaller particle radius: A = pi r^2, I = pi r^4/4, J = 2 I."),
      optional_real<P>("axial_stiffness", &P::axial_stiffness, Q::Stiffness, r::positive(), "auto",
                       "EA/L directly; auto: from youngs_modulus."),
      optional_real<P>("bending_stiffness", &P::bending_stiffness, Q::Energy, r::positive(), "auto",
                       "EI/L directly, in N m per radian; auto: from youngs_modulus."),
      optional_real<P>("torsion_stiffness", &P::torsion_stiffness, Q::Energy, r::positive(), "auto",
                       "GJ/L directly, in N m per radian; auto: from shear_modulus."),
      real<P>("damping_ratio", &P::damping_ratio, Q::Dimensionless, r::closed(0.0, 2.0),
              "Local damping of the relative motion of a bond's ends, 2 zeta sqrt(m k) (1: critical; [Voxel-beams]); "
              "rigid-body motion is not damped."),
      optional_real<P>("tensile_strength", &P::tensile_strength, Q::Pressure, r::positive(), "none",
                       "A bond breaks when tension / A + bending moment r / I exceeds this; none: never."),
      optional_real<P>("shear_strength", &P::shear_strength, Q::Pressure, r::positive(), "none",
                       "A bond breaks when shear force / A + torsion moment r / J exceeds this; none: never."),
  };
  return s;
}

const Schema<FloorParameters>& floor_schema() {
  using P = FloorParameters;
  static const Schema<P> s = {
      choice<P>("side", &P::side, {"none", "x_min", "x_max", "y_min", "y_max", "z_min", "z_max"},
                "The wall side that is a floor with static and dynamic friction (replaces the contact law there); "
                "none: no floor."),
      real<P>("static_friction", &P::static_friction, Q::Dimensionless, r::non_negative(),
              "mu_s: a particle sticks until the lateral force exceeds mu_s f_n."),
      real<P>("dynamic_friction", &P::dynamic_friction, Q::Dimensionless, r::non_negative(),
              "mu_d (<= mu_s): a sliding particle feels mu_d f_n against its lateral motion, and stops (sticks "
              "again) when its lateral speed falls below mu_d f_n dt / m."),
      optional_real<P>("stiffness", &P::stiffness, Q::Stiffness, r::positive(), "auto",
                       "Normal stiffness of the floor; auto: kn of the particle's and the wall material in series."),
      real<P>("damping_ratio", &P::damping_ratio, Q::Dimensionless, r::closed(0.0, 1.0),
              "Collisions with the floor are damped normal to it with this ratio (0: none, 1: critical)."),
  };
  return s;
}

const Schema<ProtocolPhase>& protocol_phase_schema() {
  using P = ProtocolPhase;
  static const Schema<P> s = {
      text<P>("name", &P::name, "Shown in the app and the runner's progress."),
      real<P>("duration", &P::duration, Q::Time, r::positive(), "Longest the phase runs."),
      choice<P>("until", &P::until, {"time", "no_overlap", "settled", "aligned"},
                "Ends the phase early: no_overlap (largest overlap / smaller radius <= threshold), settled (fastest "
                "particle slower than threshold m/s), aligned (<cos theta> >= threshold); time: only duration."),
      real<P>("threshold", &P::threshold, Q::Dimensionless, r::non_negative(), "Threshold of `until` (see there)."),
      json_object<P>("set", &P::set,
                     "Preset fields changed when the phase starts, as {\"dotted.path\": value}, e.g. "
                     "{\"field.strength\": \"40 kOe\", \"materials.0.friction\": 0.2}; they stay for later phases."),
      text<P>("wait", &P::wait,
              "Not empty: the phase waits for the user, and this is what the button that ends it says (\"Switch the "
              "field on\"). In the app the run stays in the phase, past its duration, until that button or the "
              "remote verb go, recorded in the timeline as {\"touch\": {\"go\": {}}}; the runner ends it at its "
              "duration, or at a recorded go (docs/session-log.md)."),
  };
  return s;
}

const Schema<TimelineEntry>& timeline_entry_schema() {
  using P = TimelineEntry;
  static const Schema<P> s = {
      unsigned_integer<P>("step", &P::step,
                          "The step the changes apply before (0: before the first step); entries are in "
                          "non-decreasing step order."),
      json_object<P>("set", &P::set,
                     "Preset fields changed, as a protocol phase's set: {\"dotted.path\": value}, e.g. "
                     "{\"field.strength\": \"40 kOe\"}; they stay in force, on top of the running phase, until "
                     "a later entry or phase changes them."),
      json_object<P>("touch", &P::touch,
                     "Instead of set, a hand on the particles: {\"drag\": {\"id\", \"target\", \"stiffness\", "
                     "\"damping\"}}, {\"release\": {}}, {\"add\": {\"id\", particle entry}}, {\"add_clump\": "
                     "{\"first_id\", clump entry}} or {\"delete\": {\"id\"}} (docs/session-log.md)."),
  };
  // An entry writes only what it is: its set, or its touch.
  static const Schema<P> written = [] {
    Schema<P> out = s;
    out[1].omit_when_empty = out[2].omit_when_empty = true;
    return out;
  }();
  return written;
}

const Schema<RunParameters>& run_schema() {
  using P = RunParameters;
  static const Schema<P> s = {
      real<P>("duration", &P::duration, Q::Time, r::positive(), "Simulated time the headless runner covers."),
      integer<P>("series_interval", &P::series_interval, 1, 1'000'000'000, "Steps between time-series rows."),
      integer<P>("frame_interval", &P::frame_interval, 0, 1'000'000'000,
                 "Steps between particle frames (0: no frames unless asked on the command line)."),
      real<P>("real_time_factor", &P::real_time_factor, Q::Dimensionless, r::non_negative(),
              "The app's pace when the scene is loaded, if view.pace is not set (older presets): simulated seconds "
              "per wall-clock second (0: as fast as possible). The runner ignores it."),
  };
  return s;
}

const Schema<ViewParameters>& view_schema() {
  using P = ViewParameters;
  static const Schema<P> s = {
      choice<P>("color_mode", &P::color_mode,
                {"auto", "alignment", "moment", "direction", "speed", "contacts", "cluster"},
                "How the app colours the spheres when the scene loads: alignment (easy axis vs field), moment "
                "(moment vs field), direction (the moment's direction on a colour wheel), speed, contacts, cluster "
                "(touching particles share a colour); auto: alignment with an applied field, else direction when "
                "the particles carry moments, else speed."),
      real<P>("arrow_length", &P::arrow_length, Q::Dimensionless, r::closed(1.0, 6.0),
              "Half length of the moment arrows in sphere radii (1: just to the surface)."),
      real<P>("camera_yaw", &P::camera_yaw, Q::Angle, r::closed(-2.0 * pi, 2.0 * pi),
              "Where the camera looks from, turned about the vertical z axis: 0 from +x, -90 deg from -y."),
      real<P>("camera_pitch", &P::camera_pitch, Q::Angle, r::closed(-89.0 * pi / 180.0, 89.0 * pi / 180.0),
              "Height of the camera's viewpoint above the horizontal plane, -89 to 89 deg."),
      optional_real<P>("pace", &P::pace, Q::Dimensionless, r::positive(), "fastest",
                       "Simulated seconds per real second when the scene loads in the app (0.1: ten times slower "
                       "than real time); \"fastest\": as fast as the computer goes, or run.real_time_factor when "
                       "that is set (older presets). Never changes the trajectory; the runner ignores it."),
      boolean<P>("start_paused", &P::start_paused,
                 "The scene opens paused, with a \"press space to start\" hint, so the first moment can be seen."),
      boolean<P>("plots_open", &P::plots_open, "The Plots window opens with the scene."),
      choice_list<P>("plots", &P::plots,
                     {"alignment", "angles", "kinetic", "potential", "balance", "contacts", "cluster_size"},
                     "The plots the Plots window shows first, in this order (the others folded below them): "
                     "alignment <|cos theta|>, angles (theta and psi now), kinetic and potential (stored) energy, "
                     "balance (the energy balance), contacts, cluster_size (mean cluster size S); empty: all, "
                     "alignment first."),
      choice<P>("group", &P::group, {"teaching", "research", "benchmarks"},
                "Where the scene gallery (File > Scenes) lists the scene: teaching (to show a class), research, or "
                "benchmarks (scenes for timing the engine)."),
      text<P>("title", &P::title, "The scene's plain title in the gallery (empty: the file's name)."),
      text<P>("summary", &P::summary,
              "One line in the gallery saying what the scene shows (the description, folded under it, says more)."),
  };
  return s;
}

const Schema<LjScales>& lj_scales_schema() {
  using P = LjScales;
  // Always SI (or strings with units): these define the lj numbers, so they cannot be written in them.
  static const Schema<P> s = {
      real<P>("sigma", &P::sigma, Q::Length, r::positive(),
              "Length unit sigma (typically a particle diameter); always SI or with a unit, never lj."),
      real<P>("mass", &P::mass, Q::Mass, r::positive(),
              "Mass unit m (typically a particle's mass); always SI or with a unit."),
      real<P>("energy", &P::energy, Q::Energy, r::positive(),
              "Energy unit epsilon (e.g. the contact dipole energy mu0 mu^2 / (4 pi sigma^3), or kT); always SI or "
              "with a unit."),
  };
  return s;
}

const Schema<DisplayUnits>& display_units_schema() {
  using P = DisplayUnits;
  static const Schema<P> s = {
      text<P>("field", &P::field, "Unit the app shows field strengths in: T, mT, G, Oe, kOe, ..."),
      text<P>("length", &P::length, "Unit the app shows lengths in: m, mm, um, ..."),
      text<P>("pressure", &P::pressure, "Unit the app shows pressures in: Pa, kPa, atm, bar, ..."),
      choice<P>("system", &P::system, {"si", "lj"},
                "How the file's bare numbers are read and the preset, frames and series are written: si, or lj, "
                "reduced dipolar units with length sigma, mass m, energy epsilon and mu0/4pi = 1 (LAMMPS units lj, "
                "ESPResSo): time sigma sqrt(m/epsilon), moment sqrt(4 pi sigma^3 epsilon / mu0), field "
                "sqrt(mu0 epsilon / (4 pi sigma^3)), temperature epsilon/k_B (docs/physics.md, \"Reduced (LJ-style "
                "dipolar) units\"). Strings with units are SI in both; the engine runs in SI."),
      object<P>("lj", &P::lj, &lj_scales_schema, "The scales of units.system lj, in SI."),
  };
  return s;
}

const Schema<Preset>& preset_schema() {
  using P = Preset;
  static const Schema<P> s = {
      integer<P>("version", &P::version, kPresetVersion, kPresetVersion, "Preset format version."),
      text<P>("description", &P::description, "What the scene shows (the app lists it)."),
      object<P>("units", &P::units, &display_units_schema,
                "The file's unit system (units.system: SI by default, or lj) and the app's display units; any "
                "value may also be a string with a unit."),
      object_list<P>("materials", &P::materials, &material_schema, "Materials (at least one)."),
      object<P>("contact", &P::contact, &contact_schema, "Contact law and its parameters."),
      object<P>("magnetics", &P::magnetics, &magnetics_schema, "Dipole-dipole interactions."),
      object<P>("field", &P::field, &field_schema, "External magnetic field."),
      object<P>("environment", &P::environment, &environment_schema, "Gravity, global damping and temperature."),
      object<P>("box", &P::box, &box_schema, "The box: its six sides are walls, open, or periodic."),
      object<P>("integrator", &P::integrator, &integrator_schema, "Time integration."),
      object<P>("pressure", &P::pressure, &pressure_schema,
                "Pressure on the packing: a lid or [Erokhin-Berkov]'s top layer."),
      object<P>("bonds", &P::bonds, &bonds_schema,
                "Beam bonds between particles ([Voxel-beams]): axial, shear, bending and torsion stiffness, local "
                "damping, strength."),
      object<P>("floor", &P::floor, &floor_schema,
                "A wall side as a floor with static and dynamic friction and a stick flag ([Voxel-beams])."),
      object<P>("particles", &P::particles, &generator_schema, "Particle generator."),
      object_list<P>(
          "clumps", &P::clumps, &clump_schema,
          "Rigid clumps of pebbles ([PFC-dipole]), added to the generator's particles: cubes, bars or lists of "
          "spheres moving as one body (velocity_verlet only)."),
      object_list<P>("protocol", &P::protocol, &protocol_phase_schema,
                     "Phases run in order by the app and the runner (empty: one open-ended run)."),
      object_list<P>("timeline", &P::timeline, &timeline_entry_schema,
                     "Session log: the parameter changes of an interactive run by step number, recorded by the "
                     "app and replayed by the app and the runner (docs/session-log.md)."),
      object<P>("run", &P::run, &run_schema, "Headless runner defaults, and the app's pace."),
      object<P>("view", &P::view, &view_schema,
                "The app's view of the scene when it loads: colours, arrow length, camera direction, pace, plots. "
                "Saving from the app writes the view then; no physics reads it."),
  };
  return s;
}

}  // namespace lodestone
