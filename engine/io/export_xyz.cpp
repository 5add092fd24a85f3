#include "engine/io/export_xyz.hpp"

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
       "torque:R:3 Time=";
  append_number(s, f.time);
  s += " Step=" + std::to_string(f.step);
  if (!f.units.empty()) s += " Units=\"" + f.units + "\"";
  s += "\n";
  out << s;
  for (size_t i = 0; i < f.size(); ++i) {
    s = std::to_string(f.id[i]) + ' ';
    append_number(s, f.radius[i]);
    s += ' ';
    append_vector(s, f.position[i], ' ');
    s += ' ';
    append_vector(s, f.velocity[i], ' ');
    const Quat& q = f.orientation[i];
    for (double c : {q.x(), q.y(), q.z(), q.w()}) {
      s += ' ';
      append_number(s, c);
    }
    for (const Vec3* v : {&f.easy_axis[i], &f.moment[i], &f.force[i], &f.torque[i]}) {
      s += ' ';
      append_vector(s, *v, ' ');
    }
    s += '\n';
    out << s;
  }
}

}  // namespace lodestone
