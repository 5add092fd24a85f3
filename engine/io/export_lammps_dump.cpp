#include "engine/io/export_lammps_dump.hpp"

#include <algorithm>

namespace lodestone {
namespace {

char side_flag(SideKind kind) {
  switch (kind) {
    case SideKind::Periodic: return 'p';
    case SideKind::Wall: return 'f';
    case SideKind::Open: return 's';
  }
  return 'f';
}

}  // namespace

std::string lammps_boundary_flags(const FrameFields& f) {
  std::string flags;
  for (size_t axis = 0; axis < 3; ++axis) {
    if (axis > 0) flags += ' ';
    flags += side_flag(f.sides[axis][0]);
    flags += side_flag(f.sides[axis][1]);
  }
  return flags;
}

void write_lammps_dump_frame(std::ostream& out, const FrameFields& f) {
  const size_t n = f.size();
  // LAMMPS's own `dump_modify units yes` section: read_dump and OVITO skip it, a reader sees the style.
  std::string s = f.units.empty() ? std::string() : "ITEM: UNITS\nlj\n";
  s += "ITEM: TIMESTEP\n" + std::to_string(f.step) + "\nITEM: NUMBER OF ATOMS\n" + std::to_string(n) +
       "\nITEM: BOX BOUNDS " + lammps_boundary_flags(f) + "\n";
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
  s += "ITEM: ATOMS id type x y z vx vy vz radius mux muy muz fx fy fz tqx tqy tqz omegax omegay omegaz quatw quati "
       "quatj quatk\n";
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
    s += '\n';
    out << s;
  }
}

}  // namespace lodestone
