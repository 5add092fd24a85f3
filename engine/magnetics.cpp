#include "engine/magnetics.hpp"

#include "engine/dipole.hpp"

namespace lodestone {

void update_moments(const Model&, State& state) {
  Particles& p = state.particles;
  for (size_t i = 0; i < p.size(); ++i) p.moment[i] = p.orientation[i] * p.moment_body[i];
}

namespace {

// Adds the pair (i, j) if it is within reach; returns its energy.
inline double add_dipole_pair(const Model& model, Particles& p, size_t i, size_t j, double cutoff_sq) {
  const Vec3& mi = p.moment[i];
  const Vec3& mj = p.moment[j];
  if (mi.squaredNorm() == 0.0 || mj.squaredNorm() == 0.0) return 0.0;
  const Vec3 separation = minimum_image(model, p.position[i] - p.position[j]);
  const double rsq = separation.squaredNorm();
  if (rsq > cutoff_sq || rsq == 0.0) return 0.0;
  if (model.magnetics.activity_distance) {
    const double gap = std::sqrt(rsq) - p.radius[i] - p.radius[j];
    if (gap > *model.magnetics.activity_distance) return 0.0;
  }
  const DipolePair d = dipole_pair(separation, mi, mj, model.magnetics.dipole_cap);
  p.force[i] += d.force_i;
  p.force[j] -= d.force_i;
  p.torque[i] += d.torque_i;
  p.torque[j] += d.torque_j;
  return d.energy;
}

}  // namespace

void compute_dipole_forces(const Model& model, State& state) {
  Particles& p = state.particles;
  double energy = 0.0;
  switch (model.magnetics.method) {
    case DipoleMethod::Off:
      break;
    case DipoleMethod::Cutoff: {
      const double cutoff_sq = model.dipole_cutoff * model.dipole_cutoff;
      for (const IndexPair& pr : state.neighbors.dipole_pairs)
        energy += add_dipole_pair(model, p, static_cast<size_t>(pr.i), static_cast<size_t>(pr.j), cutoff_sq);
      break;
    }
    case DipoleMethod::Direct: {
      const size_t n = p.size();
      for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j) energy += add_dipole_pair(model, p, i, j, INFINITY);
      break;
    }
  }
  state.energy.dipole = energy;
}

}  // namespace lodestone
