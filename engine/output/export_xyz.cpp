#include "engine/output/export_xyz.hpp"

#include "engine/core/version.hpp"

#include <string>

namespace lodestone {

void write_xyz_frame(std::ostream& out, const FrameFields& f) {
  const Vec3 extent = f.box_max - f.box_min;
  std::string s = std::to_string(f.size()) + "\n";
  s += "Lattice=\"";
  append_number(s, extent.x());
  s += " 0 0 0 ";
  append_number(s, extent.y());
  s += " 0 0 0 ";
  append_number(s, extent.z());
  s += "\" Origin=\"";
  append_vector(s, f.box_min, ' ');
  s += "\" pbc=\"";
  for (int a = 0; a < 3; ++a) s += std::string(f.periodic(a) ? "T" : "F") + (a < 2 ? " " : "");
  s += "\" Properties=id:I:1:radius:R:1:pos:R:3:velo:R:3:orientation:R:4:easy_axis:R:3:moment:R:3:force:R:3:"
       "torque:R:3:image:I:3 Time=";
  append_number(s, f.time);
  s += " Step=" + std::to_string(f.step);
  if (!f.units.empty()) s += " Units=\"" + f.units + "\"";
  // Bonds: extended XYZ has no standard bond field (OVITO's XYZ reader reads particles only), so the bond list
  // is a per-frame key, the particles' ids in pairs ("a0 b0 a1 b1 ..."; ASE reads it into atoms.info as an
  // integer array); broken bonds in a key of their own. Left out in scenes without bonds.
  std::string intact, broken;
  for (const FrameBond& b : f.bonds) {
    std::string& list = b.intact ? intact : broken;
    if (!list.empty()) list += ' ';
    list += std::to_string(b.id_a) + ' ' + std::to_string(b.id_b);
  }
  if (!f.bonds.empty()) s += " bonds=\"" + intact + "\"";
  if (!broken.empty()) s += " broken_bonds=\"" + broken + "\"";
  s += " Program=\"" + lodestone_version_line() + "\"\n";
  out << s;
  for (size_t i = 0; i < f.size(); ++i) {
    s = std::to_string(f.id[i]) + ' ';
    append_radius_and_motion(s, f, i, ' ');
    for (const Vec3* v : {&f.easy_axis[i], &f.moment[i], &f.force[i], &f.torque[i]}) {
      s += ' ';
      append_vector(s, *v, ' ');
    }
    for (int image : f.image[i]) s += ' ' + std::to_string(image);
    s += '\n';
    out << s;
  }
}

}  // namespace lodestone
