#include "engine/integrator.hpp"

#include <cmath>

namespace lodestone {

void integrate_first_half(const Model& model, State& state, double dt) {
  Particles& p = state.particles;
  const double half = 0.5 * dt;
  for (size_t i = 0; i < p.size(); ++i) {
    p.velocity[i] += (half / p.mass[i]) * p.force[i];
    p.position[i] += dt * p.velocity[i];
    p.angular_velocity[i] += (half / p.inertia[i]) * p.torque[i];
    p.orientation[i] = rotate_by(p.orientation[i], dt * p.angular_velocity[i]);
    p.orientation[i].normalize();
  }
  for (int a = 0; a < 3; ++a) {
    const double length = model.periodic_length[a];
    if (length <= 0.0) continue;
    const double lo = model.box.min[a];
    for (size_t i = 0; i < p.size(); ++i) {
      double& x = p.position[i][a];
      if (x < lo || x >= lo + length) {
        x -= length * std::floor((x - lo) / length);
        if (x >= lo + length) x = lo;  // x just below lo can round up to lo + length
      }
    }
  }
  state.time += dt;
  ++state.step;
}

void integrate_second_half(const Model&, State& state, double dt) {
  Particles& p = state.particles;
  const double half = 0.5 * dt;
  for (size_t i = 0; i < p.size(); ++i) {
    p.velocity[i] += (half / p.mass[i]) * p.force[i];
    p.angular_velocity[i] += (half / p.inertia[i]) * p.torque[i];
  }
}

}  // namespace lodestone
