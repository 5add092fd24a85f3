// Session: the scene document being run, its protocol phases and timeline entries, and the step (the
// edits: session_edits.cpp; the history: session_history.cpp; hands on the particles: session_touch.cpp).

#include "engine/session/session.hpp"

#include "engine/bodies/clumps.hpp"
#include "engine/bodies/generator.hpp"
#include "engine/bodies/touch.hpp"
#include "engine/magnetic/field.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/session/protocol.hpp"
#include "engine/session/session_parts.hpp"
#include "engine/step/model_preparation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace lodestone {

namespace session_detail {

// The parameters a document runs with: without its timeline (applied as the run goes) and without the generator's
// list of particles, which only the document keeps (the particles are in the state; an edit, a phase and a history
// point copy parameters, and a scene of 20 000 listed particles would make each copy milliseconds).
Preset parameters_of(const Preset& document) {
  Preset out = document;
  out.timeline.clear();
  out.particles.particles.clear();
  return out;
}

std::vector<Preset> phase_presets_of(const Preset& preset) {
  const Preset base = parameters_of(preset);
  std::vector<Preset> out;
  for (size_t k = 0; k < preset.protocol.size(); ++k) out.push_back(phase_preset(base, static_cast<int>(k)));
  return out;
}

// Four significant digits, as a message shows a value.
std::string format_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", x);
  return text;
}

}  // namespace session_detail

using namespace session_detail;

namespace {

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
    in_force_ = phase_presets_.empty() ? parameters_of(preset) : phase_presets_.front();
    sim_ = Simulation(make_model(in_force_), generated_state(preset));
  }
  if (state().health.ok) apply_due_entries();
}

Session::Session(const Preset& document, const SessionPoint& point)
    : document_(document), phase_presets_(phase_presets_of(document)) {
  if (point.entry_phases.size() > document_.timeline.size())
    throw PresetError("$.timeline", "the saved point has " + std::to_string(point.entry_phases.size()) +
                                        " timeline entries applied, but the document's timeline has " +
                                        std::to_string(document_.timeline.size()));
  if (!document_.protocol.empty() && point.state.phase >= phase_count())
    throw PresetError("$.protocol", "the saved point is in protocol phase " + std::to_string(point.state.phase + 1) +
                                        ", but the document's protocol has " + std::to_string(phase_count()) +
                                        " phases");
  for (int m : point.state.particles.material)
    if (m < 0 || static_cast<size_t>(m) >= point.in_force.materials.size())
      throw PresetError("$.materials", "the saved particles use material index " + std::to_string(m) +
                                           " but the parameters in force define " +
                                           std::to_string(point.in_force.materials.size()));
  restore_point(point);
  head_step_ = state().step;
  // As after a rewind to a kept point: an entry recorded at this very step after the point was taken.
  if (state().health.ok) apply_due_entries();
}

Session::~Session() = default;
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;

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
  in_force_ = document_.protocol.empty() ? parameters_of(document_) : phase_presets_[static_cast<size_t>(phase)];
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

void Session::apply_parameters(Preset next, Simulation::ModelRefresh refresh) {
  sim_.set_model(make_model(next), refresh);
  in_force_ = std::move(next);
  ++parameters_revision_;
}

void Session::apply_due_entries() {
  const std::vector<TimelineEntry>& timeline = document_.timeline;
  while (entry_phases_.size() < timeline.size() &&
         static_cast<std::int64_t>(timeline[entry_phases_.size()].step) <= state().step) {
    const size_t k = entry_phases_.size();
    try {
      if (!timeline[k].touch.empty()) {
        const std::string where = "$.timeline[" + std::to_string(k) + "].touch";
        apply_touch(read_touch(timeline[k].touch, where), where);
      } else {
        apply_parameters(apply_changes(in_force_, timeline[k].set, "$.timeline[" + std::to_string(k) + "].set"),
                         Simulation::ModelRefresh::Deferred);
      }
    } catch (const PresetError& e) {
      stop("timeline entry " + std::to_string(k + 1) + " (step " + std::to_string(timeline[k].step) +
           ") cannot apply: " + e.what());
      return;
    }
    entry_phases_.push_back(current_phase());
  }
}

void Session::step() {
  if (!state().health.ok) return;
  sim_.step();
  sim_.run_after_step([this](ThreadTeam& team) {
    track_alignment(team);
    if (!document_.protocol.empty() && !state().protocol_finished && state().health.ok) advance_protocol(team);
  });
  if (state().health.ok) apply_due_entries();  // between steps, where the app applies an edit
  if (!state().health.ok) {
    name_likely_cause();
    return;
  }
  head_step_ = std::max(head_step_, state().step);
  undo_.release_points_before(state().step);
  if (history_ && history_->due(state().step)) {
    history_->make_room_for(state());
    history_->keep(point());
  }
}

std::int64_t Session::run(std::int64_t steps) {
  std::int64_t done = 0;
  while (done < steps && state().health.ok) {
    step();
    ++done;
  }
  return done;
}

bool Session::last_entry_likely_cause() const {
  // Within this many steps of an edit, a failure is most likely the edit's doing.
  constexpr std::int64_t kBlameWindow = 2000;
  if (entry_phases_.empty()) return false;
  const TimelineEntry& entry = document_.timeline[entry_phases_.size() - 1];
  return state().step - static_cast<std::int64_t>(entry.step) <= kBlameWindow;
}

void Session::name_likely_cause() {
  if (!last_entry_likely_cause()) return;
  const size_t k = entry_phases_.size() - 1;
  sim_.edit_state().health.message += " Most likely cause: the edit at step " +
                                      std::to_string(document_.timeline[k].step) + " (" + entry_description(k) +
                                      "); undo it or go back to before it.";
}

// tau_0.95 of [Erokhin-Berkov]: the first time in this phase at which <cos theta> of the easy axes with
// the field reaches 0.95 (only while a field is on).
void Session::track_alignment(ThreadTeam& team) {
  const State& s = state();
  if (s.alignment_time || uniform_field(model().field, s.time).squaredNorm() == 0.0) return;
  ProtocolPhase aligned;
  aligned.until = PhaseEnd::Aligned;
  aligned.threshold = kAlignmentThreshold;
  if (phase_condition_met(aligned, model(), s, team)) sim_.edit_state().alignment_time = s.time - s.phase_start_time;
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
                         : apply_changes(in_force_, next.set, "$.protocol[" + std::to_string(phase) + "].set"),
                     Simulation::ModelRefresh::Now);
  } catch (const PresetError& e) {
    stop("protocol phase " + std::to_string(phase + 1) + " '" + next.name + "' cannot start: " + e.what());
  }
}

void Session::advance_protocol(ThreadTeam& team) {
  const State& s = state();
  const ProtocolPhase& current = document_.protocol[static_cast<size_t>(s.phase)];
  // A waiting phase ends only at a go: always where the session holds it, else when the timeline has one to come.
  if (!current.wait.empty() && (hold_waiting_phases_ || go_pending())) return;
  const double elapsed = s.time - s.phase_start_time;
  if (elapsed < current.duration * (1.0 - 1e-12) && !phase_condition_met(current, model(), s, team)) return;
  if (s.phase + 1 >= phase_count()) {
    sim_.edit_state().protocol_finished = true;
    return;
  }
  start_phase(s.phase + 1);
}

}  // namespace lodestone
