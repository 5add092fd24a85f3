#include "engine/step/environment_forces.hpp"

#include "engine/step/thermal.hpp"

namespace lodestone {

void apply_gravity_and_damping(const Model& model, State& state, double dt, ThreadTeam& team) {
  Particles& p = state.particles;
  const EnvironmentParameters& env = model.environment;
  const bool gravity = env.gravity.squaredNorm() > 0.0;
  // Overdamped: the damping is the left-hand side of the equation of motion, not a force.
  const bool overdamped = model.integrator.scheme == IntegratorScheme::OverdampedHeun;
  const double gamma = overdamped ? 0.0 : env.translational_damping;
  const double gamma_rot = overdamped ? 0.0 : env.rotational_damping;
  const size_t n = p.size();
  if (gamma > 0.0 && state.damping_force.size() != n) state.damping_force.assign(n, Vec3::Zero());
  if (gamma_rot > 0.0 && state.damping_torque.size() != n) state.damping_torque.assign(n, Vec3::Zero());
  // Trapezoid of the previous and new damping forces against the half-step velocity (see contacts.cpp).
  // At T > 0 the Langevin force joins the damping it is matched to (engine/step/thermal.hpp), and the trapezoid
  // books their joint work: the net heat given to the bath (Sekimoto's stochastic energetics).
  const bool thermal = !overdamped && thermal_noise_on(model);
  // Each particle's forces are its own; the dissipated work is summed per part and the parts added in order.
  constexpr size_t kGrain = 1024;  // particles per part (a few microseconds; 10 000 particles: 9 parts on 16 threads)
  const std::vector<double> part_dissipated = results_of_parts<double>(team, n, kGrain, [&](size_t begin, size_t end) {
    double dissipated = 0.0;
    for (size_t i = begin; i < end; ++i) {
      if (gravity) p.force[i] += p.mass[i] * env.gravity;
      const LangevinNoise noise = thermal ? langevin_noise(model, state, i) : LangevinNoise{};
      if (gamma > 0.0) {
        Vec3 f = -gamma * p.velocity[i];
        if (thermal) f += noise.force;
        dissipated -= 0.5 * dt * (state.damping_force[i] + f).dot(p.velocity[i]);
        state.damping_force[i] = f;
        p.force[i] += f;
      }
      if (gamma_rot > 0.0) {
        Vec3 t = -(p.radius[i] * p.radius[i] * gamma_rot) * p.angular_velocity[i];
        if (thermal) t += noise.torque;
        dissipated -= 0.5 * dt * (state.damping_torque[i] + t).dot(p.angular_velocity[i]);
        state.damping_torque[i] = t;
        p.torque[i] += t;
      }
    }
    return dissipated;
  });
  double dissipated = 0.0;
  for (const double d : part_dissipated) dissipated += d;
  state.energy.dissipated_viscous += dissipated;
}

}  // namespace lodestone
