#include "ui/plain_labels.hpp"

#include <cctype>
#include <cstdlib>
#include <string_view>
#include <utility>

namespace lodestone::ui {
namespace {

struct Plain {
  std::string_view path;
  std::string_view label;
  bool advanced = false;
};

constexpr Plain kPlain[] = {
    // Materials
    {"materials[].density", "density"},
    {"materials[].youngs_modulus", "stiffness (Young's modulus)"},
    {"materials[].poisson_ratio", "Poisson ratio", true},
    {"materials[].kn", "normal stiffness"},
    {"materials[].ks", "sideways (shear) stiffness"},
    {"materials[].friction", "friction coefficient"},
    {"materials[].magnetization", "magnetisation"},
    {"materials[].moment_model", "how the moment behaves", true},
    {"materials[].anisotropy", "anisotropy (how firmly the moment sits)", true},
    {"materials[].susceptibility", "susceptibility (induced magnet)"},
    {"materials[].surface_energy", "stickiness (surface energy)"},
    // Contact laws
    {"contact.law", "contact law"},
    {"contact.linear.lin_mode", "normal force update", true},
    {"contact.linear.rgap", "gap at which contact starts", true},
    {"contact.linear.dp_nratio", "damping of the normal spring"},
    {"contact.linear.dp_sratio", "damping of the sideways spring"},
    {"contact.linear.dp_mode", "damper cut-offs", true},
    {"contact.linear.emod", "stiffness from an elastic modulus", true},
    {"contact.linear.kratio", "normal-to-sideways stiffness ratio", true},
    {"contact.linear.convention", "rule book (PFC or LAMMPS)", true},
    {"contact.hertz_mindlin.damping_ratio_n", "damping, head-on"},
    {"contact.hertz_mindlin.damping_ratio_t", "damping, sideways"},
    {"contact.hertz_coulomb.damping_ratio_n", "damping, head-on"},
    {"contact.hertz_coulomb.slip_velocity", "slip speed scale", true},
    {"contact.sand.sliding_limit", "sliding limit", true},
    {"contact.sand.rolling_limit", "rolling limit", true},
    {"contact.sand.twisting_limit", "twisting limit", true},
    {"contact.sand.break_separation", "gap at which a contact breaks", true},
    {"contact.sand.damping_ratio_n", "damping, head-on"},
    {"contact.sand.damping_ratio_t", "damping, sideways", true},
    {"contact.rolling.enabled", "resist rolling and twisting"},
    {"contact.rolling.rolling_friction", "rolling friction"},
    {"contact.rolling.rolling_stiffness", "rolling stiffness", true},
    {"contact.rolling.twisting_friction", "twisting friction"},
    {"contact.rolling.twisting_stiffness", "twisting stiffness", true},
    {"contact.rolling.damping_ratio", "rolling and twisting damping", true},
    // Magnetics
    {"magnetics.method", "how the magnets' pulls are summed"},
    {"magnetics.cutoff", "range of the magnetic pull", true},
    {"magnetics.dipole_cap", "closest distance counted", true},
    {"magnetics.activity_distance", "gap beyond which pairs are ignored", true},
    {"magnetics.induced_iterations", "passes for induced moments", true},
    {"magnetics.force_interval", "steps between magnetic updates", true},
    {"magnetics.tree_opening_angle", "tree accuracy (opening angle)", true},
    {"magnetics.ewald_accuracy", "Ewald accuracy (smaller: more exact, slower)"},
    {"magnetics.ewald_surroundings", "what surrounds the repeated box"},
    {"magnetics.p3m_accuracy", "particle mesh accuracy (smaller: more exact, slower)"},
    // Field
    {"field.program", "how the field changes"},
    {"field.strength", "strength"},
    {"field.direction", "direction"},
    {"field.start_strength", "starting strength"},
    {"field.ramp_time", "ramp time"},
    {"field.frequency", "frequency"},
    {"field.rotation_axis", "turns about the axis"},
    {"field.phase", "phase", true},
    {"field.gradient", "gradient", true},
    {"field.gradient_origin", "where the gradient is zero", true},
    // Environment, integrator, floor, bonds
    {"environment.gravity", "gravity"},
    {"environment.translational_damping", "liquid drag on motion"},
    {"environment.rotational_damping", "liquid drag on spinning"},
    {"environment.temperature", "temperature (Brownian motion)"},
    {"integrator.scheme", "motion model", true},
    {"integrator.time_step", "time step"},
    {"integrator.neighbor_skin", "neighbour list skin", true},
    {"integrator.max_displacement", "largest move per step", true},
    {"floor.side", "which side is the floor"},
    {"floor.static_friction", "friction at rest"},
    {"floor.dynamic_friction", "friction when sliding"},
    {"floor.stiffness", "floor stiffness", true},
    {"floor.damping_ratio", "floor damping", true},
    {"bonds.youngs_modulus", "bond stiffness (Young's modulus)"},
    {"bonds.shear_modulus", "bond shear modulus", true},
    {"bonds.radius_ratio", "bond thickness", true},
    {"bonds.axial_stiffness", "stretch stiffness", true},
    {"bonds.bending_stiffness", "bending stiffness", true},
    {"bonds.torsion_stiffness", "twist stiffness", true},
    {"bonds.damping_ratio", "bond damping"},
    {"bonds.tensile_strength", "breaking strength, pulling"},
    {"bonds.shear_strength", "breaking strength, shearing"},
    {"pressure.pressure", "pressure"},
    {"pressure.lid_damping", "lid damping", true},
    {"pressure.top_fraction", "pressed top layer", true},
};

const Plain* find(const std::string& path) {
  const std::string generic = generic_path(path);
  for (const Plain& p : kPlain)
    if (p.path == generic) return &p;
  return nullptr;
}

}  // namespace

std::string generic_path(const std::string& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    out += path[i];
    if (path[i] == '[')
      while (i + 1 < path.size() && std::isdigit(static_cast<unsigned char>(path[i + 1]))) ++i;
  }
  return out;
}

std::string plain_label(const std::string& path, const std::string& key) {
  if (const Plain* p = find(path)) return std::string(p->label);
  std::string out = key;
  for (char& c : out)
    if (c == '_') c = ' ';
  return out;
}

namespace {

// A preset path ("field.strength", "materials.0.friction", "materials[1].kn") in the panels' words ("Field,
// strength", "Material 1, friction coefficient"); "" for a path no panel shows.
std::string worded_path(const std::string& path) {
  if (path.empty() || path.find(' ') != std::string::npos || path.rfind("timeline", 0) == 0) return {};
  // The section as the side bar names it; a material by its place in the list.
  static const std::pair<std::string_view, std::string_view> kSections[] = {
      {"field", "Field"},
      {"contact", "Contact"},
      {"magnetics", "Magnetics"},
      {"environment", "Environment"},
      {"integrator", "Run"},
      {"run", "Run"},
      {"box", "Pressure and walls"},
      {"pressure", "Pressure and walls"},
      {"floor", "Pressure and walls"},
      {"particles", "Particles"},
      {"view", "View"},
      {"bonds", "Bonds"},
  };
  const size_t dot = path.find_first_of(".[");
  const std::string head = path.substr(0, dot);
  std::string section;
  // A material by its place: "materials[1].kn" (a preset file's path) or "materials.1.kn" (an edit's).
  if (head == "materials" && dot != std::string::npos && std::isdigit(static_cast<unsigned char>(path[dot + 1]))) {
    section = "Material " + std::to_string(std::atoi(path.c_str() + dot + 1) + 1);
  } else {
    for (const auto& [key, name] : kSections)
      if (head == key) section = name;
  }
  if (section.empty() || dot == std::string::npos) return {};
  const size_t last = path.find_last_of('.');
  const std::string key = path.substr(last == std::string::npos ? 0 : last + 1);
  if (head == "materials" && (last == dot || path.find('.') == std::string::npos)) return section;
  std::string generic = generic_path(path);
  if (const size_t field = path.find('.', dot + 1);
      head == "materials" && path[dot] == '.' && field != std::string::npos)
    generic = "materials[]" + path.substr(field);
  return section + ", " + plain_label(generic, key);
}

// An undo notice's changes ("field.strength 5 mT -> 30 mT; materials.0.kn ...") with each path worded.
std::string worded_changes(const std::string& changes) {
  std::string out;
  for (size_t begin = 0; begin <= changes.size();) {
    size_t end = changes.find("; ", begin);
    if (end == std::string::npos) end = changes.size();
    const std::string change = changes.substr(begin, end - begin);
    const size_t space = change.find(' ');
    const std::string worded = space == std::string::npos ? std::string() : worded_path(change.substr(0, space));
    out += (out.empty() ? "" : "; ") + (worded.empty() ? change : worded + ":" + change.substr(space));
    begin = end + 2;
  }
  return out;
}

}  // namespace

std::string plain_notice(const std::string& message) {
  for (const char* lead : {"undone: ", "redone: "})
    if (message.rfind(lead, 0) == 0) return lead + worded_changes(message.substr(std::string_view(lead).size()));
  const size_t colon = message.find(": ");
  if (message.rfind("$.", 0) != 0 || colon == std::string::npos) return message;
  const std::string worded = worded_path(message.substr(2, colon - 2));
  return worded.empty() ? message : worded + message.substr(colon);
}

bool is_advanced(const std::string& path) {
  const Plain* p = find(path);
  return p && p->advanced;
}

}  // namespace lodestone::ui
