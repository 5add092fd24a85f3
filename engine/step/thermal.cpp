#include "engine/step/thermal.hpp"

#include "engine/core/random.hpp"

#include <cmath>

namespace lodestone {

namespace {
// Particles per part of the noise and slope sweeps (a Philox draw or two additions each).
constexpr size_t kThermalGrain = 2000;
}  // namespace

ThermalNormals thermal_normals(std::uint64_t seed, std::int64_t step, std::uint64_t particle_id) {
  // Counter (block, id low, step low, step high); key (seed low, seed high ^ id high). Three blocks of two
  // normals each: translation x y, translation z and rotation x, rotation y z.
  const auto step_bits = static_cast<std::uint64_t>(step);
  const PhiloxKey key = {static_cast<std::uint32_t>(seed),
                         static_cast<std::uint32_t>(seed >> 32) ^ static_cast<std::uint32_t>(particle_id >> 32)};
  auto block = [&](std::uint32_t k) {
    return philox_normal_pair({k, static_cast<std::uint32_t>(particle_id), static_cast<std::uint32_t>(step_bits),
                               static_cast<std::uint32_t>(step_bits >> 32)},
                              key);
  };
  const auto a = block(0), b = block(1), c = block(2);
  ThermalNormals out;
  out.translation = Vec3(a[0], a[1], b[0]);
  out.rotation = Vec3(b[1], c[0], c[1]);
  return out;
}

LangevinNoise langevin_noise(const Model& model, const State& state, size_t i) {
  LangevinNoise out;
  const EnvironmentParameters& env = model.environment;
  const double dt = model.time_step;
  if (!(env.temperature > 0.0) || !(dt > 0.0)) return out;
  const Particles& p = state.particles;
  const double kT = boltzmann * env.temperature;
  const double drag_rot = p.radius[i] * p.radius[i] * env.rotational_damping;  // zeta_r = R^2 gamma*
  const ThermalNormals xi = thermal_normals(model.noise_seed, state.step, p.id[i]);
  out.force = std::sqrt(2.0 * env.translational_damping * kT / dt) * xi.translation;
  out.torque = std::sqrt(2.0 * drag_rot * kT / dt) * xi.rotation;
  return out;
}

void brownian_slopes(const Model& model, const State& state, double dt, OverdampedSlopes& out, ThreadTeam& team) {
  const Particles& p = state.particles;
  const EnvironmentParameters& env = model.environment;
  const double kT = boltzmann * env.temperature;
  out.velocity.resize(p.size());
  out.angular_velocity.resize(p.size());
  out.lid_velocity = 0.0;
  out.max_speed = 0.0;
  const double translational = std::sqrt(2.0 * kT / (env.translational_damping * dt));  // sqrt(2 D / dt)
  // Each particle's noise is drawn from its id and the step (counter-based): the same at any split.
  for_each_range(team, p.size(), kThermalGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const ThermalNormals xi = thermal_normals(model.noise_seed, state.step, p.id[i]);
      const double drag_rot = p.radius[i] * p.radius[i] * env.rotational_damping;
      out.velocity[i] = translational * xi.translation;
      out.angular_velocity[i] = std::sqrt(2.0 * kT / (drag_rot * dt)) * xi.rotation;  // sqrt(2 D_r / dt)
    }
  });
}

void add_slopes(const OverdampedSlopes& add, OverdampedSlopes& to, ThreadTeam& team) {
  for_each_range(team, to.velocity.size(), kThermalGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      to.velocity[i] += add.velocity[i];
      to.angular_velocity[i] += add.angular_velocity[i];
    }
  });
}

ThermalCoupling thermal_coupling(const Model& model, const Particles& p) {
  ThermalCoupling c;
  c.kT = boltzmann * model.environment.temperature;
  double moment_sum = 0.0, diameter_sum = 0.0;
  for (size_t i = 0; i < p.size(); ++i) {
    const double m = p.moment[i].norm();
    if (!(m > 0.0)) continue;
    ++c.magnetic_particles;
    moment_sum += m;
    diameter_sum += 2.0 * p.radius[i];
  }
  if (!(c.kT > 0.0) || c.magnetic_particles == 0) return c;
  c.defined = true;
  c.moment = moment_sum / c.magnetic_particles;
  c.diameter = diameter_sum / c.magnetic_particles;
  const double mu_sq = c.moment * c.moment;
  c.lambda = mu0_over_4pi * mu_sq / (c.diameter * c.diameter * c.diameter * c.kT);  // eq. 1
  c.interaction_radius = std::cbrt(2.0 * mu0 * mu_sq / (pi * c.kT));                // eq. 2
  return c;
}

}  // namespace lodestone
