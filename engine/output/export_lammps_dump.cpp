#include "engine/output/export_lammps_dump.hpp"

#include "engine/core/version.hpp"

#include <algorithm>
#include <filesystem>

namespace lodestone {
namespace {

char bounds_flag(SideKind kind) {
  switch (kind) {
    case SideKind::Periodic: return 'p';
    case SideKind::Wall: return 'f';
    case SideKind::Open: return 's';
  }
  return 'f';
}

// The box bounds, one "low high" line per axis: the box, moved out on open sides to enclose every sphere.
void append_box_bounds(std::string& s, const FrameFields& f) {
  const size_t n = f.size();
  for (int axis = 0; axis < 3; ++axis) {
    double low = f.box_min[axis], high = f.box_max[axis];
    const auto& sides = f.sides[static_cast<size_t>(axis)];
    for (size_t i = 0; i < n; ++i) {
      if (sides[0] == SideKind::Open) low = std::min(low, f.position[i][axis] - f.radius[i]);
      if (sides[1] == SideKind::Open) high = std::max(high, f.position[i][axis] + f.radius[i]);
    }
    append_number(s, low);
    s += ' ';
    append_number(s, high);
    s += '\n';
  }
}

}  // namespace

std::string lammps_boundary_flags(const FrameFields& f) {
  std::string flags;
  for (size_t axis = 0; axis < 3; ++axis) {
    if (axis > 0) flags += ' ';
    flags += bounds_flag(f.sides[axis][0]);
    flags += bounds_flag(f.sides[axis][1]);
  }
  return flags;
}

void write_lammps_dump_frame(std::ostream& out, const FrameFields& f) {
  const size_t n = f.size();
  // LAMMPS's own `dump_modify units yes` section: read_dump and OVITO skip it, a reader sees the style.
  std::string s = f.units.empty() ? std::string() : "ITEM: UNITS\nlj\n";
  s += "ITEM: TIMESTEP\n" + std::to_string(f.step) + "\nITEM: NUMBER OF ATOMS\n" + std::to_string(n) +
       "\nITEM: BOX BOUNDS " + lammps_boundary_flags(f) + "\n";
  append_box_bounds(s, f);
  s += "ITEM: ATOMS id type x y z vx vy vz radius mux muy muz fx fy fz tqx tqy tqz omegax omegay omegaz quatw quati "
       "quatj quatk ix iy iz\n";
  out << s;
  for (size_t i = 0; i < n; ++i) {
    // LAMMPS refuses atom id 0 ("One or more atom IDs is zero"), and types count from 1.
    s = std::to_string(f.id[i] + 1) + ' ' + std::to_string(f.material[i] + 1) + ' ';
    append_vector(s, f.position[i], ' ');
    s += ' ';
    append_vector(s, f.velocity[i], ' ');
    s += ' ';
    append_number(s, f.radius[i]);
    for (const Vec3* v : {&f.moment[i], &f.force[i], &f.torque[i], &f.angular_velocity[i]}) {
      s += ' ';
      append_vector(s, *v, ' ');
    }
    const Quat& q = f.orientation[i];
    for (double c : {q.w(), q.x(), q.y(), q.z()}) {
      s += ' ';
      append_number(s, c);
    }
    for (int image : f.image[i]) s += ' ' + std::to_string(image);
    s += '\n';
    out << s;
  }
}

std::string lammps_data_text(const FrameFields& f) {
  const size_t n = f.size();
  std::string s = "LAMMPS data file written by " + lodestone_version_line() + " (atom_style bond; step " +
                  std::to_string(f.step) + ", time ";
  append_number(s, f.time);
  s += f.units.empty() ? " s" : " (" + f.units + ")";
  s += "; bond type 1 intact, 2 broken; docs/outputs.md)\n\n";
  s += std::to_string(n) + " atoms\n" + std::to_string(std::max(f.material_count, 1)) + " atom types\n" +
       std::to_string(f.bonds.size()) + " bonds\n2 bond types\n\n";
  std::string bounds;
  append_box_bounds(bounds, f);
  const char* names[3] = {" xlo xhi\n", " ylo yhi\n", " zlo zhi\n"};
  size_t at = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const size_t end = bounds.find('\n', at);
    s += bounds.substr(at, end - at) + names[axis];
    at = end + 1;
  }
  // atom-ID molecule-ID atom-type x y z: ids and types from 1, as in the dump; molecule 0 (none).
  s += "\nAtoms # bond\n\n";
  for (size_t i = 0; i < n; ++i) {
    s += std::to_string(f.id[i] + 1) + " 0 " + std::to_string(f.material[i] + 1) + ' ';
    append_vector(s, f.position[i], ' ');
    s += '\n';
  }
  if (!f.bonds.empty()) {
    s += "\nBonds\n\n";
    for (size_t k = 0; k < f.bonds.size(); ++k) {
      const FrameBond& b = f.bonds[k];
      s += std::to_string(k + 1) + ' ' + (b.intact ? '1' : '2') + ' ' + std::to_string(b.id_a + 1) + ' ' +
           std::to_string(b.id_b + 1) + '\n';
    }
  }
  return s;
}

void write_lammps_bond_dump_frame(std::ostream& out, const FrameFields& f) {
  size_t intact = 0;
  for (const FrameBond& b : f.bonds) intact += b.intact ? 1 : 0;
  std::string s = "ITEM: TIMESTEP\n" + std::to_string(f.step) + "\nITEM: NUMBER OF BONDS\n" + std::to_string(intact) +
                  "\nITEM: BOX BOUNDS " + lammps_boundary_flags(f) + "\n";
  append_box_bounds(s, f);
  s += "ITEM: BONDS index batom1 batom2 btype stretch\n";
  out << s;
  size_t k = 0;
  for (const FrameBond& b : f.bonds) {
    if (!b.intact) continue;
    s = std::to_string(++k) + ' ' + std::to_string(b.id_a + 1) + ' ' + std::to_string(b.id_b + 1) + " 1 ";
    append_number(s, b.stretch);
    s += '\n';
    out << s;
  }
}

std::string lammps_data_path(const std::string& dump_path) {
  return std::filesystem::path(dump_path).replace_extension(".data").string();
}

std::string lammps_bond_dump_path(const std::string& dump_path) {
  const std::filesystem::path p(dump_path);
  return (p.parent_path() / (p.stem().string() + ".bonds" + p.extension().string())).string();
}

}  // namespace lodestone
