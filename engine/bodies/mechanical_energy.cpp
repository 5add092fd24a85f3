#include "engine/bodies/mechanical_energy.hpp"

#include "engine/bodies/clumps.hpp"

namespace lodestone {

MechanicalEnergy mechanical_energy(const Model& model, const State& state, ThreadTeam& team) {
  const Particles& p = state.particles;
  const Vec3& g = model.environment.gravity;
  const std::vector<MechanicalEnergy> parts =
      results_of_parts<MechanicalEnergy>(team, p.size(), 4096, [&](size_t begin, size_t end) {
        MechanicalEnergy e;
        for (size_t i = begin; i < end; ++i) {
          if (p.clump[i] >= 0) continue;  // the pebbles of a clump are counted as their clump, below
          e.translational += 0.5 * p.mass[i] * p.velocity[i].squaredNorm();
          e.rotational += 0.5 * p.inertia[i] * p.angular_velocity[i].squaredNorm();
          e.gravitational -= p.mass[i] * g.dot(p.position[i]);
        }
        return e;
      });
  MechanicalEnergy e;
  for (const MechanicalEnergy& part : parts) {
    e.translational += part.translational;
    e.rotational += part.rotational;
    e.gravitational += part.gravitational;
  }
  const Clumps& c = state.clumps;
  for (size_t k = 0; k < c.size(); ++k) {
    e.translational += clump_translational_energy(c, k);
    e.rotational += clump_rotational_energy(c, k);
    e.gravitational -= c.mass[k] * g.dot(c.position[k]);
  }
  return e;
}

}  // namespace lodestone
