#pragma once
// What the runner writes as a time series and the app plots: energies by kind, alignment,
// magnetisation, contacts, momentum, events, clusters, angle distributions. Computed on demand from
// the model and state.

#include "engine/analysis/angles.hpp"
#include "engine/analysis/clusters.hpp"
#include "engine/bodies/mechanical_energy.hpp"
#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace lodestone {

struct Observables {
  double time = 0.0;  // [s]
  // t / t_char, [Erokhin-Berkov]'s reduced time (App. B; engine/analysis/reduced_units.hpp); NaN where t_char is not
  // defined.
  double reduced_time = std::numeric_limits<double>::quiet_NaN();  // [-]
  std::int64_t step = 0;
  // Energies [J]
  double kinetic_translational = 0.0;
  double kinetic_rotational = 0.0;
  double elastic = 0.0;
  double dipole = 0.0;
  double zeeman = 0.0;
  double gravitational = 0.0;  // -sum m g . x
  double dissipated_friction = 0.0;
  double dissipated_dashpot = 0.0;
  double dissipated_viscous = 0.0;
  double field_work = 0.0;
  double stiffness_work = 0.0;  // energy the model gives shear springs: Hertz-Mindlin stiffness, LAMMPS convention
  double drag_work = 0.0;       // work of the user's drag spring (State::drag)
  double hold_work = 0.0;       // kinetic energy taken by holding moving particles still (<= 0)
  // Magnetic order
  double alignment = 0.0;                  // <|n . b|>: easy axes (headless) against the field direction b
  double moment_alignment = 0.0;           // <m_hat . b>
  Vec3 magnetization = Vec3::Zero();       // [A/m] sum m / sum V (particle volume)
  double magnetization_along_field = 0.0;  // [A/m]
  // Mechanics
  Vec3 linear_momentum = Vec3::Zero();   // [kg m/s]
  Vec3 angular_momentum = Vec3::Zero();  // [kg m^2/s] about the origin, orbital + spin
  std::int64_t particle_contacts = 0;
  std::int64_t wall_contacts = 0;
  double coordination = 0.0;       // 2 x particle contacts / N
  double max_overlap_ratio = 0.0;  // largest overlap / smaller radius
  double packing_fraction = 0.0;   // particle volume / (floor area x height of the highest particle top)
  double floor_force = 0.0;        // [N] normal force of the particles on the floor (z_min side)
  double lid_height = 0.0;         // [m] lid (pressure.method = lid), else the box top
  double lid_force = 0.0;          // [N] normal force of the particles on the lid / z_max side
  // Protocol ([Erokhin-Berkov] Sec. 3) and the alignment time tau_0.95 within the current phase.
  int phase = 0;                 // index of the running phase (0 without a protocol)
  double phase_time = 0.0;       // [s] since the phase began
  double alignment_time = -1.0;  // [s] tau_0.95 in this phase; -1 until reached
  std::array<std::uint64_t, kEventKinds> events{};
  // Beam bonds ([Voxel-beams]): intact now, and broken since t = 0.
  std::int64_t bonds = 0;
  std::uint64_t broken_bonds = 0;
  // Clusters of particles in contact ([Dominik-Nubold] Sec. 3.3): count, mean size S (eq. 17), chains, rings.
  ClusterStatistics clusters;
  // Distributions of theta (easy axis to field) and psi (moment to easy axis) over the particles
  // with a moment, 5 deg bins (the angles of [Erokhin-Berkov] eq. 1; engine/analysis/angles.hpp).
  AngleHistograms angles;

  double kinetic() const { return kinetic_translational + kinetic_rotational; }
  double potential() const { return elastic + dipole + zeeman + gravitational; }
  double total_energy() const { return kinetic() + potential(); }
  double dissipated() const { return dissipated_friction + dissipated_dashpot + dissipated_viscous; }
  // Constant in time when the bookkeeping is complete: total + dissipated - work put in.
  double energy_balance() const {
    return total_energy() + dissipated() - field_work - stiffness_work - drag_work - hold_work;
  }
};

// Alignment of one easy axis with the field direction: |n . b| (headless axis, both unit), the
// per-particle term of Observables::alignment; particle exports (engine/output/frame_fields.hpp) write it.
inline double axis_alignment(const Vec3& easy_axis, const Vec3& field_direction) {
  return std::abs(easy_axis.dot(field_direction));
}

Observables observe(const Model& model, const State& state);
// The same with the clusters already found (find_clusters(state)), when the caller needs them too.
Observables observe(const Model& model, const State& state, const Clusters& clusters);

}  // namespace lodestone
