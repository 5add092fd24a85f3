#include "engine/output/series.hpp"

#include "engine/core/version.hpp"
#include "engine/output/frame_fields.hpp"

#include <cmath>
#include <string>

namespace lodestone {
namespace {

// Shortest round-trip form, as the frames (engine/output/frame_fields.hpp).
void append(std::string& s, double v) {
  append_number(s, v);
}

}  // namespace

std::string series_header(const std::string& units) {
  return (units.empty() ? std::string() : "# units: " + units + "\n") +
         "step,time,reduced_time,kinetic_translational,kinetic_rotational,elastic,dipole,zeeman,gravitational,"
         "dissipated_friction,dissipated_dashpot,dissipated_viscous,field_work,stiffness_work,total_energy,"
         "energy_balance,"
         "alignment,moment_alignment,magnetization_x,magnetization_y,magnetization_z,magnetization_along_field,"
         "momentum_x,momentum_y,momentum_z,angular_momentum_x,angular_momentum_y,angular_momentum_z,"
         "particle_contacts,wall_contacts,coordination,max_overlap_ratio,contacts_activated,slips_started,"
         "slips_ended,packing_fraction,floor_force,lid_force,lid_height,stage,stage_time,alignment_time,"
         "clusters,mean_cluster_size,chains,mean_chain_length,rings,largest_cluster,bonds,broken_bonds,drag_work,hold_"
         "work\n";
}

std::string csv_version_comment() {
  return "# written by " + lodestone_version_line() + "\n";
}

std::string series_row(const Observables& o) {
  std::string s = std::to_string(o.step) + ',';
  append(s, o.time);
  s += ',';
  if (!std::isnan(o.reduced_time)) append(s, o.reduced_time);  // empty where t_char is not defined
  const double values[] = {o.kinetic_translational,
                           o.kinetic_rotational,
                           o.elastic,
                           o.dipole,
                           o.zeeman,
                           o.gravitational,
                           o.dissipated_friction,
                           o.dissipated_dashpot,
                           o.dissipated_viscous,
                           o.field_work,
                           o.stiffness_work,
                           o.total_energy(),
                           o.energy_balance(),
                           o.alignment,
                           o.moment_alignment};
  for (double v : values) {
    s += ',';
    append(s, v);
  }
  s += ',';
  append_vector(s, o.magnetization, ',');
  s += ',';
  append(s, o.magnetization_along_field);
  s += ',';
  append_vector(s, o.linear_momentum, ',');
  s += ',';
  append_vector(s, o.angular_momentum, ',');
  s += ',' + std::to_string(o.particle_contacts) + ',' + std::to_string(o.wall_contacts) + ',';
  append(s, o.coordination);
  s += ',';
  append(s, o.max_overlap_ratio);
  for (auto count : o.events) s += ',' + std::to_string(count);
  for (double v : {o.packing_fraction, o.floor_force, o.lid_force, o.lid_height}) {
    s += ',';
    append(s, v);
  }
  s += ',' + std::to_string(o.phase) + ',';
  append(s, o.phase_time);
  s += ',';
  append(s, o.alignment_time);
  const ClusterStatistics& c = o.clusters;
  s += ',' + std::to_string(c.clusters) + ',';
  append(s, c.mean_cluster_size);
  s += ',' + std::to_string(c.chains) + ',';
  append(s, c.mean_chain_length);
  s += ',' + std::to_string(c.rings) + ',' + std::to_string(c.largest_cluster);
  s += ',' + std::to_string(o.bonds) + ',' + std::to_string(o.broken_bonds) + ',';
  append(s, o.drag_work);
  s += ',';
  append(s, o.hold_work);
  s += '\n';
  return s;
}

}  // namespace lodestone
