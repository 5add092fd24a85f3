#pragma once
// The parameters of a scene, in SI, exactly as a preset declares them. Each struct here has its
// field table (key, unit, range, help) in preset_schema.cpp; docs/presets.md is generated from it.

#include "engine/core/bond_parameters.hpp"
#include "engine/core/hold.hpp"
#include "engine/core/math.hpp"
#include "engine/core/shared_list.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lodestone {

// [SECTION] Materials
// How a particle's moment follows the field: fixed in the body (permanent dipole), the
// Stoner-Wohlfarth equilibrium about the easy axis ([Erokhin-Berkov] eqs. 1-4), or induced m = chi V H.
enum class MomentModel : int { Rigid, StonerWohlfarth, Induced };

struct Material {
  std::string name = "material";
  double density = 7500.0;        // [kg/m^3]
  double youngs_modulus = 1.0e9;  // [Pa]   Hertz-Mindlin ([Erokhin-Berkov] eq. 9)
  double poisson_ratio = 0.3;     // [-]
  double kn = 1.0e3;              // [N/m]  linear normal stiffness, inherited in series ([PFC-dipole] eq. 11)
  double ks = 1.0e3;              // [N/m]  linear shear stiffness, inherited in series
  double friction = 0.5;          // [-]    Coulomb coefficient, inherited as the minimum ([PFC-dipole] eq. 12)
  double magnetization = 0.0;     // [A/m]  rigid: moment = M V along the easy axis; Stoner-Wohlfarth: Ms
  MomentModel moment_model = MomentModel::Rigid;
  double anisotropy = 0.0;      // [J/m^3] uniaxial anisotropy constant K (Stoner-Wohlfarth)
  double susceptibility = 0.0;  // [-]    induced: m = chi V B / mu0
  double surface_energy = 0.0;  // [J/m^2] sand law: gamma (pull-off 3 pi gamma R*), mixed sqrt(g1 g2)
};

// [SECTION] Contact laws
enum class ContactLaw : int { Linear, HertzMindlin, HertzCoulomb, Sand };

// Which rule the linear law follows where [PFC-dipole] and LAMMPS differ (engine/contact/law_linear.hpp): ours,
// LAMMPS's pair granular (hooke, linear_history), or LAMMPS's gran/hooke/history (docs/lammps.md, "Two LAMMPS styles").
enum class LinearConvention : int { Pfc, Lammps, GranHookeHistory };

// [PFC-dipole] (PFC linear model with dashpot).
struct LinearLawParameters {
  int lin_mode = 0;        // 0: absolute normal update, 1: incremental
  double rgap = 0.0;       // [m] reference gap: active when the surface gap <= rgap
  double dp_nratio = 0.0;  // [-] normal critical damping ratio
  double dp_sratio = 0.0;  // [-] shear critical damping ratio
  int dp_mode = 0;         // 0 full/full, 1 no-tension normal, 2 slip-cut shear, 3 both
  double emod = 0.0;       // [Pa] deformability: when > 0, kn = A E*/L per contact (A = pi r_min^2)
  double kratio = 0.0;     // [-]  deformability: ks = kn / kratio (0: ks = 0)
  LinearConvention convention = LinearConvention::Pfc;  // pfc: as above; lammps, gran/hooke/history: LAMMPS's rules
  // Either LAMMPS style: its friction limit, half-step dashpots and contact velocity with the full radii.
  bool lammps_rules() const { return convention != LinearConvention::Pfc; }
};

// [Erokhin-Berkov] eqs. 7-9 with a Mindlin tangential spring and Tsuji-form damping.
struct HertzMindlinParameters {
  double damping_ratio_n = 0.0;  // [-] normal damping ratio
  double damping_ratio_t = 0.0;  // [-] tangential damping ratio
};

// [Erokhin-Berkov] eqs. 7-8 as written: Hertz normal force, and sliding friction -mu F_n v_t/|v_t| with no
// tangential spring (below `slip_velocity` the friction grows linearly from zero).
struct HertzCoulombParameters {
  double damping_ratio_n = 0.0;  // [-] normal damping ratio (inertial runs; the overdamped scheme needs none)
  double slip_velocity = 0.0;    // [m/s] regularisation of the friction direction (0: none)
};

// [Dominik-Nubold] App. A.5-A.6 (the SAND code): contact pointers in each body's frame give pulling,
// sliding, rolling and twisting displacements; elastic springs up to critical values, beyond which
// the contact moves (plastic), and a break beyond a separation. See engine/contact/law_sand.hpp.
struct SandParameters {
  double sliding_limit = 1e-9;                // [m]   critical sliding displacement delta_crit
  double rolling_limit = 1e-9;                // [m]   critical rolling displacement xi_crit ([Dominik-Nubold]: 10 A)
  double twisting_limit = 1.0 / (16.0 * pi);  // [rad] critical twisting angle alpha_crit
  std::optional<double> break_separation;     // [m]   gap at which it breaks; unset: JKR a0^2/(2 6^(1/3) R*)
  double damping_ratio_n = 0.0;               // [-]   normal dashpot
  double damping_ratio_t = 0.0;               // [-]   tangential dashpot (velocity at the contact point)
};

// Rolling and twisting resistance added to the linear and Hertz-Mindlin laws (engine/contact/law_rolling.hpp):
// the elastic-plastic spring-dashpot (EPSD) rolling model of Ai et al. (2011), and its twisting analogue.
struct RollingParameters {
  bool enabled = false;
  double rolling_friction = 0.1;     // [-] mu_r: limit torque mu_r R* f_n
  double rolling_stiffness = 2.25;   // [-] k_r = rolling_stiffness k_n mu_r^2 R*^2 (Ai et al.: 2.25)
  double twisting_friction = 0.1;    // [-] mu_t: limit torque mu_t R* f_n (0: no twisting resistance)
  double twisting_stiffness = 2.25;  // [-] k_t = twisting_stiffness k_n mu_t^2 R*^2
  double damping_ratio = 0.3;        // [-] dashpot torques -2 ratio sqrt(I k) omega_rel while below the limit
};

struct ContactParameters {
  ContactLaw law = ContactLaw::Linear;
  LinearLawParameters linear;
  HertzMindlinParameters hertz_mindlin;
  HertzCoulombParameters hertz_coulomb;
  SandParameters sand;
  RollingParameters rolling;
};

// [SECTION] Magnetics
// Direct: the exact sum over all pairs (the reference). Tree: its Barnes-Hut approximation
// (engine/magnetic/dipole_tree.hpp). Ewald: the dipolar Ewald sum over all periodic images, for boxes periodic
// along all three axes (engine/magnetic/ewald.hpp).
// P3M: the same sum with its reciprocal part on a mesh with FFTs (engine/magnetic/p3m.hpp), for large N.
enum class DipoleMethod : int { Off, Cutoff, Direct, Tree, Ewald, P3M };

// What surrounds the infinite periodic array of boxes in the Ewald sum (docs/physics.md, "Dipolar Ewald sum"):
// a conductor (tin foil, mu' = infinity: no surface term) or vacuum (mu' = 1: the surface term of a sphere of
// boxes, 2 pi |M|^2 / (3 V) x mu0/4pi).
enum class EwaldSurroundings : int { Conducting, Vacuum };

struct MagneticParameters {
  DipoleMethod method = DipoleMethod::Cutoff;
  std::optional<double> cutoff;             // [m] centre distance for the cutoff method; unset = 4 largest diameters
  double dipole_cap = 0.0;                  // [m] smallest distance used in force and torque (0: none)
  std::optional<double> activity_distance;  // [m] surface gap beyond which a pair is inactive (PFC dipole_d)
  int induced_iterations = 0;               // fixed-point passes making induced moments feel their neighbours
  // Multiple time steps ([Dominik-Nubold] App. A.8): the dipole pass runs in full every this many force passes and
  // is extrapolated to first order in time in between (engine/magnetic/magnetics.hpp). 1: every pass, exact.
  int force_interval = 1;
  // Tree method: a cell of radius rho acts through its multipole expansion at distances beyond rho / theta;
  // the relative error falls about as theta^3 (docs/physics.md). (0, 1], dimensionless.
  double tree_opening_angle = 0.3;
  // Ewald method: the cutoffs are chosen so that the dropped real-space and reciprocal-space terms are at most
  // this fraction of a pair's strongest term (docs/physics.md); the RMS relative force error is far below it.
  double ewald_accuracy = 1e-4;  // [-]
  EwaldSurroundings ewald_surroundings = EwaldSurroundings::Conducting;
  // P3M method: the a-priori RMS force error allowed, relative to F0 = c <m^2> / a^4 (a = (V/N)^(1/3), the mean
  // spacing); mesh, order, splitting and cutoff are tuned to meet it at least cost (docs/physics.md).
  double p3m_accuracy = 5e-4;  // [-]
};

// [SECTION] External field
enum class FieldProgram : int { Constant, Ramp, Rotating, Oscillating };

struct FieldParameters {
  FieldProgram program = FieldProgram::Constant;
  double strength = 0.0;                // [T] |B| (amplitude for oscillating, final value for ramp)
  Vec3 direction{0.0, 0.0, 1.0};        // unit; rotating: the direction at t = 0
  double start_strength = 0.0;          // [T] ramp: |B| at t = 0
  double ramp_time = 1.0;               // [s] ramp: time to reach `strength`
  double frequency = 1.0;               // [Hz] rotating and oscillating programs
  Vec3 rotation_axis{1.0, 0.0, 0.0};    // unit; rotating: the field turns about this axis
  double phase = 0.0;                   // [rad] oscillating: B = strength sin(2 pi f t + phase) direction
  Mat3 gradient = Mat3::Zero();         // [T/m] dB_a/dx_b, constant; must be symmetric and traceless
  Vec3 gradient_origin = Vec3::Zero();  // [m] point where B equals the program value
};

// [SECTION] Environment: gravity and global viscous damping ([Erokhin-Berkov] eqs. 5-6)
struct EnvironmentParameters {
  Vec3 gravity = Vec3::Zero();         // [m/s^2]
  double translational_damping = 0.0;  // [N s/m]  force -gamma v
  double rotational_damping = 0.0;     // [N s/m]  torque -R^2 gamma* omega
  double temperature = 0.0;            // [K] thermal noise matched to the damping (engine/step/thermal.hpp); 0: off
};

// [SECTION] Box
enum class SideKind : int { Wall, Open, Periodic };

// "x", "y" or "z" (axis 0, 1, 2), for messages.
inline const char* axis_name(int axis) {
  return axis == 0 ? "x" : axis == 1 ? "y" : "z";
}

struct BoxParameters {
  Vec3 min = Vec3::Zero();     // [m]
  Vec3 max{0.01, 0.01, 0.01};  // [m]
  SideKind x_min = SideKind::Wall, x_max = SideKind::Wall;
  SideKind y_min = SideKind::Wall, y_max = SideKind::Wall;
  SideKind z_min = SideKind::Wall, z_max = SideKind::Wall;
  std::string wall_material;  // name; empty: the first material

  SideKind side(int axis, int upper) const {
    static constexpr SideKind BoxParameters::*sides[3][2] = {{&BoxParameters::x_min, &BoxParameters::x_max},
                                                             {&BoxParameters::y_min, &BoxParameters::y_max},
                                                             {&BoxParameters::z_min, &BoxParameters::z_max}};
    return this->*sides[axis][upper];
  }
  bool periodic(int axis) const { return side(axis, 0) == SideKind::Periodic; }
  // The first axis along which a sphere is not inside the box: beyond a wall, or its centre outside a
  // periodic box (open sides bound nothing); -1 when it is inside.
  int axis_outside(const Vec3& centre, double radius) const {
    for (int axis = 0; axis < 3; ++axis) {
      const double margin = periodic(axis) ? 0.0 : radius;
      const bool below = side(axis, 0) != SideKind::Open && centre[axis] - margin < min[axis];
      const bool above = side(axis, 1) != SideKind::Open && centre[axis] + margin > max[axis];
      if (below || above) return axis;
    }
    return -1;
  }
  bool any_wall() const {
    for (int axis = 0; axis < 3; ++axis)
      for (int upper = 0; upper < 2; ++upper)
        if (side(axis, upper) == SideKind::Wall) return true;
    return false;
  }
};

// [SECTION] Integrator
// Overdamped: inertia neglected ([Erokhin-Berkov] eqs. 5-6 without the left-hand sides), v = F / gamma and
// omega = T / (R^2 gamma*), advanced with Heun's method.
enum class IntegratorScheme : int { VelocityVerlet, OverdampedHeun };

struct IntegratorParameters {
  IntegratorScheme scheme = IntegratorScheme::VelocityVerlet;
  std::optional<double> max_displacement;  // [m] overdamped: shorten a step so no particle moves more
  std::optional<double> time_step;         // [s] unset: the suggested value
  std::optional<double> neighbor_skin;     // [m] unset: 0.3 largest diameters
};

// [SECTION] Pressure on the packing ([Erokhin-Berkov] Sec. 3)
// lid: the z_max side is a flat lid pushed down with `pressure` x its area, moving with the
// velocity (F_particles - P A) / lid_damping (a servo). top_layer: the paper's method, a force
// pi R^2 P down on every particle with z > top_fraction z_max.
enum class PressureMethod : int { None, Lid, TopLayer };

struct PressureParameters {
  PressureMethod method = PressureMethod::None;
  double pressure = 0.0;              // [Pa]
  std::optional<double> lid_damping;  // [N s/m] unset: gamma x (lid area / pi r_mean^2)
  double top_fraction = 0.9;          // [-] top_layer: particles above this fraction of z_max
};

// [SECTION] Protocol: phases run in order ([Erokhin-Berkov] Sec. 3); each changes preset fields
// and ends after a time or when a condition holds.
enum class PhaseEnd : int { Time, NoOverlap, Settled, Aligned };

struct ProtocolPhase {
  std::string name = "phase";
  double duration = 1.0;  // [s] longest the phase runs
  PhaseEnd until = PhaseEnd::Time;
  double threshold = 0.0;  // no_overlap: largest overlap / radius; settled: largest speed [m/s];
                           // aligned: <cos theta>
  nlohmann::ordered_json set = nlohmann::ordered_json::object();  // {"dotted.path": value} applied at the start
  // Not empty: the phase waits for the user, and these are the words of the button that ends it ("Switch the field
  // on"). In the app it goes on only when told to (that button, the remote verb `go`), recorded as a timeline entry
  // {"touch": {"go": {}}} at its step so that a saved session replays it. A session that does not hold waiting
  // phases (the runner, Python) ends it at its duration or condition as any phase, unless the timeline still has a
  // go to apply, which then ends it at its recorded step.
  std::string wait;
};

// [SECTION] Timeline (session log, engine/scene/preset_edits.hpp): parameter changes made during a run, each
// applied just before the step with its number, so that a saved interactive session replays.
// An entry either changes parameters (`set`) or is a hand on the particles (`touch`: a drag target,
// a release, an added particle or clump, a deletion; engine/scene/touch_actions.hpp), never both.
struct TimelineEntry {
  std::uint64_t step = 0;  // applied between steps, when the step counter (State::step) equals this
  nlohmann::ordered_json set = nlohmann::ordered_json::object();    // {"dotted.path": value}, as a phase's set
  nlohmann::ordered_json touch = nlohmann::ordered_json::object();  // {"drag": {...}} etc.; empty: a parameter change
};

// [SECTION] Particle generation
// Checkpoint: the whole state of a saved run (engine/scene/checkpoint.hpp) instead of generated particles.
enum class GeneratorKind : int { Lattice, Random, List, Checkpoint };
enum class SizeDistribution : int { Monodisperse, Uniform, LogNormal };
// RandomHemisphere: uniform over the half sphere around `axis`, so every moment starts on the side of the
// easy axis nearer that direction ([Erokhin-Berkov] treats 0 <= theta <= pi/2 only).
enum class OrientationKind : int { Aligned, Random, RandomHemisphere };
// Lattice generator: simple cubic (one site per cell) or body-centred cubic (two: corner and centre, the
// densest packing of monodisperse spheres a cubic cell gives without overlap, up to volume fraction 0.68).
enum class LatticeKind : int { SimpleCubic, BodyCentredCubic };

struct Region {
  Vec3 min = Vec3::Zero();  // [m]
  Vec3 max = Vec3::Zero();  // [m]
};

struct ParticleEntry {
  Vec3 position = Vec3::Zero();          // [m]
  double radius = 5e-4;                  // [m]
  Vec3 velocity = Vec3::Zero();          // [m/s]
  Vec3 angular_velocity = Vec3::Zero();  // [rad/s]
  Vec3 axis{0.0, 0.0, 1.0};              // unit: easy axis (and moment) direction at t = 0
  std::string material;                  // empty: the generator's material
  std::optional<double> moment;          // [A m^2] unset: material magnetisation x volume
  HoldKind fixed = HoldKind::None;       // held still from the start (its velocities in `fixed` are then zero)
};

struct GeneratorParameters {
  GeneratorKind kind = GeneratorKind::Random;
  int count = 100;
  std::string material;  // empty: the first material
  std::uint64_t seed = 1;
  std::optional<Region> region;  // unset: the whole box
  SizeDistribution size_distribution = SizeDistribution::Monodisperse;
  double diameter = 1e-3;         // [m] mean diameter
  double size_spread = 0.0;       // [-] log-normal: sigma of ln d; uniform: half-width / mean
  std::optional<double> spacing;  // [m] lattice spacing (cubic cell edge); unset: the smallest without overlap
  LatticeKind lattice = LatticeKind::SimpleCubic;
  double jitter = 0.0;  // [m] lattice: uniform random displacement of each coordinate, +-jitter
  OrientationKind orientation = OrientationKind::Random;
  Vec3 axis{0.0, 0.0, 1.0};      // unit: easy axis direction (aligned), pole of the hemisphere (random_hemisphere)
  double velocity_spread = 0.0;  // [m/s] standard deviation of each initial velocity component
  int max_attempts = 1000;       // random placement: tries per particle before giving up
  bool allow_overlap = false;    // random placement: accept overlaps (removed by a protocol phase)
  SharedList<ParticleEntry> particles;  // list generator (shared by copies of a preset until changed)
  std::string file;                     // checkpoint: path (relative paths: to the preset file's folder)
};

// [SECTION] Run settings (the headless runner's defaults; its options override them)
struct RunParameters {
  double duration = 1.0;          // [s] simulated time
  int series_interval = 100;      // [steps] between time-series rows
  int frame_interval = 0;         // [steps] between particle frames (0: none)
  double real_time_factor = 0.0;  // [-] the app's pace on load: simulated s per wall s (0: as fast as possible)
};

// [SECTION] The app's view of a scene (colours, arrows, camera, pace, plots): no physics reads it, so a
// change here never changes a trajectory. Loading a preset in the app applies it; saving writes the view then.
enum class ViewColorMode : int {
  Automatic,        // by the scene: field alignment with an applied field, else moment direction or speed
  FieldAlignment,   // easy axis vs field
  MomentAlignment,  // moment vs field
  MomentDirection,  // the moment's direction on a colour wheel (meaningful without a field)
  Speed,
  Contacts,
  Cluster,
};
// Where the scene gallery (File > Scenes) lists a preset.
enum class GalleryGroup : int { Teaching, Research, Benchmarks };

struct ViewParameters {
  ViewColorMode color_mode = ViewColorMode::Automatic;
  double arrow_length = 2.0;                // [radii] half length of a moment arrow (1: just the surface)
  double camera_yaw = -70.0 * pi / 180.0;   // [rad] where the camera looks from, about z (0: +x, -pi/2: -y)
  double camera_pitch = 22.0 * pi / 180.0;  // [rad] above the horizontal plane
  std::optional<double> pace;      // [-] simulated s per real s on load; unset: run.real_time_factor or fastest
  bool start_paused = false;       // the scene opens paused with a "press space to start" hint
  bool plots_open = false;         // the Plots window opens with the scene
  std::vector<std::string> plots;  // the plots the Plots window shows first, in this order (the rest folded below)
  GalleryGroup group = GalleryGroup::Research;  // the scene gallery's group
  std::string title;                            // the gallery's plain title ("": the file's name)
  std::string summary;                          // the gallery's one line on what it shows
};

// [SECTION] The physics sections, declared once: a Preset carries them beside its generator, protocol and
// run settings (engine/core/preset.hpp), a Model beside the tables derived from them (engine/core/model.hpp).
struct PhysicsParameters {
  std::vector<Material> materials{Material{}};
  ContactParameters contact;
  MagneticParameters magnetics;
  FieldParameters field;
  EnvironmentParameters environment;
  BoxParameters box;
  IntegratorParameters integrator;
  PressureParameters pressure;
  BondParameters bonds;   // [Voxel-beams] beam bonds (engine/bodies/bonds.hpp)
  FloorParameters floor;  // [Voxel-beams] frictional floor (engine/contact/law_floor.hpp)
};

// [SECTION] Units: the system a preset file and the run's outputs are written in, and how the app shows values
// (the engine stays in SI)

// si: the file's bare numbers are SI. lj: they are reduced Lennard-Jones-style dipolar units with mu0/4pi = 1
// (LAMMPS `units lj`, ESPResSo), converted to SI when the file is read and back when it and the run's frames and
// series are written (engine/scene/unit_system.hpp; docs/physics.md, "Reduced (LJ-style dipolar) units"). Not
// [Erokhin-Berkov]'s App. B scaling (engine/analysis/reduced_units.hpp), which only reports.
enum class UnitSystem : int { Si, Lj };

// The three scales of the lj system; every other unit follows from them and mu0/4pi = 1.
struct LjScales {
  double sigma = 1.0;   // [m]  length
  double mass = 1.0;    // [kg] mass
  double energy = 1.0;  // [J]  energy
};

struct DisplayUnits {
  std::string field = "mT";
  std::string length = "mm";
  std::string pressure = "atm";
  UnitSystem system = UnitSystem::Si;  // how the file's bare numbers and the outputs are to be read
  LjScales lj;                         // the scales of system lj, always in SI
};

}  // namespace lodestone
