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
  const auto add_in_part_order = [&e](const std::vector<MechanicalEnergy>& sums) {
    for (const MechanicalEnergy& part : sums) {
      e.translational += part.translational;
      e.rotational += part.rotational;
      e.gravitational += part.gravitational;
    }
  };
  add_in_part_order(parts);
  // The clumps' sums on the team too: on one thread they were the checks' largest serial part on a scene of clumps (the
  // energy check runs every tenth step; 11 us a step on (f), 20 000 pebbles in bars).
  const Clumps& c = state.clumps;
  const std::vector<MechanicalEnergy> clump_parts =
      results_of_parts<MechanicalEnergy>(team, c.size(), 1024, [&](size_t begin, size_t end) {
        MechanicalEnergy sum;
        for (size_t k = begin; k < end; ++k) {
          sum.translational += clump_translational_energy(c, k);
          sum.rotational += clump_rotational_energy(c, k);
          sum.gravitational -= c.mass[k] * g.dot(c.position[k]);
        }
        return sum;
      });
  add_in_part_order(clump_parts);
  return e;
}

}  // namespace lodestone
