#include "engine/output/export_csv.hpp"

namespace lodestone {

std::string frame_csv_header(const std::string& units) {
  return (units.empty() ? std::string() : "# units: " + units + "\n") +
         "step,time,id,material,radius,x,y,z,vx,vy,vz,qx,qy,qz,qw,omega_x,omega_y,omega_z,easy_axis_x,easy_axis_y,"
         "easy_axis_z,moment_x,moment_y,moment_z,force_x,force_y,force_z,torque_x,torque_y,torque_z,alignment,"
         "cluster,ix,iy,iz\n";
}

void write_csv_frame(std::ostream& out, const FrameFields& f) {
  std::string prefix = std::to_string(f.step) + ',';
  append_number(prefix, f.time);
  std::string s;
  for (size_t i = 0; i < f.size(); ++i) {
    s = prefix;
    s += ',' + std::to_string(f.id[i]) + ',' + std::to_string(f.material[i]) + ',';
    append_radius_and_motion(s, f, i, ',');
    for (const Vec3* v : {&f.angular_velocity[i], &f.easy_axis[i], &f.moment[i], &f.force[i], &f.torque[i]}) {
      s += ',';
      append_vector(s, *v, ',');
    }
    s += ',';
    append_number(s, f.alignment[i]);
    s += ',' + std::to_string(f.cluster[i]);
    for (int image : f.image[i]) s += ',' + std::to_string(image);
    s += '\n';
    out << s;
  }
}

}  // namespace lodestone
