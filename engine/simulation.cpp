#include "engine/simulation.hpp"

#include "engine/contacts.hpp"
#include "engine/field.hpp"
#include "engine/generator.hpp"
#include "engine/health.hpp"
#include "engine/integrator.hpp"
#include "engine/magnetics.hpp"
#include "engine/neighbor.hpp"

#include <chrono>

namespace lodestone {

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::Integrate: return "integrate";
    case Stage::Neighbors: return "neighbours";
    case Stage::Moments: return "moments";
    case Stage::Contacts: return "contacts";
    case Stage::Dipoles: return "dipoles";
    case Stage::BodyForces: return "field, gravity, damping";
    case Stage::Checks: return "checks";
    case Stage::Count: break;
  }
  return "?";
}

// Charges the wall-clock time since the previous lap to a stage.
class StageClock {
 public:
  explicit StageClock(StageTimings& t) : timings_(t), last_(std::chrono::steady_clock::now()) {}
  void lap(Stage s) {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    timings_.last_seconds[static_cast<size_t>(s)] += seconds;
    timings_.total_seconds[static_cast<size_t>(s)] += seconds;
    last_ = now;
  }

 private:
  StageTimings& timings_;
  std::chrono::steady_clock::time_point last_;
};

Simulation::Simulation(const Preset& preset) : Simulation(make_model(preset), generate_particles(preset)) {}

Simulation::Simulation(Model model, Particles particles) : model_(std::move(model)) {
  state_.particles = std::move(particles);
  reinitialize();
}

void Simulation::reinitialize() {
  prepare_model(model_, state_.particles);
  state_.neighbors.valid = false;
  state_.wall_history.resize(6 * state_.particles.size());
  refresh_neighbor_lists(model_, state_);
  compute_forces(0.0, nullptr);
  check_health(model_, state_);
}

namespace {

// Material properties particles carry themselves follow an edit of their material.
void apply_material_edits(const std::vector<Material>& before, const std::vector<Material>& after, Particles& p) {
  for (size_t i = 0; i < p.size(); ++i) {
    const auto m = static_cast<size_t>(p.material[i]);
    if (m >= before.size() || m >= after.size()) continue;
    const Material& old_material = before[m];
    const Material& new_material = after[m];
    const double volume = sphere_volume(p.radius[i]);
    if (new_material.density != old_material.density) {
      p.mass[i] = new_material.density * volume;
      p.inertia[i] = 0.4 * p.mass[i] * p.radius[i] * p.radius[i];
    }
    if (new_material.magnetization != old_material.magnetization) {
      if (old_material.magnetization > 0.0)
        p.moment_body[i] *= new_material.magnetization / old_material.magnetization;
      else
        p.moment_body[i] = new_material.magnetization * volume * p.easy_axis_body[i];
    }
  }
}

}  // namespace

void Simulation::set_model(const Model& model) {
  Model candidate = model;
  Particles edited = state_.particles;
  apply_material_edits(model_.materials, candidate.materials, edited);
  prepare_model(candidate, edited);  // throws before anything changes
  state_.particles = std::move(edited);
  model_ = std::move(candidate);
  state_.neighbors.valid = false;  // ranges may have changed; history is carried by (id, id)
  refresh_neighbor_lists(model_, state_);
  compute_forces(0.0, nullptr);
}

void Simulation::compute_forces(double dt, StageClock* clock) {
  auto lap = [clock](Stage s) {
    if (clock) clock->lap(s);
  };
  Particles& p = state_.particles;
  for (size_t i = 0; i < p.size(); ++i) {
    p.force[i].setZero();
    p.torque[i].setZero();
  }
  update_moments(model_, state_);
  lap(Stage::Moments);
  compute_contact_forces(model_, state_, dt);
  lap(Stage::Contacts);
  compute_dipole_forces(model_, state_);
  lap(Stage::Dipoles);
  apply_field(model_, state_, dt);
  apply_gravity_and_damping(model_, state_, dt);
  lap(Stage::BodyForces);
  state_.forces_current = true;
}

void Simulation::step() {
  if (!state_.health.ok) return;
  timings_.last_seconds.fill(0.0);
  StageClock clock(timings_);
  const double dt = model_.time_step;
  integrate_first_half(model_, state_, dt);
  clock.lap(Stage::Integrate);
  refresh_neighbor_lists(model_, state_);
  clock.lap(Stage::Neighbors);
  compute_forces(dt, &clock);
  integrate_second_half(model_, state_, dt);
  clock.lap(Stage::Integrate);
  check_health(model_, state_);
  clock.lap(Stage::Checks);
  ++timings_.steps;
}

std::int64_t Simulation::run(std::int64_t steps) {
  std::int64_t done = 0;
  while (done < steps && state_.health.ok) {
    step();
    ++done;
  }
  return done;
}

}  // namespace lodestone
