#include "engine/bodies/pressure.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

double lid_area(const Model& model) {
  return (model.box.max.x() - model.box.min.x()) * (model.box.max.y() - model.box.min.y());
}

double auto_lid_damping(const Model& model, const Particles& p) {
  if (p.size() == 0)
    return model.environment.translational_damping > 0.0 ? model.environment.translational_damping : 1.0;
  double r_mean = 0.0, m_mean = 0.0;
  for (size_t i = 0; i < p.size(); ++i) {
    r_mean += p.radius[i];
    m_mean += p.mass[i];
  }
  r_mean /= static_cast<double>(p.size());
  m_mean /= static_cast<double>(p.size());
  // Per particle under the lid: the medium's damping, or without one a critically damped contact of a mean
  // particle at the stiffest frequency the time step resolves (2 m omega_max).
  double per_particle = model.environment.translational_damping;
  if (per_particle <= 0.0) per_particle = 2.0 * m_mean * model.advice.omega_max;
  if (!(per_particle > 0.0)) per_particle = 1.0;  // nothing to go by (no mass, no stiffness): 1 N s/m
  return per_particle * lid_area(model) / (pi * r_mean * r_mean);
}

namespace {

// Particles per part of the top layer's two sweeps (a comparison or two each).
constexpr size_t kPressureGrain = 4096;

// On the team: the highest centre is a maximum (exact whatever the split), each particle's push its own.
void apply_top_layer_pressure(const Model& model, State& state, ThreadTeam& team) {
  if (model.pressure.method != PressureMethod::TopLayer || model.pressure.pressure <= 0.0) return;
  Particles& p = state.particles;
  if (p.size() == 0) return;
  const double floor = model.box.min.z();
  const std::vector<double> highest =
      results_of_parts<double>(team, p.size(), kPressureGrain, [&](size_t begin, size_t end) {
        double z_max = -INFINITY;
        for (size_t i = begin; i < end; ++i) z_max = std::max(z_max, p.position[i].z());
        return z_max;
      });
  const double z_max = *std::max_element(highest.begin(), highest.end());
  const double threshold = floor + model.pressure.top_fraction * (z_max - floor);
  for_each_range(team, p.size(), kPressureGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      if (p.position[i].z() > threshold) p.force[i].z() -= pi * p.radius[i] * p.radius[i] * model.pressure.pressure;
  });
}

void update_lid_velocity(const Model& model, State& state) {
  if (model.pressure.method != PressureMethod::Lid) {
    state.lid_velocity = 0.0;
    return;
  }
  const double push = state.wall_force[5].z();  // side 5 = z_max: the particles push it up (> 0)
  state.lid_velocity = (push - model.pressure.pressure * lid_area(model)) / model.lid_damping;
}

}  // namespace

void apply_pressure(const Model& model, State& state, ThreadTeam& team) {
  apply_top_layer_pressure(model, state, team);
  update_lid_velocity(model, state);
}

void place_lid(const Model& model, State& state) {
  if (model.pressure.method != PressureMethod::Lid) {
    state.lid_height = model.box.max.z();
    state.lid_velocity = 0.0;
    state.lid_placed = false;
    return;
  }
  if (state.lid_placed) return;
  const Particles& p = state.particles;
  double top = model.box.min.z();
  for (size_t i = 0; i < p.size(); ++i) top = std::max(top, p.position[i].z() + p.radius[i]);
  state.lid_height = std::min(top, model.box.max.z());
  state.lid_velocity = 0.0;
  state.lid_placed = true;
}

}  // namespace lodestone
