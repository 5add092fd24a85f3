#include "engine/simulation.hpp"

#include "engine/bonds.hpp"
#include "engine/clumps.hpp"
#include "engine/contacts.hpp"
#include "engine/field.hpp"
#include "engine/generator.hpp"
#include "engine/health.hpp"
#include "engine/integrator.hpp"
#include "engine/law_floor.hpp"
#include "engine/magnetics.hpp"
#include "engine/neighbor.hpp"
#include "engine/pressure.hpp"
#include "engine/protocol.hpp"
#include "engine/thermal.hpp"
#include "engine/timeline.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

namespace lodestone {

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::Integrate: return "integrate";
    case Stage::Neighbors: return "neighbours";
    case Stage::Moments: return "moments";
    case Stage::Contacts: return "contacts";
    case Stage::Dipoles: return "dipoles";
    case Stage::Bonds: return "bonds";
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

namespace {

std::vector<Preset> stage_presets_of(const Preset& preset) {
  std::vector<Preset> out;
  for (size_t k = 0; k < preset.protocol.size(); ++k) out.push_back(stage_preset(preset, static_cast<int>(k)));
  return out;
}

const Preset& first_stage_or(const std::vector<Preset>& stages, const Preset& preset) {
  return stages.empty() ? preset : stages.front();
}

Preset without_timeline(Preset preset) {
  preset.timeline.clear();
  return preset;
}

}  // namespace

Simulation::Simulation(const Preset& preset) : Simulation(preset, stage_presets_of(preset)) {}

Simulation::Simulation(const Preset& preset, std::vector<Preset> stages)
    : document_(preset), protocol_(preset.protocol), stage_presets_(std::move(stages)) {
  if (preset.particles.kind == GeneratorKind::Checkpoint) {
    try {
      Checkpoint saved = load_checkpoint(preset.particles.file);
      restore(saved.preset, std::move(saved.state));
    } catch (const CheckpointError& e) {
      throw PresetError("$.particles.file", e.what());
    }
    if (state_.health.ok) apply_due_entries();
    return;
  }
  in_force_ = without_timeline(first_stage_or(stage_presets_, preset));
  model_ = make_model(in_force_);
  state_.particles = generate_particles(preset);
  state_.bonds = create_bonds(preset, state_.particles);
  add_preset_clumps(preset, state_);
  reinitialize();
  if (!protocol_.empty()) {
    state_.overlaps_expected = protocol_.front().until == StageEnd::NoOverlap;
    state_.health = Health{};
    check_health(model_, state_);
  }
  if (state_.health.ok) apply_due_entries();
}

Simulation::Simulation(const Checkpoint& checkpoint)
    : document_(checkpoint.preset),
      protocol_(checkpoint.preset.protocol),
      stage_presets_(stage_presets_of(checkpoint.preset)) {
  restore(checkpoint.preset, checkpoint.state);
  if (state_.health.ok) apply_due_entries();
}

Simulation::Simulation(Model model, Particles particles) : model_(std::move(model)) {
  state_.particles = std::move(particles);
  reinitialize();
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

bool same_densities(const std::vector<Material>& a, const std::vector<Material>& b) {
  if (a.size() != b.size()) return false;
  for (size_t m = 0; m < a.size(); ++m)
    if (a[m].density != b[m].density) return false;
  return true;
}

}  // namespace

namespace {

// The preset stage `stage` runs with (the preset itself without a protocol), if it has that stage.
std::optional<Preset> running_preset(const Preset& preset, int stage) {
  if (preset.protocol.empty()) return stage == 0 ? std::optional<Preset>(preset) : std::nullopt;
  if (stage >= static_cast<int>(preset.protocol.size())) return std::nullopt;
  return stage_preset(preset, stage);
}

// What enters the model: the preset as JSON without the particle generator, run settings,
// description and display units.
json model_parameters(const std::optional<Preset>& preset) {
  if (!preset) return nullptr;
  json j = preset_to_json(*preset);
  for (const char* key : {"particles", "run", "description", "units", "timeline"}) j.erase(key);
  return j;
}

}  // namespace

// Continues a saved state. With the parameters it was saved with, everything (neighbour lists,
// forces, contact history) is taken as it was, so the run goes on bit-identically. With other
// parameters (a sweep changing the field, say) the lists and forces are remade for them, as a
// panel edit would.
void Simulation::restore(const Preset& saved_with, State state) {
  int stage = state.stage;
  if (protocol_.empty()) {
    state.stage = 0;
    state.protocol_finished = false;
    stage = 0;
  } else if (stage >= stage_count()) {
    throw PresetError("$.protocol", "the checkpoint was saved in protocol stage " + std::to_string(stage + 1) +
                                        ", but this preset's protocol has " + std::to_string(stage_count()) +
                                        " stages");
  }
  for (int m : state.particles.material)
    if (static_cast<size_t>(m) >= document_.materials.size())
      throw PresetError("$.materials", "the checkpoint's particles use material index " + std::to_string(m) +
                                           " but this preset defines " + std::to_string(document_.materials.size()));
  const std::optional<Preset> saved_stage = running_preset(saved_with, stage);
  const bool same_parameters = model_parameters(running_preset(document_, stage)) == model_parameters(saved_stage);
  in_force_ = without_timeline(protocol_.empty() ? document_ : stage_presets_[static_cast<size_t>(stage)]);
  entry_stages_.clear();
  model_ = make_model(in_force_);
  state_ = std::move(state);
  // Particles follow edited material densities and magnetisations, as after a panel edit.
  if (!same_parameters && saved_stage) {
    apply_material_edits(saved_stage->materials, model_.materials, state_.particles);
    if (!state_.clumps.id.empty() && !same_densities(saved_stage->materials, model_.materials))
      refresh_clump_mass_properties(saved_stage->materials, model_.materials, state_);
  }
  prepare_model(model_, state_.particles);
  advise_bonds_and_floor(model_, state_.particles, state_.bonds);
  const size_t wall_records = model_.box.any_wall() ? 6 * state_.particles.size() : 0;
  if (state_.wall_history.size() != wall_records) state_.wall_history.assign(wall_records, ContactHistory{});
  if (!same_parameters) {
    place_lid(model_, state_);
    state_.neighbors.valid = false;  // ranges may differ; contact history is carried by (id, id)
    state_.dipole_history.clear();   // extrapolated dipole forces start afresh, as after an edit
    refresh_neighbor_lists(model_, state_, team());
    compute_forces(0.0, nullptr);
  }
}

std::string Simulation::stage_label() const {
  if (protocol_.empty()) return {};
  if (state_.protocol_finished) return "protocol done";
  const int k = std::min(state_.stage, stage_count() - 1);
  return std::to_string(k + 1) + "/" + std::to_string(stage_count()) + " " + protocol_[static_cast<size_t>(k)].name;
}

void Simulation::reinitialize() {
  prepare_model(model_, state_.particles);
  advise_bonds_and_floor(model_, state_.particles, state_.bonds);
  place_lid(model_, state_);
  state_.neighbors.valid = false;
  state_.wall_history.resize(model_.box.any_wall() ? 6 * state_.particles.size() : 0);
  state_.dipole_history.clear();
  refresh_neighbor_lists(model_, state_, team());
  compute_forces(0.0, nullptr);
  state_.energy_watch.valid = false;  // particles edited directly: a new reference for the energy check
  check_health(model_, state_);
}


Preset Simulation::folded_document() const { return fold_applied_entries(document_, entry_stages_); }

int Simulation::current_stage() const { return protocol_.empty() ? 0 : std::min(state_.stage, stage_count() - 1); }

void Simulation::apply_parameters(Preset next) {
  set_model(make_model(next));
  in_force_ = std::move(next);
  ++parameters_revision_;
}

void Simulation::apply_due_entries() {
  const std::vector<TimelineEntry>& timeline = document_.timeline;
  while (entry_stages_.size() < timeline.size() &&
         static_cast<std::int64_t>(timeline[entry_stages_.size()].step) <= state_.step) {
    const size_t k = entry_stages_.size();
    try {
      apply_parameters(apply_changes(in_force_, timeline[k].set, "$.timeline[" + std::to_string(k) + "].set"));
    } catch (const PresetError& e) {
      state_.health.ok = false;
      state_.health.message = "timeline entry " + std::to_string(k + 1) + " (step " +
                              std::to_string(timeline[k].step) + ") cannot apply: " + e.what();
      return;
    }
    entry_stages_.push_back(current_stage());
  }
}

void Simulation::edit_parameters(const Preset& edited) {
  json run_set = json::object(), document_set = json::object();
  for (auto& [path, value] : parameter_changes(in_force_, edited))
    (is_document_path(path) ? document_set : run_set)[path] = std::move(value);
  if (run_set.empty() && document_set.empty()) return;
  const int stage = current_stage();
  const size_t index = entry_stages_.size();  // the new entry follows those applied

  // Everything is computed (and may throw) before anything changes.
  Preset next = in_force_;
  if (!run_set.empty()) {
    next = apply_changes(in_force_, run_set, "$.timeline[" + std::to_string(index) + "].set");
    // The later stages still apply on top of the edit.
    Preset later = next;
    for (int k = stage + 1; k < stage_count(); ++k)
      later = apply_changes(later, protocol_[static_cast<size_t>(k)].set, "$.protocol[" + std::to_string(k) + "].set");
  }
  Preset document = document_;
  std::vector<Preset> stages;
  if (!document_set.empty()) {
    json doc = preset_to_json(document_), now = preset_to_json(next);
    for (auto it = document_set.begin(); it != document_set.end(); ++it) {
      set_json_path(doc, it.key(), it.value(), "$." + it.key());
      set_json_path(now, it.key(), it.value(), "$." + it.key());
    }
    document = preset_from_json(doc);
    next = preset_from_json(now);
    stages = stage_presets_of(document);
  }
  if (!run_set.empty()) set_model(make_model(next));  // throws, leaving the old model

  in_force_ = std::move(next);
  ++parameters_revision_;
  if (!document_set.empty()) {
    document_ = std::move(document);
    protocol_ = document_.protocol;
    stage_presets_ = std::move(stages);
  }
  if (run_set.empty()) return;
  // Entries a stopped run did not reach by now would come out of order: the run never made them.
  std::vector<TimelineEntry>& timeline = document_.timeline;
  timeline.erase(std::remove_if(timeline.begin() + static_cast<std::ptrdiff_t>(index), timeline.end(),
                                [this](const TimelineEntry& e) {
                                  return static_cast<std::int64_t>(e.step) < state_.step;
                                }),
                 timeline.end());
  TimelineEntry entry;
  entry.step = static_cast<std::uint64_t>(state_.step);
  entry.set = std::move(run_set);
  timeline.insert(timeline.begin() + static_cast<std::ptrdiff_t>(index), std::move(entry));
  entry_stages_.push_back(stage);
}

void Simulation::set_model(const Model& model) {
  Model candidate = model;
  Particles edited = state_.particles;
  apply_material_edits(model_.materials, candidate.materials, edited);
  prepare_model(candidate, edited);  // throws before anything changes
  advise_bonds_and_floor(candidate, edited, state_.bonds);
  state_.particles = std::move(edited);
  if (!state_.clumps.id.empty() && !same_densities(model_.materials, candidate.materials))
    refresh_clump_mass_properties(model_.materials, candidate.materials, state_);
  model_ = std::move(candidate);
  place_lid(model_, state_);
  state_.neighbors.valid = false;  // ranges may have changed; history is carried by (id, id)
  state_.energy_watch.valid = false;  // the energies' functions changed: a new reference for the energy check
  state_.dipole_history.clear();   // extrapolated dipole forces (force_interval > 1) start afresh
  refresh_neighbor_lists(model_, state_, team());
  compute_forces(0.0, nullptr);
}

void Simulation::compute_forces(double dt, StageClock* clock, bool trial) {
  auto lap = [clock](Stage s) {
    if (clock) clock->lap(s);
  };
  Particles& p = state_.particles;
  for (size_t i = 0; i < p.size(); ++i) {
    p.force[i].setZero();
    p.torque[i].setZero();
  }
  update_moments(model_, state_, team());
  lap(Stage::Moments);
  compute_contact_forces(model_, state_, dt, team());
  lap(Stage::Contacts);
  dipole_stage(model_, state_, trial, team());
  lap(Stage::Dipoles);
  compute_bond_forces(model_, state_, dt);
  lap(Stage::Bonds);
  apply_field(model_, state_, dt);
  apply_gravity_and_damping(model_, state_, dt);
  apply_top_layer_pressure(model_, state_);
  update_lid_velocity(model_, state_);
  apply_floor(model_, state_, dt);  // last: its friction balances the other lateral forces (seed 003)
  sum_clump_forces(model_, state_);
  lap(Stage::BodyForces);
  state_.forces_current = true;
}

void Simulation::set_threads(int threads) {
  if (threads == this->threads()) return;
  team_ = threads > 1 ? std::make_unique<ThreadTeam>(threads) : nullptr;
}

void Simulation::step() {
  if (!state_.health.ok) return;
  timings_.last_seconds.fill(0.0);
  StageClock clock(timings_);
  if (model_.integrator.scheme == IntegratorScheme::OverdampedHeun)
    step_overdamped(clock);
  else
    step_verlet(clock);
  check_health(model_, state_, team());
  track_alignment();
  clock.lap(Stage::Checks);
  ++timings_.steps;
  if (!protocol_.empty() && !state_.protocol_finished && state_.health.ok) advance_protocol();
  if (state_.health.ok) apply_due_entries();  // between steps, where the app applies an edit
}

// tau_0.95 of seed 004: the first time in this stage at which <cos theta> of the easy axes with
// the field reaches 0.95 (only while a field is on).
void Simulation::track_alignment() {
  if (state_.alignment_time || uniform_field(model_.field, state_.time).squaredNorm() == 0.0) return;
  ProtocolStage aligned;
  aligned.until = StageEnd::Aligned;
  aligned.threshold = kAlignmentThreshold;
  if (stage_condition_met(aligned, model_, state_)) state_.alignment_time = state_.time - state_.stage_start_time;
}

void Simulation::step_verlet(StageClock& clock) {
  const double dt = model_.time_step;
  state_.last_time_step = dt;
  integrate_first_half(model_, state_, dt, team());
  integrate_clumps_first_half(model_, state_, dt);
  clock.lap(Stage::Integrate);
  refresh_neighbor_lists(model_, state_, team());
  clock.lap(Stage::Neighbors);
  compute_forces(dt, &clock);
  integrate_second_half(model_, state_, dt, team());
  integrate_clumps_second_half(model_, state_, dt);
  clock.lap(Stage::Integrate);
}

namespace {

// What a trial force pass (Heun's predictor) changes besides forces, put back before the real pass
// so that contact history, energy books and events count each step once.
struct TrialBackup {
  std::vector<ContactHistory> contacts, walls;
  EnergyLedger energy;
  EventLog events;
  Vec3 total_moment = Vec3::Zero();
  std::vector<Bond> bonds;
  std::uint64_t broken_bonds = 0;

  void save(const State& s) {
    contacts = s.neighbors.contact_history;
    walls = s.wall_history;
    energy = s.energy;
    events = s.events;
    total_moment = s.total_moment;
    bonds = s.bonds;
    broken_bonds = s.broken_bonds;
  }
  void restore(State& s) const {
    s.neighbors.contact_history = contacts;
    s.wall_history = walls;
    s.energy = energy;
    s.events = events;
    s.total_moment = total_moment;
    s.bonds = bonds;
    s.broken_bonds = broken_bonds;
  }
};

}  // namespace

// Heun: slopes k0 at the start (forces are current from the previous step), predictor x0 + dt k0,
// slopes k1 there, then x0 + dt (k0 + k1)/2; the forces at the new point are the next step's k0.
void Simulation::step_overdamped(StageClock& clock) {
  if (!state_.forces_current) compute_forces(0.0, nullptr);
  thread_local StepOrigin origin;
  thread_local OverdampedSlopes k0, k1, noise;
  thread_local TrialBackup backup;
  overdamped_slopes(model_, state_, k0);
  double dt = model_.time_step;
  if (model_.integrator.max_displacement && k0.max_speed * dt > *model_.integrator.max_displacement)
    dt = *model_.integrator.max_displacement / k0.max_speed;
  // Brownian motion: the same noise joins both slopes (additive noise), so the step adds sqrt(2 D dt) xi.
  const bool thermal = thermal_noise_on(model_);
  if (thermal) {
    brownian_slopes(model_, state_, dt, noise);
    add_slopes(noise, k0);
  }
  save_origin(state_, origin);
  advance_from(model_, origin, k0.velocity, k0.angular_velocity, k0.lid_velocity, dt, state_);
  state_.time += dt;
  clock.lap(Stage::Integrate);
  backup.save(state_);
  compute_forces(dt, &clock, /*trial=*/true);
  overdamped_slopes(model_, state_, k1);
  if (thermal) add_slopes(noise, k1);
  backup.restore(state_);
  for (size_t i = 0; i < k1.velocity.size(); ++i) {
    k1.velocity[i] = 0.5 * (k0.velocity[i] + k1.velocity[i]);
    k1.angular_velocity[i] = 0.5 * (k0.angular_velocity[i] + k1.angular_velocity[i]);
  }
  advance_from(model_, origin, k1.velocity, k1.angular_velocity, 0.5 * (k0.lid_velocity + k1.lid_velocity), dt,
               state_);
  ++state_.step;
  state_.last_time_step = dt;
  clock.lap(Stage::Integrate);
  refresh_neighbor_lists(model_, state_, team());
  clock.lap(Stage::Neighbors);
  compute_forces(dt, &clock);  // velocities are the step's mean: friction and damping see the motion made
}

void Simulation::start_stage(int stage) {
  state_.stage = stage;
  state_.stage_start_time = state_.time;
  state_.alignment_time.reset();
  state_.overlaps_expected = protocol_[static_cast<size_t>(stage)].until == StageEnd::NoOverlap;
  try {
    // With timeline entries in force, the stage's changes apply on top of them (later wins);
    // otherwise the stage's preset is the one validated up front.
    apply_parameters(entry_stages_.empty()
                         ? stage_presets_[static_cast<size_t>(stage)]
                         : apply_changes(in_force_, protocol_[static_cast<size_t>(stage)].set,
                                         "$.protocol[" + std::to_string(stage) + "].set"));
  } catch (const PresetError& e) {
    state_.health.ok = false;
    state_.health.message = "protocol stage " + std::to_string(stage + 1) + " '" +
                            protocol_[static_cast<size_t>(stage)].name + "' cannot start: " + e.what();
  }
}

void Simulation::advance_protocol() {
  const ProtocolStage& current = protocol_[static_cast<size_t>(state_.stage)];
  const double elapsed = state_.time - state_.stage_start_time;
  if (elapsed < current.duration * (1.0 - 1e-12) && !stage_condition_met(current, model_, state_)) return;
  if (state_.stage + 1 >= stage_count()) {
    state_.protocol_finished = true;
    return;
  }
  start_stage(state_.stage + 1);
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
