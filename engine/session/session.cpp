#include "engine/session/session.hpp"

#include "engine/bodies/generator.hpp"
#include "engine/io/preset_edits.hpp"
#include "engine/io/preset_io.hpp"
#include "engine/magnetic/field.hpp"
#include "engine/session/protocol.hpp"

#include <algorithm>
#include <optional>

namespace lodestone {

namespace {

std::vector<Preset> phase_presets_of(const Preset& preset) {
  std::vector<Preset> out;
  for (size_t k = 0; k < preset.protocol.size(); ++k) out.push_back(phase_preset(preset, static_cast<int>(k)));
  return out;
}

const Preset& first_phase_or(const std::vector<Preset>& phases, const Preset& preset) {
  return phases.empty() ? preset : phases.front();
}

Preset without_timeline(Preset preset) {
  preset.timeline.clear();
  return preset;
}

// The particles, bonds and clumps a preset generates, with the first protocol phase's overlap rule.
State generated_state(const Preset& preset) {
  State state = generate_state(preset);
  state.overlaps_expected = !preset.protocol.empty() && preset.protocol.front().until == PhaseEnd::NoOverlap;
  return state;
}

// The preset phase `phase` runs with (the preset itself without a protocol), if it has that phase.
std::optional<Preset> running_preset(const Preset& preset, int phase) {
  if (preset.protocol.empty()) return phase == 0 ? std::optional<Preset>(preset) : std::nullopt;
  if (phase >= static_cast<int>(preset.protocol.size())) return std::nullopt;
  return phase_preset(preset, phase);
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

Session::Session(const Preset& preset) : Session(preset, phase_presets_of(preset)) {}

Session::Session(const Preset& preset, std::vector<Preset> phases)
    : document_(preset), phase_presets_(std::move(phases)) {
  if (preset.particles.kind == GeneratorKind::Checkpoint) {
    try {
      Checkpoint saved = load_checkpoint(preset.particles.file);
      restore(saved.preset, std::move(saved.state));
    } catch (const CheckpointError& e) {
      throw PresetError("$.particles.file", e.what());
    }
  } else {
    in_force_ = without_timeline(first_phase_or(phase_presets_, preset));
    sim_ = Simulation(make_model(in_force_), generated_state(preset));
  }
  if (state().health.ok) apply_due_entries();
}

Session::Session(const Checkpoint& checkpoint)
    : document_(checkpoint.preset), phase_presets_(phase_presets_of(checkpoint.preset)) {
  restore(checkpoint.preset, checkpoint.state);
  if (state().health.ok) apply_due_entries();
}

// Continues a saved state. With the parameters it was saved with, everything (neighbour lists,
// forces, contact history) is taken as it was, so the run goes on bit-identically. With other
// parameters (a sweep changing the field, say) the saved run continues as if a panel edit had
// changed them: particles follow their materials, lists and forces are remade.
void Session::restore(const Preset& saved_with, State state) {
  int phase = state.phase;
  if (document_.protocol.empty()) {
    state.phase = 0;
    state.protocol_finished = false;
    phase = 0;
  } else if (phase >= phase_count()) {
    throw PresetError("$.protocol", "the checkpoint was saved in protocol phase " + std::to_string(phase + 1) +
                                        ", but this preset's protocol has " + std::to_string(phase_count()) +
                                        " phases");
  }
  for (int m : state.particles.material)
    if (static_cast<size_t>(m) >= document_.materials.size())
      throw PresetError("$.materials", "the checkpoint's particles use material index " + std::to_string(m) +
                                           " but this preset defines " + std::to_string(document_.materials.size()));
  const std::optional<Preset> saved_phase = running_preset(saved_with, phase);
  const bool same_parameters = model_parameters(running_preset(document_, phase)) == model_parameters(saved_phase);
  in_force_ = without_timeline(document_.protocol.empty() ? document_ : phase_presets_[static_cast<size_t>(phase)]);
  entry_phases_.clear();
  const Model model = make_model(in_force_);
  sim_ = Simulation::continue_saved(saved_phase ? make_model(*saved_phase) : model, std::move(state));
  if (!same_parameters) sim_.set_model(model);
}

std::string Session::phase_label() const {
  if (document_.protocol.empty()) return {};
  if (state().protocol_finished) return "protocol done";
  const int k = std::min(state().phase, phase_count() - 1);
  return std::to_string(k + 1) + "/" + std::to_string(phase_count()) + " " +
         document_.protocol[static_cast<size_t>(k)].name;
}

Preset Session::folded_document() const {
  return fold_applied_entries(document_, entry_phases_);
}

int Session::current_phase() const {
  return document_.protocol.empty() ? 0 : std::min(state().phase, phase_count() - 1);
}

void Session::stop(const std::string& message) {
  State& s = sim_.edit_state();
  s.health.ok = false;
  s.health.message = message;
}

void Session::apply_parameters(Preset next) {
  sim_.set_model(make_model(next));
  in_force_ = std::move(next);
  ++parameters_revision_;
}

void Session::apply_due_entries() {
  const std::vector<TimelineEntry>& timeline = document_.timeline;
  while (entry_phases_.size() < timeline.size() &&
         static_cast<std::int64_t>(timeline[entry_phases_.size()].step) <= state().step) {
    const size_t k = entry_phases_.size();
    try {
      apply_parameters(apply_changes(in_force_, timeline[k].set, "$.timeline[" + std::to_string(k) + "].set"));
    } catch (const PresetError& e) {
      stop("timeline entry " + std::to_string(k + 1) + " (step " + std::to_string(timeline[k].step) +
           ") cannot apply: " + e.what());
      return;
    }
    entry_phases_.push_back(current_phase());
  }
}

void Session::edit_parameters(const Preset& edited) {
  json run_set = json::object(), document_set = json::object();
  for (auto& [path, value] : parameter_changes(in_force_, edited))
    (is_document_path(path) ? document_set : run_set)[path] = std::move(value);
  if (run_set.empty() && document_set.empty()) return;
  const int phase = current_phase();
  const size_t index = entry_phases_.size();  // the new entry follows those applied

  // Everything is computed (and may throw) before anything changes.
  Preset next = in_force_;
  if (!run_set.empty()) {
    next = apply_changes(in_force_, run_set, "$.timeline[" + std::to_string(index) + "].set");
    // The later phases still apply on top of the edit.
    Preset later = next;
    for (int k = phase + 1; k < phase_count(); ++k)
      later = apply_changes(later, document_.protocol[static_cast<size_t>(k)].set,
                            "$.protocol[" + std::to_string(k) + "].set");
  }
  Preset document = document_;
  std::vector<Preset> phases;
  if (!document_set.empty()) {
    json doc = preset_to_json(document_), now = preset_to_json(next);
    for (auto it = document_set.begin(); it != document_set.end(); ++it) {
      set_json_path(doc, it.key(), it.value(), "$." + it.key());
      set_json_path(now, it.key(), it.value(), "$." + it.key());
    }
    document = preset_from_json(doc);
    next = preset_from_json(now);
    phases = phase_presets_of(document);
  }
  if (!run_set.empty()) sim_.set_model(make_model(next));  // throws, leaving the old model

  in_force_ = std::move(next);
  ++parameters_revision_;
  if (!document_set.empty()) {
    document_ = std::move(document);
    phase_presets_ = std::move(phases);
  }
  if (run_set.empty()) return;
  // Entries a stopped run did not reach by now would come out of order: the run never made them.
  std::vector<TimelineEntry>& timeline = document_.timeline;
  const std::int64_t now = state().step;
  timeline.erase(std::remove_if(timeline.begin() + static_cast<std::ptrdiff_t>(index), timeline.end(),
                                [now](const TimelineEntry& e) { return static_cast<std::int64_t>(e.step) < now; }),
                 timeline.end());
  TimelineEntry entry;
  entry.step = static_cast<std::uint64_t>(now);
  entry.set = std::move(run_set);
  timeline.insert(timeline.begin() + static_cast<std::ptrdiff_t>(index), std::move(entry));
  entry_phases_.push_back(phase);
}

void Session::step() {
  if (!state().health.ok) return;
  sim_.step();
  track_alignment();
  if (!document_.protocol.empty() && !state().protocol_finished && state().health.ok) advance_protocol();
  if (state().health.ok) apply_due_entries();  // between steps, where the app applies an edit
}

std::int64_t Session::run(std::int64_t steps) {
  std::int64_t done = 0;
  while (done < steps && state().health.ok) {
    step();
    ++done;
  }
  return done;
}

// tau_0.95 of [Erokhin-Berkov]: the first time in this phase at which <cos theta> of the easy axes with
// the field reaches 0.95 (only while a field is on).
void Session::track_alignment() {
  const State& s = state();
  if (s.alignment_time || uniform_field(model().field, s.time).squaredNorm() == 0.0) return;
  ProtocolPhase aligned;
  aligned.until = PhaseEnd::Aligned;
  aligned.threshold = kAlignmentThreshold;
  if (phase_condition_met(aligned, model(), s)) sim_.edit_state().alignment_time = s.time - s.phase_start_time;
}

void Session::start_phase(int phase) {
  State& s = sim_.edit_state();
  const ProtocolPhase& next = document_.protocol[static_cast<size_t>(phase)];
  s.phase = phase;
  s.phase_start_time = s.time;
  s.alignment_time.reset();
  s.overlaps_expected = next.until == PhaseEnd::NoOverlap;
  try {
    // With timeline entries in force, the phase's changes apply on top of them (later wins);
    // otherwise the phase's preset is the one validated up front.
    apply_parameters(entry_phases_.empty()
                         ? phase_presets_[static_cast<size_t>(phase)]
                         : apply_changes(in_force_, next.set, "$.protocol[" + std::to_string(phase) + "].set"));
  } catch (const PresetError& e) {
    stop("protocol phase " + std::to_string(phase + 1) + " '" + next.name + "' cannot start: " + e.what());
  }
}

void Session::advance_protocol() {
  const State& s = state();
  const ProtocolPhase& current = document_.protocol[static_cast<size_t>(s.phase)];
  const double elapsed = s.time - s.phase_start_time;
  if (elapsed < current.duration * (1.0 - 1e-12) && !phase_condition_met(current, model(), s)) return;
  if (s.phase + 1 >= phase_count()) {
    sim_.edit_state().protocol_finished = true;
    return;
  }
  start_phase(s.phase + 1);
}

}  // namespace lodestone
