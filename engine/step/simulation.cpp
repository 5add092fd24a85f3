#include "engine/step/simulation.hpp"

#include "engine/bodies/bonds.hpp"
#include "engine/bodies/clumps.hpp"
#include "engine/bodies/pressure.hpp"
#include "engine/bodies/touch.hpp"
#include "engine/contact/contacts.hpp"
#include "engine/contact/law_floor.hpp"
#include "engine/core/team_rehearsal.hpp"
#include "engine/magnetic/field.hpp"
#include "engine/magnetic/magnetics.hpp"
#include "engine/step/environment_forces.hpp"
#include "engine/step/health.hpp"
#include "engine/step/integrator.hpp"
#include "engine/step/model_preparation.hpp"
#include "engine/step/neighbor.hpp"
#include "engine/step/thermal.hpp"

#include <chrono>
#include <optional>

namespace lodestone {

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::FirstHalf: return "integrate (first half)";
    case Stage::Neighbors: return "neighbour lists";
    case Stage::ClearForces: return "clear forces";
    case Stage::Moments: return "moments";
    case Stage::Contacts: return "contacts";
    case Stage::Dipoles: return "dipoles";
    case Stage::Bonds: return "bonds";
    case Stage::Field: return "field";
    case Stage::GravityAndDamping: return "gravity, damping";
    case Stage::Pressure: return "pressure";
    case Stage::Floor: return "floor";
    case Stage::Clumps: return "clumps";
    case Stage::SecondHalf: return "integrate (second half)";
    case Stage::Checks: return "checks";
    case Stage::Protocol: return "protocol, alignment";
    case Stage::Count: break;
  }
  return "?";
}

// Charges the wall-clock time since the previous lap to a stage (and, when the team is rehearsed, what its rounds
// would have saved on more cores: engine/core/team_rehearsal.hpp).
static_assert(kStageCount <= kRehearsalSlots);
class StageClock {
 public:
  explicit StageClock(StageTimings& t) : timings_(t), last_(std::chrono::steady_clock::now()) {
    // Rounds rehearsed between steps (observables, checks after an edit) belong to no stage.
    if (team_rehearsal_enabled()) charge_rehearsal_savings(-1);
  }
  void lap(Stage s) {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    timings_.last_seconds[static_cast<size_t>(s)] += seconds;
    timings_.total_seconds[static_cast<size_t>(s)] += seconds;
    if (team_rehearsal_enabled()) charge_rehearsal_savings(static_cast<int>(s));
    last_ = now;
  }

 private:
  StageTimings& timings_;
  std::chrono::steady_clock::time_point last_;
};

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

// What the state holds for a model besides the lists stays: the wall contacts' records (any wall) and the lid (it is
// placed, or taken off, at once: it is drawn).
bool same_state_shape(const Model& a, const Model& b) {
  return a.box.any_wall() == b.box.any_wall() && a.pressure.method == b.pressure.method;
}

// The material properties particles carry themselves (density: mass and inertia; magnetisation: moment) unchanged.
bool same_carried_properties(const std::vector<Material>& a, const std::vector<Material>& b) {
  if (a.size() != b.size()) return false;
  for (size_t m = 0; m < a.size(); ++m)
    if (a[m].density != b[m].density || a[m].magnetization != b[m].magnetization) return false;
  return true;
}

bool same_densities(const std::vector<Material>& a, const std::vector<Material>& b) {
  if (a.size() != b.size()) return false;
  for (size_t m = 0; m < a.size(); ++m)
    if (a[m].density != b[m].density) return false;
  return true;
}

}  // namespace

// What a trial force pass (Heun's predictor) changes besides forces, put back before the real pass so that energy
// books and events count each step once. Putting back swaps the saved vectors in instead of copying them (the trial's
// values are not needed again). The contact histories are not among them: a trial pass evaluates its contacts on
// copies and leaves the records as they were (compute_contact_forces); copying them all before it and putting them
// back after was a tenth of an overdamped powder step.
struct TrialBackup {
  EnergyLedger energy;
  EventLog events;
  Vec3 total_moment = Vec3::Zero();
  std::vector<Bond> bonds;
  std::uint64_t broken_bonds = 0;
  DragSpring drag;

  void save(const State& s, ThreadTeam& team) {
    energy = s.energy;
    events = s.events;
    total_moment = s.total_moment;
    copy_on_team(team, s.bonds, bonds);
    broken_bonds = s.broken_bonds;
    drag = s.drag;
  }
  // Leaves the trial's values in this backup, to be overwritten by the next save.
  void put_back(State& s) {
    std::swap(s.energy, energy);
    std::swap(s.events, events);
    s.total_moment = total_moment;
    std::swap(s.bonds, bonds);
    s.broken_bonds = broken_bonds;
    s.drag = drag;
  }
};

// The overdamped step's buffers, kept by the simulation so that a step allocates nothing; nothing in them
// lasts from one step to the next.
struct OverdampedScratch {
  StepOrigin origin;
  OverdampedSlopes k0, k1, noise;
  TrialBackup backup;
};

Simulation::Simulation() = default;
Simulation::~Simulation() = default;
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;

Simulation::Simulation(Model model, Particles particles) : model_(std::move(model)) {
  state_.particles = std::move(particles);
  reinitialize();
}

Simulation::Simulation(Model model, State state) : model_(std::move(model)), state_(std::move(state)) {
  reinitialize();
}

Simulation Simulation::continue_saved(Model model, State state) {
  Simulation sim;
  sim.model_ = std::move(model);
  sim.state_ = std::move(state);
  sim.prepare();
  sim.size_wall_history();
  return sim;
}

void Simulation::size_wall_history() {
  const size_t records = model_.box.any_wall() ? 6 * state_.particles.size() : 0;
  if (state_.wall_history.size() != records) {
    state_.wall_history.assign(records, ContactHistory{});
    state_.wall_law.clear();
    mark_active_walls(state_);
  }
}

void Simulation::prepare() {
  prepare_model(model_, state_.particles);
  advise_bonds_and_floor(model_, state_.particles, state_.bonds);
}

void Simulation::reinitialize() {
  prepare();
  place_lid(model_, state_);
  state_.neighbors.valid = false;
  state_.wall_history.resize(model_.box.any_wall() ? 6 * state_.particles.size() : 0);
  if (!state_.wall_law.empty()) state_.wall_law.resize(state_.wall_history.size());
  mark_active_walls(state_);
  state_.dipole_history.clear();
  refresh_neighbor_lists(model_, state_, team());
  compute_forces(0.0, nullptr);
  state_.model_change_pending = false;
  state_.energy_watch.valid = false;  // particles edited directly: a new reference for the energy check
  check_health(model_, state_);
}

void Simulation::set_model(const Model& model, ModelRefresh refresh) {
  // Everything is computed on copies (and may throw) before anything changes. Clumps follow their
  // pebbles' densities before the model is prepared, so the time-step advice sees the new masses. The
  // particles are copied only when their materials change (a copy of 20 000 is a few milliseconds).
  Model candidate = model;
  const bool materials_change = !same_carried_properties(model_.materials, candidate.materials);
  std::optional<Particles> edited;
  if (materials_change) {
    edited = state_.particles;
    apply_material_edits(model_.materials, candidate.materials, *edited);
  }
  const Particles& particles = edited ? *edited : state_.particles;
  const bool clumps_change = !state_.clumps.id.empty() && !same_densities(model_.materials, candidate.materials);
  Clumps clumps = clumps_change ? state_.clumps : Clumps{};
  if (clumps_change) refresh_clump_mass_properties(model_.materials, candidate.materials, *edited, clumps);
  prepare_model(candidate, particles);
  advise_bonds_and_floor(candidate, particles, state_.bonds);
  const bool keep_lists = refresh == ModelRefresh::Deferred && same_list_ranges(model_, candidate);
  const bool deferred = keep_lists && !materials_change && same_state_shape(model_, candidate);
  if (edited) state_.particles = std::move(*edited);
  if (clumps_change) state_.clumps = std::move(clumps);
  model_ = std::move(candidate);
  if (deferred) {
    state_.model_change_pending = true;  // the next step brings the state up to date (apply_model_change)
    return;
  }
  apply_model_change(keep_lists);
}

bool Simulation::defers(const Model& model) const {
  if (!same_carried_properties(model_.materials, model.materials)) return false;
  Model candidate = model;
  prepare_model_ranges(candidate, state_.particles);
  return same_list_ranges(model_, candidate) && same_state_shape(model_, candidate);
}

void Simulation::restore_model(Model model, bool pending) {
  model_ = std::move(model);
  state_.model_change_pending = pending;
}

void Simulation::apply_model_change(bool keep_lists) {
  size_wall_history();
  place_lid(model_, state_);
  if (!keep_lists) state_.neighbors.valid = false;  // ranges may have changed; history is carried by (id, id)
  state_.energy_watch.valid = false;  // the energies' functions changed: a new reference for the energy check
  state_.dipole_history.clear();      // extrapolated dipole forces (force_interval > 1) start afresh
  refresh_neighbor_lists(model_, state_, team());
  // A field or magnetisation the change switches (a protocol phase, a panel) changes the magnetic energy at fixed
  // positions, and the forces from here on are the new ones: that jump is the change's work on the moments (issue 40).
  const double magnetic_before = state_.energy.dipole + state_.energy.zeeman;
  compute_forces(0.0, nullptr);
  state_.energy.field_work += state_.energy.dipole + state_.energy.zeeman - magnetic_before;
  state_.model_change_pending = false;
}

void Simulation::compute_forces(double dt, StageClock* clock, bool trial, bool predict) {
  auto lap = [clock](Stage s) {
    if (clock) clock->lap(s);
  };
  const PredictedVelocities* predicted = nullptr;
  if (predict) {  // from the last pass's forces, cleared in the same sweep
    if (!predicted_) predicted_ = std::make_unique<PredictedVelocities>();
    if (predictions_current_)
      clear_forces_after_prediction(state_, dt, *predicted_, team());
    else
      predict_and_clear_forces(state_, dt, *predicted_, team());
    predictions_current_ = false;
    predicted = predicted_.get();
  } else {
    clear_forces(state_, team());
  }
  lap(Stage::ClearForces);
  std::vector<Vec3> moments_before;  // induced moments: the step's moment work is booked (issue 40)
  const bool moment_work = dt > 0.0 && !trial && books_moment_work(model_);
  if (moment_work) moments_before = state_.particles.moment;
  update_moments(model_, state_, team());
  if (moment_work) book_moment_work(model_, state_, moments_before, dt, team());
  lap(Stage::Moments);
  RunawayOverlapWatch watch{kRunawayOverlapFraction};
  compute_contact_forces(model_, state_, dt, team(), predicted, &watch, trial);
  first_too_deep_pair_ = watch.first_pair;
  lap(Stage::Contacts);
  apply_dipole_forces(model_, state_, trial, team());
  lap(Stage::Dipoles);
  compute_bond_forces(model_, state_, dt, team());
  lap(Stage::Bonds);
  apply_field(model_, state_, dt, team());
  lap(Stage::Field);
  apply_gravity_and_damping(model_, state_, dt, team());
  apply_drag_spring(model_, state_, dt);  // the user's hand (engine/bodies/touch.hpp), timed with gravity and damping
  lap(Stage::GravityAndDamping);
  apply_pressure(model_, state_, team());
  lap(Stage::Pressure);
  apply_floor(model_, state_, dt, predicted,
              trial);  // last: its friction balances the other lateral forces ([Voxel-beams])
  lap(Stage::Floor);
  if (state_.clumps.size() != 0) {
    if (!clump_pebbles_) clump_pebbles_ = std::make_unique<ClumpPebbles>();
    sum_clump_forces(model_, state_, *clump_pebbles_, team());
  }
  lap(Stage::Clumps);
  state_.forces_current = true;
}

void Simulation::set_threads(int threads) {
  if (threads == this->threads()) return;
  team_ = threads > 1 ? std::make_unique<ThreadTeam>(threads) : nullptr;
}

void Simulation::step() {
  if (!state_.health.ok) return;
  apply_pending_model_change();  // an edit's, deferred to here
  timings_.last_seconds.fill(0.0);
  StageClock clock(timings_);
  first_too_deep_pair_.reset();
  if (model_.integrator.scheme == IntegratorScheme::OverdampedHeun)
    step_overdamped(clock);
  else
    step_verlet(clock);
  check_health(model_, state_, team(), first_too_deep_pair_);
  clock.lap(Stage::Checks);
  ++timings_.steps;
}

void Simulation::run_after_step(const std::function<void(ThreadTeam&)>& work) {
  StageClock clock(timings_);
  work(team());
  clock.lap(Stage::Protocol);
}

void Simulation::step_verlet(StageClock& clock) {
  const double dt = model_.time_step;
  state_.last_time_step = dt;
  if (!predicted_) predicted_ = std::make_unique<PredictedVelocities>();
  integrate_first_half(model_, state_, dt, team(), predicted_.get());
  clock.lap(Stage::FirstHalf);
  // A rebuild may sort the particles by cell: the force pass then predicts them again.
  predictions_current_ = !refresh_neighbor_lists(model_, state_, team());
  clock.lap(Stage::Neighbors);
  compute_forces(dt, &clock, /*trial=*/false, /*predict=*/true);
  integrate_second_half(model_, state_, dt, team());
  clock.lap(Stage::SecondHalf);
}

// Heun: slopes k0 at the start (forces are current from the previous step), predictor x0 + dt k0,
// slopes k1 there, then x0 + dt (k0 + k1)/2; the forces at the new point are the next step's k0.
void Simulation::step_overdamped(StageClock& clock) {
  if (!state_.forces_current) compute_forces(0.0, nullptr);
  if (!overdamped_) overdamped_ = std::make_unique<OverdampedScratch>();
  auto& [origin, k0, k1, noise, backup] = *overdamped_;
  overdamped_slopes(model_, state_, k0, team());
  double dt = model_.time_step;
  if (model_.integrator.max_displacement && k0.max_speed * dt > *model_.integrator.max_displacement)
    dt = *model_.integrator.max_displacement / k0.max_speed;
  // Brownian motion: the same noise joins both slopes (additive noise), so the step adds sqrt(2 D dt) xi.
  const bool thermal = thermal_noise_on(model_);
  if (thermal) {
    brownian_slopes(model_, state_, dt, noise, team());
    add_slopes(noise, k0, team());
  }
  save_origin(state_, origin, team());
  advance_from(model_, origin, k0.velocity, k0.angular_velocity, k0.lid_velocity, dt, state_, team());
  state_.time += dt;
  clock.lap(Stage::FirstHalf);
  backup.save(state_, team());
  compute_forces(dt, &clock, /*trial=*/true, /*predict=*/false);
  overdamped_slopes(model_, state_, k1, team());
  if (thermal) add_slopes(noise, k1, team());
  backup.put_back(state_);
  mean_slopes(k0, k1, team());
  advance_from(model_, origin, k1.velocity, k1.angular_velocity, k1.lid_velocity, dt, state_, team());
  ++state_.step;
  state_.last_time_step = dt;
  clock.lap(Stage::SecondHalf);
  refresh_neighbor_lists(model_, state_, team());
  clock.lap(Stage::Neighbors);
  compute_forces(dt, &clock);  // velocities are the step's mean: friction and damping see the motion made
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
