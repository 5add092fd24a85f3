#include "engine/analysis/observables.hpp"

#include "engine/analysis/reduced_units.hpp"
#include "engine/bodies/bonds.hpp"
#include "engine/bodies/clumps.hpp"
#include "engine/magnetic/field.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

Observables observe(const Model& model, const State& state) {
  return observe(model, state, find_clusters(state));
}

Observables observe(const Model& model, const State& state, const Clusters& clusters) {
  const Particles& p = state.particles;
  Observables o;
  o.time = state.time;
  if (const ReducedUnits u = reduced_units(model, p); u.defined) o.reduced_time = state.time / u.time;
  o.step = state.step;
  o.elastic = state.energy.elastic;
  o.dipole = state.energy.dipole;
  o.zeeman = state.energy.zeeman;
  o.dissipated_friction = state.energy.dissipated_friction;
  o.dissipated_dashpot = state.energy.dissipated_dashpot;
  o.dissipated_viscous = state.energy.dissipated_viscous;
  o.field_work = state.energy.field_work;
  o.stiffness_work = state.energy.stiffness_work;
  o.drag_work = state.energy.drag_work;
  o.hold_work = state.energy.hold_work;
  const MechanicalEnergy mechanical = mechanical_energy(model, state);
  o.kinetic_translational = mechanical.translational;
  o.kinetic_rotational = mechanical.rotational;
  o.gravitational = mechanical.gravitational;
  o.events = state.events.count;
  o.clusters = cluster_statistics(clusters);

  const Vec3 b = field_direction(model.field, state.time);
  double volume = 0.0;
  Vec3 moment_sum = Vec3::Zero();
  std::int64_t magnetic = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    const Vec3& v = p.velocity[i];
    const Vec3& w = p.angular_velocity[i];
    if (p.clump[i] < 0) {  // the pebbles of a clump are counted as their clump, below
      o.linear_momentum += p.mass[i] * v;
      o.angular_momentum += p.mass[i] * p.position[i].cross(v) + p.inertia[i] * w;
    }
    o.alignment += axis_alignment(p.easy_axis(i), b);
    const double m_norm = p.moment[i].norm();
    if (m_norm > 0.0) {
      o.moment_alignment += p.moment[i].dot(b) / m_norm;
      ++magnetic;
    }
    moment_sum += p.moment[i];
    volume += sphere_volume(p.radius[i]);
  }
  const Clumps& c = state.clumps;
  for (size_t k = 0; k < c.size(); ++k) {
    o.linear_momentum += c.mass[k] * c.velocity[k];
    o.angular_momentum += c.mass[k] * c.position[k].cross(c.velocity[k]) + c.angular_momentum[k];
  }
  if (p.size() > 0) o.alignment /= static_cast<double>(p.size());
  if (magnetic > 0) o.moment_alignment /= static_cast<double>(magnetic);
  if (volume > 0.0) o.magnetization = moment_sum / volume;
  o.magnetization_along_field = o.magnetization.dot(b);
  o.angles = angle_histograms(p, b);

  const NeighborLists& lists = state.neighbors;
  for (size_t k = 0; k < lists.contact_pairs.size(); ++k) {
    if (!lists.contact_history[k].active) continue;
    ++o.particle_contacts;
    const auto i = static_cast<size_t>(lists.contact_pairs[k].i), j = static_cast<size_t>(lists.contact_pairs[k].j);
    const double overlap = p.radius[i] + p.radius[j] - minimum_image(model, p.position[i] - p.position[j]).norm();
    o.max_overlap_ratio = std::max(o.max_overlap_ratio, overlap / std::min(p.radius[i], p.radius[j]));
  }
  for (const ContactHistory& h : state.wall_history) o.wall_contacts += h.active ? 1 : 0;

  double top = model.box.min.z();
  for (size_t i = 0; i < p.size(); ++i) top = std::max(top, p.position[i].z() + p.radius[i]);
  const double floor_area = (model.box.max.x() - model.box.min.x()) * (model.box.max.y() - model.box.min.y());
  if (top > model.box.min.z() && floor_area > 0.0)
    o.packing_fraction = volume / (floor_area * (top - model.box.min.z()));
  o.floor_force = -state.wall_force[4].z();
  o.bonds = intact_bond_count(state.bonds);
  o.broken_bonds = state.broken_bonds;
  o.lid_force = state.wall_force[5].z();
  o.lid_height = model.pressure.method == PressureMethod::Lid ? state.lid_height : model.box.max.z();
  o.phase = state.phase;
  o.phase_time = state.time - state.phase_start_time;
  o.alignment_time = state.alignment_time.value_or(-1.0);
  if (p.size() > 0) o.coordination = 2.0 * static_cast<double>(o.particle_contacts) / static_cast<double>(p.size());
  return o;
}

}  // namespace lodestone
