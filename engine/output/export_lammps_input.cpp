#include "engine/output/export_lammps_input.hpp"

#include "engine/scene/preset_edits.hpp"
#include "engine/step/model_preparation.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <vector>

namespace lodestone {
namespace {

// [SECTION] Refusals

// The preset's value at a dotted path ("materials.0.moment_model") as JSON text, for messages.
std::string value_text(const json& preset, const std::string& dotted) {
  std::string pointer;
  for (char c : dotted) pointer += c == '.' ? '/' : c;
  const json::json_pointer where("/" + pointer);
  return preset.contains(where) ? preset.at(where).dump() : "(unset)";
}

class Refusals {
 public:
  explicit Refusals(const Preset& preset) : json_(preset_to_json(preset)) {}
  // `field` is a dotted preset path; `allowed` says what the export takes instead.
  void refuse(const std::string& field, const std::string& allowed) {
    lines_ += "\n  " + field + " = " + value_text(json_, field) + ": " + allowed;
  }
  void refuse_text(const std::string& text) { lines_ += "\n  " + text; }
  void throw_if_any() const {
    if (lines_.empty()) return;
    throw LammpsExportError("the scene cannot be exported to LAMMPS (docs/lammps.md):" + lines_);
  }

 private:
  json json_;
  std::string lines_;
};

bool materials_need_masses(const Preset& preset) {
  const LinearLawParameters& law = preset.contact.linear;
  return law.dp_nratio > 0.0 || law.dp_sratio > 0.0 || preset.environment.rotational_damping > 0.0;
}

// The masses of one material's particles (all 0 for a material no particle is made of).
struct MaterialMass {
  double mean = 0.0, lightest = 0.0, heaviest = 0.0;  // [kg]
  bool mixed() const { return heaviest > lightest * (1.0 + 1e-12); }
};

std::vector<MaterialMass> material_masses(size_t materials, const Particles& p) {
  std::vector<MaterialMass> mass(materials);
  std::vector<size_t> count(materials, 0);
  for (size_t i = 0; i < p.size(); ++i) {
    const auto k = static_cast<size_t>(p.material[i]);
    MaterialMass& m = mass[k];
    m.lightest = count[k] == 0 ? p.mass[i] : std::min(m.lightest, p.mass[i]);
    m.heaviest = count[k] == 0 ? p.mass[i] : std::max(m.heaviest, p.mass[i]);
    m.mean += p.mass[i];
    ++count[k];
  }
  for (size_t k = 0; k < materials; ++k)
    if (count[k] > 0) mass[k].mean /= static_cast<double>(count[k]);
  return mass;
}

// [SECTION] Text

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

std::string vector_text(const Vec3& v) {
  return number(v.x()) + " " + number(v.y()) + " " + number(v.z());
}

char side_flag(SideKind kind) {
  // Open sides: shrink-wrapped with the preset's box as the smallest extent ('m'), so the neighbour
  // bins never get thinner than the box (LAMMPS refuses bins much smaller than the cutoff). Walls:
  // fixed ('f'), with fix wall/gran at the box face.
  switch (kind) {
    case SideKind::Periodic: return 'p';
    case SideKind::Wall: return 'f';
    case SideKind::Open: return 'm';
  }
  return 'm';
}

// A no-tension normal dashpot (dp_mode 1, 3: fn + fn_d >= 0) is LAMMPS's limit_damping, which sets a negative total
// normal force to zero before the friction limit mu |F_n| is taken from it, as our LAMMPS conventions do (in those
// the slip-cut shear of dp_mode 2, 3 is already LAMMPS's rule).
std::string limit_damping(const LinearLawParameters& lin) {
  return lin.dp_mode == 1 || lin.dp_mode == 3 ? " limit_damping" : "";
}

// The granular model of one contact pair: linear spring kn, dashpot eta_n = 2 beta_n sqrt(m_eff kn),
// shear spring ks with dashpot eta_t = 2 beta_s sqrt(m_eff ks) = x_gamma,t eta_n (engine/contact/law_linear.hpp).
std::string granular_model(const LinearLawParameters& lin, const PairCoefficients& pc, double m_eff) {
  const double eta_n = 2.0 * lin.dp_nratio * std::sqrt(m_eff * pc.kn);
  const double eta_t = 2.0 * lin.dp_sratio * std::sqrt(m_eff * pc.ks);
  const double x_gamma_t = eta_n > 0.0 ? eta_t / eta_n : 0.0;
  return "hooke " + number(pc.kn) + " " + number(eta_n) + " tangential linear_history " + number(pc.ks) + " " +
         number(x_gamma_t) + " " + number(pc.friction) + " damping velocity" + limit_damping(lin);
}

// gran/hooke/history's (and fix wall/gran hooke/history's) coefficients for one contact pair: kn, kt, gamma_n =
// eta_n / m_eff, gamma_t = eta_t / m_eff (LAMMPS multiplies them by the pair's m_eff), mu and dampflag 1.
std::string hooke_history_coefficients(const LinearLawParameters& lin, const PairCoefficients& pc, double m_eff) {
  const double gamma_n = m_eff > 0.0 ? 2.0 * lin.dp_nratio * std::sqrt(pc.kn / m_eff) : 0.0;
  const double gamma_t = m_eff > 0.0 ? 2.0 * lin.dp_sratio * std::sqrt(pc.ks / m_eff) : 0.0;
  return number(pc.kn) + " " + number(pc.ks) + " " + number(gamma_n) + " " + number(gamma_t) + " " +
         number(pc.friction) + " 1" + limit_damping(lin);
}

// The pairs of materials that particles are made of, and their m_eff (`mass`: material_masses).
struct MaterialPair {
  int a, b;
  double m_eff;
};
double effective_mass(const MaterialMass& a, const MaterialMass& b) {
  return a.mean > 0.0 && b.mean > 0.0 ? a.mean * b.mean / (a.mean + b.mean) : 0.0;
}

std::vector<MaterialPair> used_material_pairs(const std::vector<MaterialMass>& mass, const Particles& p) {
  std::vector<char> used(mass.size(), 0);
  for (size_t i = 0; i < p.size(); ++i) used[static_cast<size_t>(p.material[i])] = 1;
  std::vector<MaterialPair> pairs;
  for (size_t a = 0; a < mass.size(); ++a)
    for (size_t b = a; b < mass.size(); ++b)
      if (used[a] && used[b])
        pairs.push_back({static_cast<int>(a), static_cast<int>(b), effective_mass(mass[a], mass[b])});
  return pairs;
}

// An equal-style expression for one component of the uniform field program over LAMMPS's `time`
// (seconds since the start of the LAMMPS run, which starts at the scene's time t0).
std::string field_expression(const FieldParameters& f, double t0, int axis, double scale) {
  const std::string t = "(time+" + number(t0) + ")";
  switch (f.program) {
    case FieldProgram::Constant: return number(scale * f.strength * f.direction[axis]);
    case FieldProgram::Ramp:
      return "(" + number(scale * f.start_strength * f.direction[axis]) + "+" +
             number(scale * (f.strength - f.start_strength) * f.direction[axis]) + "*min(max(" + t + "/" +
             number(f.ramp_time) + ",0),1))";
    case FieldProgram::Rotating: {
      // Rodrigues: d cos a + (k x d) sin a + k (k.d)(1 - cos a), a = 2 pi f t (engine/magnetic/field.cpp).
      const Vec3& k = f.rotation_axis;
      const Vec3& d = f.direction;
      const double c_cos = d[axis] - k[axis] * k.dot(d), c_sin = k.cross(d)[axis], c_one = k[axis] * k.dot(d);
      const std::string angle = number(2.0 * pi * f.frequency) + "*" + t;
      return "(" + number(scale * f.strength * c_cos) + "*cos(" + angle + ")+" + number(scale * f.strength * c_sin) +
             "*sin(" + angle + ")+" + number(scale * f.strength * c_one) + ")";
    }
    case FieldProgram::Oscillating:
      return "(" + number(scale * f.strength * f.direction[axis]) + "*sin(" + number(2.0 * pi * f.frequency) + "*" + t +
             "+" + number(f.phase) + "))";
  }
  return "0";
}

}  // namespace

namespace {

// [SECTION] Approximations

// Our default contact convention with dashpots: always exported, with this note.
std::string default_convention_difference(const LinearLawParameters& lin) {
  if (lin.lammps_rules()) return {};  // LAMMPS's own rules: nothing to approximate
  if (lin.dp_nratio == 0.0 && lin.dp_sratio == 0.0) return {};
  char ratios[96];
  std::snprintf(ratios, sizeof ratios, "contact.linear.dp_nratio = %g, dp_sratio = %g", lin.dp_nratio, lin.dp_sratio);
  const bool slip_cut = lin.dp_mode == 2 || lin.dp_mode == 3;
  return std::string(ratios) +
         (slip_cut ? ": while a contact slides, both cap spring and dashpot together at mu times the normal force, "
                     "but rescale the spring differently"
                   : ": while a contact slides, LAMMPS caps spring and dashpots together at mu |F_n| (normal dashpot "
                     "included), Lodestone caps the spring at mu F_n,elastic and adds the shear dashpot") +
         "; and LAMMPS's dashpots see the half-step velocity, ours the one predicted for the end of the step; set "
         "contact.linear.convention = \"lammps\" to run LAMMPS's rules here (docs/lammps.md)";
}

// Physics LAMMPS runs only approximately: exported with `approximate` (the runner's --approximate), the approximation
// listed; refused without.
struct Approximation {
  std::string field;    // the dotted preset path the refusal names
  std::string refusal;  // what the export takes without --approximate
  std::string text;     // the approximation, for the script's header and stderr
};

std::string mass_text(double kg) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g kg", kg);
  return text;
}

// Particles of one material that differ in mass, where LAMMPS needs one mass per type: the dashpots' coefficients
// (per material pair; ours 2 beta sqrt(m_eff k) per contact) and fix langevin's rotational drag (per type).
void add_mixed_masses(const Preset& preset, const Model& model, const Particles& particles,
                      std::vector<Approximation>& out) {
  if (!materials_need_masses(preset)) return;
  const std::vector<MaterialMass> mass = material_masses(model.materials.size(), particles);
  for (size_t k = 0; k < mass.size(); ++k) {
    if (!mass[k].mixed()) continue;
    const std::string range = mass_text(mass[k].lightest) + " to " + mass_text(mass[k].heaviest);
    out.push_back({"materials." + std::to_string(k) + ".name",
                   "its particles differ in mass (" + range +
                       "); with dashpots or rotational damping the export takes one mass per material (LAMMPS's "
                       "dashpot coefficients and rotational drag are per atom type, ours per particle): give each "
                       "size its own material, or pass --approximate",
                   "material " + std::to_string(k) + " (\"" + preset.materials[k].name + "\"): masses " + range +
                       "; LAMMPS's dashpot coefficients and rotational drag use their mean, " +
                       mass_text(mass[k].mean)});
  }
}

std::vector<Approximation> approximations_on_request(const Preset& preset, const Model& model,
                                                     const Particles& particles) {
  std::vector<Approximation> out;
  add_mixed_masses(preset, model, particles, out);
  const MagneticParameters& mag = preset.magnetics;
  if (mag.method != DipoleMethod::Off && mag.dipole_cap > 0.0) {
    double smallest = INFINITY;
    for (const double r : particles.radius) smallest = std::min(smallest, r);
    out.push_back({"magnetics.dipole_cap",
                   "the export takes 0 only (LAMMPS's dipole pair has no capping distance), or pass --approximate",
                   "magnetics.dipole_cap = " + number(mag.dipole_cap) +
                       " m: LAMMPS's dipole pair has no cap, so pairs closer than that feel the full force (the "
                       "smallest spheres touch at " +
                       number(2.0 * smallest) + " m)"});
  }
  if (mag.method != DipoleMethod::Off && mag.activity_distance)
    out.push_back({"magnetics.activity_distance", "the export takes it unset only, or pass --approximate",
                   "magnetics.activity_distance: LAMMPS computes every dipole pair within the cutoff"});
  if (mag.method != DipoleMethod::Off && mag.force_interval != 1)
    out.push_back({"magnetics.force_interval",
                   "the export takes 1 only (LAMMPS evaluates the dipoles every step), or pass --approximate",
                   "magnetics.force_interval = " + std::to_string(mag.force_interval) +
                       ": LAMMPS evaluates the dipoles at every step (ours every " +
                       std::to_string(mag.force_interval) + " steps, extrapolated between)"});
  return out;
}

}  // namespace

std::vector<std::string> lammps_approximations(const Preset& preset, const Model& model, const Particles& particles,
                                               bool approximate) {
  std::vector<std::string> lines;
  const std::string convention = default_convention_difference(preset.contact.linear);
  if (!convention.empty()) lines.push_back(convention);
  if (approximate)
    for (const Approximation& a : approximations_on_request(preset, model, particles)) lines.push_back(a.text);
  return lines;
}

double lammps_moment_scale() {
  return std::sqrt(mu0_over_4pi / kLammpsSiCoulombConstant);
}

namespace {

// gran/hooke/history has one set of coefficients for every pair: the pairs of the particles' materials must agree on
// all of them.
void refuse_mixed_hooke_history(const LinearLawParameters& lin, const Model& model, const Particles& particles,
                                Refusals& r) {
  const std::vector<MaterialPair> pairs =
      used_material_pairs(material_masses(model.materials.size(), particles), particles);
  for (const MaterialPair& q : pairs)
    if (hooke_history_coefficients(lin, model.pair(q.a, q.b), q.m_eff) !=
        hooke_history_coefficients(lin, model.pair(pairs[0].a, pairs[0].b), pairs[0].m_eff)) {
      r.refuse("contact.linear.convention",
               "\"gran/hooke/history\" has one set of coefficients (kn, kt, gamma_n, gamma_t, mu) for all pairs, "
               "but materials " +
                   std::to_string(pairs[0].a) + "+" + std::to_string(pairs[0].b) + " and " + std::to_string(q.a) + "+" +
                   std::to_string(q.b) +
                   " differ in them (kn, ks, friction, or kn/m_eff with dashpots); use \"lammps\" (pair granular, "
                   "coefficients per pair)");
      return;
    }
}

}  // namespace

namespace {

// [SECTION] Protocol

const char* phase_end_text(PhaseEnd until) {
  switch (until) {
    case PhaseEnd::Time: return "at its duration";
    case PhaseEnd::NoOverlap: return "when no overlap is left";
    case PhaseEnd::Settled: return "when the particles have settled";
    case PhaseEnd::Aligned: return "when the easy axes are aligned";
  }
  return "?";
}

// The script runs a phase as `run N upto` with its field: a phase must end at its duration (a waiting phase does so
// outside the app too; LAMMPS watches no condition) and change only the field and the view (the rest of the scene is
// written once).
void refuse_unexportable_phases(const Preset& preset, int first_phase, Refusals& r) {
  for (auto k = static_cast<size_t>(std::max(first_phase, 0)); k < preset.protocol.size(); ++k) {
    const ProtocolPhase& phase = preset.protocol[k];
    const std::string where = "protocol." + std::to_string(k) + " (\"" + phase.name + "\")";
    if (phase.until != PhaseEnd::Time)
      r.refuse_text(where + " ends " + phase_end_text(phase.until) +
                    ": the export takes phases that end at their duration (LAMMPS watches no condition); run the "
                    "phase with --stop-at-phase and --checkpoint, then export a preset with particles.kind "
                    "\"checkpoint\"");
    std::string others;
    for (auto it = phase.set.begin(); it != phase.set.end(); ++it)
      if (it.key().rfind("field.", 0) != 0 && it.key().rfind("view.", 0) != 0)
        others += (others.empty() ? "" : ", ") + it.key();
    if (!others.empty())
      r.refuse_text(where + " sets " + others +
                    ": the export takes phases that change the field (field.*) and the view only");
    if (phase_preset(preset, static_cast<int>(k)).field.gradient.cwiseAbs().maxCoeff() > 0.0)
      r.refuse_text(where + " sets a field gradient: the export takes a uniform field only");
  }
}

// One stretch of the script's run: a protocol phase (or the whole run without one) with its field and time step.
struct ExportPhase {
  int index = 0;            // the protocol phase
  FieldParameters field;    // in force during it
  double time_step = 0.0;   // [s]
  long long end_step = -1;  // the step, counted from the export's start, at which it ends; -1: the run's end
};

// A phase longer than this many steps is refused (the boundaries are counted step by step).
constexpr double kMaxPhaseSteps = 2e9;

// The phases still to run from where the run stands: the current one with the model in force, each later one with
// its phase preset's field and time step; each ends at the step at which Session::advance_protocol ends it (the
// scene time summed step by step, the duration less 1e-12 of it).
std::vector<ExportPhase> export_phases(const Preset& preset, const Model& model, const Particles& particles,
                                       double time, const LammpsRunSettings& run) {
  const int count = static_cast<int>(preset.protocol.size());
  if (count == 0 || run.protocol_finished || run.phase >= count)
    return {ExportPhase{std::max(count - 1, 0), model.field, model.time_step, -1}};
  std::vector<ExportPhase> out;
  double t = time, start = run.phase_start_time;
  long long step = 0;
  for (int k = std::max(run.phase, 0); k < count; ++k) {
    ExportPhase phase{k, model.field, model.time_step, -1};
    if (k > run.phase) {
      Model next = make_model(phase_preset(preset, k));
      prepare_model(next, particles);
      phase.field = next.field;
      phase.time_step = next.time_step;
    }
    if (k + 1 < count) {
      const double duration = preset.protocol[static_cast<size_t>(k)].duration * (1.0 - 1e-12);
      if (duration / phase.time_step > kMaxPhaseSteps)
        throw LammpsExportError("protocol." + std::to_string(k) + " runs more than 2e9 steps: too long to export");
      do {
        t += phase.time_step;
        ++step;
      } while (t - start < duration);
      phase.end_step = step;
      start = t;
    }
    out.push_back(phase);
  }
  return out;
}

}  // namespace

void check_lammps_exportable(const Preset& preset, const Model& model, const Particles& particles, bool approximate,
                             int first_phase) {
  Refusals r(preset);
  if (!approximate)
    for (const Approximation& a : approximations_on_request(preset, model, particles)) r.refuse(a.field, a.refusal);
  const std::string exportable = "the export takes ";
  for (size_t k = 0; k < preset.materials.size(); ++k)
    if (preset.materials[k].moment_model != MomentModel::Rigid)
      r.refuse("materials." + std::to_string(k) + ".moment_model",
               exportable +
                   "\"rigid\" moments only (LAMMPS point dipoles turn with the sphere; it has no "
                   "Stoner-Wohlfarth or induced moments)");
  if (preset.contact.law != ContactLaw::Linear)
    r.refuse("contact.law", exportable +
                                "\"linear\" only (pair granular hooke; our Hertz laws differ from LAMMPS's "
                                "in damping and tangential stiffness)");
  const LinearLawParameters& lin = preset.contact.linear;
  if (lin.lin_mode != 0) r.refuse("contact.linear.lin_mode", exportable + "0 (absolute normal force) only");
  if (lin.rgap != 0.0) r.refuse("contact.linear.rgap", exportable + "0 only (contact when the spheres overlap)");
  if (lin.emod > 0.0)
    r.refuse("contact.linear.emod",
             exportable + "0 only (stiffness from the materials' kn and ks, one per material pair)");
  if (lin.dp_sratio > 0.0 && lin.dp_nratio == 0.0)
    r.refuse("contact.linear.dp_sratio",
             exportable + "0 when dp_nratio is 0 (LAMMPS sets the shear dashpot as a multiple of the normal one)");
  if (lin.convention == LinearConvention::GranHookeHistory) refuse_mixed_hooke_history(lin, model, particles, r);
  if (preset.contact.rolling.enabled)
    r.refuse("contact.rolling.enabled", exportable + "false only (our EPSD rolling model has no LAMMPS counterpart)");
  switch (preset.magnetics.method) {
    case DipoleMethod::Off:
    case DipoleMethod::Cutoff: break;
    case DipoleMethod::Direct:
      for (int axis = 0; axis < 3; ++axis)
        if (preset.box.periodic(axis)) {
          r.refuse("magnetics.method", exportable +
                                           "\"cutoff\", \"off\", or \"direct\" in a box without periodic "
                                           "sides (our periodic direct sum is a minimum-image sum)");
          break;
        }
      break;
    case DipoleMethod::Tree:
      r.refuse("magnetics.method", exportable + "\"cutoff\", \"direct\" or \"off\" (LAMMPS has no tree method)");
      break;
    case DipoleMethod::Ewald:
      r.refuse("magnetics.method", exportable +
                                       "\"cutoff\", \"direct\" or \"off\" (the export writes no kspace_style; "
                                       "LAMMPS's ewald/disp with dipoles is not yet mapped)");
      break;
    case DipoleMethod::P3M:
      r.refuse("magnetics.method", exportable +
                                       "\"cutoff\", \"direct\" or \"off\" (the export writes no kspace_style; "
                                       "LAMMPS's dipolar P3M is not yet mapped)");
      break;
  }
  if (preset.field.gradient.cwiseAbs().maxCoeff() > 0.0)
    r.refuse("field.gradient", exportable + "a uniform field only (fix efield turns point dipoles, it pushes none)");
  if (preset.environment.temperature > 0.0)
    r.refuse("environment.temperature", exportable + "0 only (our Langevin noise is not LAMMPS's)");
  if (preset.integrator.scheme != IntegratorScheme::VelocityVerlet)
    r.refuse("integrator.scheme", exportable + "\"velocity_verlet\" only (fix nve/sphere)");
  if (preset.pressure.method != PressureMethod::None) r.refuse("pressure.method", exportable + "\"none\" only");
  if (preset.bonds.create != BondCreation::None)
    r.refuse("bonds.create", exportable + "\"none\" only (our beam bonds have no LAMMPS counterpart here)");
  if (preset.floor.side != FloorSide::None) r.refuse("floor.side", exportable + "\"none\" only");
  if (!preset.clumps.empty())
    r.refuse_text("clumps: " + std::to_string(preset.clumps.size()) +
                  " rigid clumps: the export takes free spheres only (no clumps)");
  refuse_unexportable_phases(preset, first_phase, r);
  r.throw_if_any();
}

namespace {

// [SECTION] Data file

// The box, then the atoms and their velocities in id order; moments as point dipoles s m (s: lammps_moment_scale).
std::string lammps_data_file(const Model& model, const Particles& p, double s) {
  const size_t types = model.materials.size();
  std::string d;
  d += "LAMMPS data file written by Lodestone (units si, atom_style hybrid sphere dipole; docs/lammps.md)\n\n";
  d += std::to_string(p.size()) + " atoms\n" + std::to_string(types) + " atom types\n\n";
  for (int axis = 0; axis < 3; ++axis) {
    const std::string name(1, "xyz"[axis]);
    d += number(model.box.min[axis]) + " " + number(model.box.max[axis]) + " " + name + "lo " + name + "hi\n";
  }
  // Ids count from 1 and types are materials from 1, as in our LAMMPS dumps (engine/output/export_lammps_dump.hpp).
  std::vector<size_t> order(p.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p.id[a] < p.id[b]; });
  d += "\nAtoms # hybrid sphere dipole\n\n";
  for (size_t i : order) {
    const double volume = 4.0 / 3.0 * pi * p.radius[i] * p.radius[i] * p.radius[i];
    d += std::to_string(p.id[i] + 1) + " " + std::to_string(p.material[i] + 1) + " " + vector_text(p.position[i]) +
         " " + number(2.0 * p.radius[i]) + " " + number(p.mass[i] / volume) + " 0 " + vector_text(s * p.moment[i]) +
         "\n";
  }
  d += "\nVelocities\n\n";
  for (size_t i : order)
    d += std::to_string(p.id[i] + 1) + " " + vector_text(p.velocity[i]) + " " + vector_text(p.angular_velocity[i]) +
         "\n";
  return d;
}

// [SECTION] Script

// `text` as comment lines of at most about 110 characters, the first after `lead`, the rest indented.
std::string comment_lines(const std::string& lead, const std::string& text) {
  std::string out = "# " + lead, word;
  size_t width = out.size();
  for (size_t k = 0; k <= text.size(); ++k) {
    if (k < text.size() && text[k] != ' ') {
      word += text[k];
      continue;
    }
    if (word.empty()) continue;
    if (width + 1 + word.size() > 110 && width > 4) {
      out += "\n#  ";
      width = 3;
    }
    out += " " + word;
    width += 1 + word.size();
    word.clear();
  }
  return out + "\n";
}

// The opening comments: how to run the script, the units, what of the contact law LAMMPS does differently and every
// approximation (`approximations`: lammps_approximations).
void append_script_header(std::string& t, const Preset& preset, double time, double s,
                          const std::vector<std::string>& approximations) {
  const LinearLawParameters& lin = preset.contact.linear;
  t += "# LAMMPS input written by Lodestone (docs/lammps.md). LAMMPS 29Sep2021 or later, packages GRANULAR and "
       "DIPOLE.\n";
  t += "#   lmp -in in.lodestone                  one process\n";
  t += "#   mpirun -np 16 lmp -in in.lodestone    16 MPI ranks\n";
  t += "# Override the defaults with -var: steps, dump_every (0: no dump), dump, thermo_every.\n";
  t += "#\n# Units si. A magnetic moment m [A m^2] is the point dipole p = s m [C m] and the field B [T] is\n";
  t += "# E = B / s [V/m], s = sqrt((mu0/4pi) / qqr2e) = " + number(s) +
       ", qqr2e = " + number(kLammpsSiCoulombConstant) + "\n";
  t += "# (LAMMPS's Coulomb constant): qqr2e p_i p_j = (mu0/4pi) m_i m_j and p x E = m x B. Dumped mux muy muz\n";
  t += "# are p: divide by s (variable moment_scale) for A m^2.\n";
  t += "# Scene time at step 0: " + number(time) + " s. Time step and skin as Lodestone's model.\n";
  if (lin.convention == LinearConvention::Lammps)
    t += "# Contacts: the scene uses contact.linear.convention = \"lammps\", LAMMPS's own friction limit and contact\n"
         "# velocity: no approximation (docs/lammps.md).\n";
  else if (lin.convention == LinearConvention::GranHookeHistory)
    t += "# Contacts: the scene uses contact.linear.convention = \"gran/hooke/history\", written as that pair style\n"
         "# (torques on the full radii, the shear history projected after its increment): no approximation\n"
         "# (docs/lammps.md).\n";
  for (const std::string& line : approximations) t += comment_lines("Approximation:", line);
  t += "\n";
}

// The run's variables (overridable with -var), the units and atom style, the box's sides and the data file.
void append_script_settings(std::string& t, const Model& model, const std::string& data_file,
                            const LammpsRunSettings& run, double s) {
  const long long thermo = run.thermo_every > 0 ? run.thermo_every : std::max(1LL, run.steps / 100);
  t += "variable        steps index " + std::to_string(run.steps) + "\n";
  t += "variable        dump_every index " + std::to_string(run.dump_every) + "\n";
  t += "variable        dump index lodestone.dump\n";
  t += "variable        thermo_every index " + std::to_string(thermo) + "\n";
  t += "variable        moment_scale equal " + number(s) + "\n\n";
  t += "units           si\n";
  t += "atom_style      hybrid sphere dipole\n";
  t += "dimension       3\n";
  t += "boundary        ";
  for (int axis = 0; axis < 3; ++axis) {
    if (axis > 0) t += ' ';
    t += side_flag(model.box.side(axis, 0));
    t += side_flag(model.box.side(axis, 1));
  }
  t += "\natom_modify     map array\n";
  t += "comm_modify     vel yes\n";
  t += "read_data       " + data_file + "\n";
  t += "mass            * 1.0    # required by the hybrid style, unused: per-atom masses come from diameter and "
       "density\n\n";
}

// Contacts: F = kn delta n - eta_n v_n - kt xi - eta_t v_t, eta_n = 2 beta_n sqrt(m_eff kn)
// (engine/contact/law_linear.hpp); LAMMPS's eta_t = x_gamma,t eta_n. `mass`: material_masses.
void append_pair_styles(std::string& t, const Preset& preset, const Model& model, const Particles& particles,
                        const std::vector<MaterialMass>& mass, bool dipoles, bool direct) {
  const size_t types = model.materials.size();
  const LinearLawParameters& lin = preset.contact.linear;
  // Direct sum in an open box: a cutoff no pair reaches while the particles stay within 1000 box diagonals.
  const double dipole_cutoff = direct ? 1000.0 * (model.box.max - model.box.min).norm() : model.dipole_cutoff;
  if (lin.convention == LinearConvention::GranHookeHistory) {
    // One set for all pairs (check_lammps_exportable made sure the particles' pairs agree).
    const MaterialPair q = used_material_pairs(mass, particles).at(0);
    const std::string style = "gran/hooke/history " + hooke_history_coefficients(lin, model.pair(q.a, q.b), q.m_eff);
    if (dipoles) {
      t += "pair_style      hybrid/overlay " + style + " lj/cut/dipole/cut " + number(dipole_cutoff) + "\n";
      t += "pair_coeff      * * gran/hooke/history\n";
      t += "pair_coeff      * * lj/cut/dipole/cut 0.0 1.0    # LJ epsilon 0: the dipole-dipole part only\n";
    } else {
      t += "pair_style      " + style + "\npair_coeff      * *\n";
    }
    return;
  }
  if (dipoles)
    t += "pair_style      hybrid/overlay granular lj/cut/dipole/cut " + number(dipole_cutoff) + "\n";
  else
    t += "pair_style      granular\n";
  const std::string granular = dipoles ? "granular " : "";
  for (size_t a = 0; a < types; ++a)
    for (size_t b = a; b < types; ++b) {
      const double m_eff = effective_mass(mass[a], mass[b]);
      t += "pair_coeff      " + std::to_string(a + 1) + " " + std::to_string(b + 1) + " " + granular +
           granular_model(lin, model.pair(static_cast<int>(a), static_cast<int>(b)), m_eff) + "\n";
    }
  if (dipoles) t += "pair_coeff      * * lj/cut/dipole/cut 0.0 1.0    # LJ epsilon 0: the dipole-dipole part only\n";
}

// Walls: one fix wall/gran per material (the wall's effective mass is the particle's) and walled axis,
// with the (material, wall material) coefficients, at the box faces. `mass`: material_masses.
void append_walls(std::string& t, const Preset& preset, const Model& model, const std::vector<MaterialMass>& mass) {
  if (!model.box.any_wall()) return;
  const size_t types = model.materials.size();
  const LinearLawParameters& lin = preset.contact.linear;
  t += "\n";
  for (size_t a = 0; a < types; ++a) {
    const std::string group = "material_" + std::to_string(a + 1);
    t += "group           " + group + " type " + std::to_string(a + 1) + "\n";
    for (int axis = 0; axis < 3; ++axis) {
      const bool low = model.box.side(axis, 0) == SideKind::Wall, high = model.box.side(axis, 1) == SideKind::Wall;
      if (!low && !high) continue;
      const std::string name(1, "xyz"[axis]);
      const PairCoefficients& pc = model.pair(static_cast<int>(a), model.wall_material);
      const double m_eff = mass[a].mean;
      t += "fix             wall_" + name + "_" + std::to_string(a + 1) + " " + group + " wall/gran " +
           (lin.convention == LinearConvention::GranHookeHistory
                ? "hooke/history " + hooke_history_coefficients(lin, pc, m_eff)
                : "granular " + granular_model(lin, pc, m_eff)) +
           " " + name + "plane " + (low ? number(model.box.min[axis]) : "NULL") + " " +
           (high ? number(model.box.max[axis]) : "NULL") + "\n";
    }
  }
}

// The drag. Translational damping gamma (force -gamma v) is fix viscous. Rotational damping gamma* (torque
// -R^2 gamma* omega) is fix langevin at T = 0 with `omega yes`, a pure drag (no noise): per atom of type t the force
// -m / (damp r_t) v and the torque -(10/3) I / (damp r_t) omega = -(4/3) m R^2 / (damp r_t) omega (I = 2/5 m R^2),
// r_t its `scale`. With damp 1 and r_t = (4/3) m_t / gamma* the torque is ours and the force -(3/4) gamma* v, so fix
// viscous takes the rest, gamma - (3/4) gamma* (negative when gamma* > 4/3 gamma: LAMMPS takes it). Exact for one
// mass per type (else the mean, with --approximate). `mass`: material_masses.
void append_damping(std::string& t, const Preset& preset, const std::vector<MaterialMass>& mass) {
  const double gamma = preset.environment.translational_damping, gamma_rot = preset.environment.rotational_damping;
  double viscous = gamma;
  if (gamma_rot > 0.0) {
    t += "fix             rotational_drag all langevin 0.0 0.0 1.0 20261130 omega yes";
    for (size_t k = 0; k < mass.size(); ++k)
      if (mass[k].mean > 0.0)
        t += " scale " + std::to_string(k + 1) + " " + number(4.0 / 3.0 * mass[k].mean / gamma_rot);
    t += "    # T = 0: the drag -R^2 gamma* omega, and -(3/4) gamma* v\n";
    viscous = gamma - 0.75 * gamma_rot;
  }
  if (viscous != 0.0)
    t += "fix             damping all viscous " + number(viscous) +
         (gamma_rot > 0.0 ? "    # with fix langevin's share, gamma = " + number(gamma) : std::string()) + "\n";
}

// The field's fix: fix efield with E = B / s, constant or of equal-style variables of LAMMPS's time (seconds since
// the LAMMPS run began, which began at the scene's time `time`). `defined`: whether the fix `field` exists already (a
// protocol phase replaces it; an equal-style variable may be defined again).
void append_field(std::string& t, const FieldParameters& f, double time, double s, bool& defined) {
  if (defined) t += "unfix           field\n";
  defined = f.strength != 0.0 || (f.program == FieldProgram::Ramp && f.start_strength != 0.0);
  if (!defined) return;
  if (f.program == FieldProgram::Constant) {
    t += "fix             field all efield " + vector_text(f.strength * f.direction / s) + "    # B / s\n";
    return;
  }
  for (int axis = 0; axis < 3; ++axis)
    t += std::string("variable        E") + "xyz"[axis] + " equal " + field_expression(f, time, axis, 1.0 / s) + "\n";
  t += "fix             field all efield v_Ex v_Ey v_Ez    # B(t) / s\n";
}

// The integration and the external forces: the field of the first phase, gravity and the drag.
void append_fixes(std::string& t, const Preset& preset, const FieldParameters& field, double time, double s,
                  const std::vector<MaterialMass>& mass, bool& field_defined) {
  t += "fix             integrate all nve/sphere update dipole\n";
  append_field(t, field, time, s, field_defined);
  const Vec3& g = preset.environment.gravity;
  if (g.norm() > 0.0)
    t += "fix             gravity all gravity " + number(g.norm()) + " vector " + vector_text(g / g.norm()) + "\n";
  append_damping(t, preset, mass);
}

// The thermo output and the optional dump.
void append_thermo_and_dump(std::string& t) {
  t += "\ncompute         rotation all erotate/sphere\n";
  t += "thermo_style    custom step time ke c_rotation pe\n";
  t += "thermo_modify   norm no\n";
  t += "thermo          ${thermo_every}\n";
  t += "if \"${dump_every} > 0\" then &\n";
  t += "  \"dump            frames all custom ${dump_every} ${dump} id type x y z vx vy vz radius mux muy muz fx fy fz "
       "tqx tqy tqz omegax omegay omegaz\" &\n";
  t += "  \"dump_modify     frames sort id format float %.17g\"\n";
}

// The run: `run ${steps}`, or with protocol phases to come, one `run N upto` each (at most ${steps}), the field's
// fix and the time step set again between them.
void append_runs(std::string& t, const Preset& preset, const std::vector<ExportPhase>& phases, double time, double s,
                 bool field_defined) {
  if (phases.size() == 1) {
    t += "run             ${steps}\n";
    return;
  }
  for (size_t i = 0; i < phases.size(); ++i) {
    const ExportPhase& phase = phases[i];
    std::string name = preset.protocol[static_cast<size_t>(phase.index)].name;
    std::replace(name.begin(), name.end(), '\n', ' ');
    t += "\n# protocol phase " + std::to_string(phase.index + 1) + " \"" + name + "\", " +
         (phase.end_step >= 0 ? "to step " + std::to_string(phase.end_step) : std::string("to the end of the run")) +
         "\n";
    if (i > 0) {
      if (phase.time_step != phases[i - 1].time_step) t += "timestep        " + number(phase.time_step) + "\n";
      append_field(t, phase.field, time, s, field_defined);
    }
    const std::string end = std::to_string(phase.end_step);
    t += phase.end_step >= 0
             ? "if \"${steps} < " + end + "\" then \"run ${steps} upto\" else \"run " + end + " upto\"\n"
             : std::string("run             ${steps} upto\n");
  }
}

}  // namespace

LammpsInput lammps_input(const Preset& preset, const Model& model, const Particles& p, double time,
                         const std::string& data_file, const LammpsRunSettings& run) {
  check_lammps_exportable(preset, model, p, run.approximate, run.protocol_finished ? INT_MAX : run.phase);
  const std::vector<ExportPhase> phases = export_phases(preset, model, p, time, run);
  const double s = lammps_moment_scale();
  LammpsInput out;
  out.data = lammps_data_file(model, p, s);

  const bool dipoles =
      preset.magnetics.method != DipoleMethod::Off &&
      std::any_of(p.moment.begin(), p.moment.end(), [](const Vec3& m) { return m.squaredNorm() > 0.0; });
  const bool direct = preset.magnetics.method == DipoleMethod::Direct;
  const std::vector<MaterialMass> mass = material_masses(model.materials.size(), p);
  std::string& t = out.script;
  append_script_header(t, preset, time, s, lammps_approximations(preset, model, p, run.approximate));
  append_script_settings(t, model, data_file, run, s);
  append_pair_styles(t, preset, model, p, mass, dipoles, direct);
  append_walls(t, preset, model, mass);
  t += "\nneighbor        " + number(model.skin) + (direct ? " nsq" : " bin") + "\n";
  t += "neigh_modify    delay 0 every 1 check yes\n";
  t += "timestep        " + number(phases.front().time_step) + "\n\n";
  bool field_defined = false;
  append_fixes(t, preset, phases.front().field, time, s, mass, field_defined);
  append_thermo_and_dump(t);
  append_runs(t, preset, phases, time, s, field_defined);
  return out;
}

}  // namespace lodestone
