#include "engine/session/session.hpp"

#include "engine/bodies/clumps.hpp"
#include "engine/bodies/generator.hpp"
#include "engine/bodies/touch.hpp"
#include "engine/magnetic/field.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/session/protocol.hpp"
#include "engine/step/model_preparation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace lodestone {

namespace {

std::vector<Preset> phase_presets_of(const Preset& preset) {
  std::vector<Preset> out;
  for (size_t k = 0; k < preset.protocol.size(); ++k) out.push_back(phase_preset(preset, static_cast<int>(k)));
  return out;
}

// Four significant digits, as a message shows a value.
std::string format_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", x);
  return text;
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
      if (!timeline[k].touch.empty()) {
        const std::string where = "$.timeline[" + std::to_string(k) + "].touch";
        apply_touch(read_touch(timeline[k].touch, where), where);
      } else {
        apply_parameters(apply_changes(in_force_, timeline[k].set, "$.timeline[" + std::to_string(k) + "].set"));
      }
    } catch (const PresetError& e) {
      stop("timeline entry " + std::to_string(k + 1) + " (step " + std::to_string(timeline[k].step) +
           ") cannot apply: " + e.what());
      return;
    }
    entry_phases_.push_back(current_phase());
  }
}

void Session::edit_parameters(const Preset& edited) {
  if (!state().health.ok && history_) go_back_to_good_state();
  if (std::optional<EditRecord> record = change(edited)) undo_.record(std::move(*record));
}

std::optional<std::string> Session::go_back_to_good_state() {
  // In place of the edit that likely caused the failure, if the history still reaches before it...
  if (last_entry_likely_cause()) {
    try {
      return go_back_before_last_edit();
    } catch (const PresetError&) {
    }
  }
  // ... or else from the last good state.
  if (const SessionPoint* good = history_->at_or_before(state().step)) {
    restore_point(*good);
    apply_due_entries();
  }
  return std::nullopt;
}

std::optional<EditRecord> Session::change(const Preset& edited) {
  json run_set = json::object(), document_set = json::object();
  for (auto& [path, value] : parameter_changes(in_force_, edited))
    (is_document_path(path) ? document_set : run_set)[path] = std::move(value);
  if (run_set.empty() && document_set.empty()) return std::nullopt;
  const int phase = current_phase();
  const size_t index = entry_phases_.size();  // the new entry follows those applied

  // Everything is computed (and may throw) before anything changes.
  EditRecord record;
  record.step = state().step;
  record.after = run_set;
  record.after.update(document_set);
  json old_values = preset_to_json(in_force_);
  record.before = json::object();
  for (auto it = record.after.begin(); it != record.after.end(); ++it)
    record.before[it.key()] = json_at_path(old_values, it.key(), "$");
  record.description = describe_changes(record.before, record.after);
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
  if (!run_set.empty()) {
    record.before_point = std::make_shared<const SessionPoint>(point());
    sim_.set_model(make_model(next));  // throws, leaving the old model
  }

  start_branch_here();
  in_force_ = std::move(next);
  ++parameters_revision_;
  if (!document_set.empty()) {
    document_ = std::move(document);
    phase_presets_ = std::move(phases);
  }
  if (run_set.empty()) return record;
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
  record.timeline_entry = index;
  return record;
}

void Session::step() {
  if (!state().health.ok) return;
  sim_.step();
  track_alignment();
  if (!document_.protocol.empty() && !state().protocol_finished && state().health.ok) advance_protocol();
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
  const TimelineEntry& entry = document_.timeline[k];
  std::string what;
  const EditRecord* edit = undo_.next_undo();
  if (edit && edit->timeline_entry == k)
    what = edit->description;
  else if (!entry.touch.empty())
    what = describe_touch(read_touch(entry.touch, "$.timeline"));
  else
    for (auto it = entry.set.begin(); it != entry.set.end(); ++it)
      what += (what.empty() ? "" : "; ") + it.key() + " = " + it.value().dump();
  sim_.edit_state().health.message += " Most likely cause: the edit at step " + std::to_string(entry.step) + " (" +
                                      what + "); undo it or go back to before it.";
}

SessionPoint Session::point() const {
  return SessionPoint{state(), in_force_, entry_phases_};
}

void Session::restore_point(const SessionPoint& p) {
  const int threads = sim_.threads();
  in_force_ = p.in_force;
  entry_phases_ = p.entry_phases;
  sim_ = Simulation::continue_saved(make_model(in_force_), p.state);
  sim_.set_threads(threads);
  ++parameters_revision_;
}

void Session::start_branch_here() {
  const std::int64_t now = state().step;
  if (now >= head_step_) return;
  if (history_) history_->drop_after(now);
  // The entries of the old future that the run had reached; those it never reached stay (a loaded
  // session's later edits).
  std::vector<TimelineEntry>& timeline = document_.timeline;
  const std::int64_t head = head_step_;
  timeline.erase(std::remove_if(timeline.begin() + static_cast<std::ptrdiff_t>(entry_phases_.size()), timeline.end(),
                                [head](const TimelineEntry& e) { return static_cast<std::int64_t>(e.step) <= head; }),
                 timeline.end());
  undo_.drop_after(now);
  head_step_ = now;
}

void Session::enable_history(std::size_t budget_bytes) {
  if (!history_) {
    history_ = std::make_unique<History>(budget_bytes);
    if (state().health.ok) history_->keep(point());
  } else {
    history_->set_budget(budget_bytes);
  }
}

void Session::rewind(std::int64_t target) {
  if (!leave_for(target)) return;
  restore_point(*history_->at_or_before(target));
  apply_due_entries();  // an edit made at the kept step after the point was taken
  while (state().step < target && state().health.ok) step();
}

void Session::rewind_to_kept(std::int64_t target) {
  if (!leave_for(target)) return;
  const SessionPoint& kept = *history_->at_or_before(target);
  if (kept.step() == state().step && state().health.ok) return;
  restore_point(kept);
  apply_due_entries();
}

bool Session::leave_for(std::int64_t target) {
  if (!history_ || history_->empty()) throw PresetError("history", "this session keeps no history to rewind");
  const std::int64_t first = history_->first_step();
  const std::int64_t last = std::max(head_step_, history_->last_step());
  if (target < first || target > last)
    throw PresetError("history", "step " + std::to_string(target) + " is outside the kept history: allowed " +
                                     std::to_string(first) + " to " + std::to_string(last));
  // Leaving the newest state of the branch: keep it, so that jumping back to it is exact.
  if (state().health.ok && state().step == head_step_ && history_->last_step() < head_step_) history_->keep(point());
  return !(target == state().step && state().health.ok);
}

std::int64_t Session::go_back(double seconds) {
  if (!history_ || history_->empty()) throw PresetError("history", "this session keeps no history to go back in");
  if (!(seconds >= 0.0))
    throw PresetError("go back", std::to_string(seconds) + " s: allowed a span of simulated time of 0 s or more");
  const SessionPoint* kept = history_->at_or_before_time(state().time - seconds);
  if (!kept) kept = history_->at_or_before(history_->first_step());
  rewind_to_kept(kept->step());
  return state().step;
}

std::string Session::go_back_before_last_edit() {
  if (entry_phases_.empty())
    throw PresetError("timeline", "no edit was applied in this run: nothing to go back before");
  const size_t k = entry_phases_.size() - 1;
  std::string what;
  for (auto it = document_.timeline[k].set.begin(); it != document_.timeline[k].set.end(); ++it)
    what += (what.empty() ? "" : "; ") + it.key() + " = " + it.value().dump();
  if (!document_.timeline[k].touch.empty()) what = document_.timeline[k].touch.dump();
  // Its undo record, when it has one, moves to the redo side: it was undone.
  std::optional<EditRecord> undone;
  if (const EditRecord* edit = undo_.next_undo(); edit && edit->timeline_entry == k) {
    undone = *undo_.take_undo();
    undone->before_point.reset();
    what = undone->description;
  }
  go_back_before_entry(k);
  if (undone) undo_.push_redo(std::move(*undone));
  return what;
}

void Session::go_back_before_entry(size_t k) {
  if (!history_ || history_->empty()) throw PresetError("history", "this session keeps no history to go back in");
  const std::int64_t at = static_cast<std::int64_t>(document_.timeline[k].step);
  // The kept points from the entry's step on have it applied; the state at its step without it is
  // reached from an earlier point.
  const SessionPoint* before = history_->at_or_before(at - 1);
  if (!before) before = history_->at_or_before(at);  // the entry came at the very first step
  if (!before || before->entry_phases.size() > k)
    throw PresetError("history",
                      "the history no longer reaches back to before the change at step " + std::to_string(at));
  SessionPoint start = *before;
  // Entry k and those the run reached after it go; entries it never reached (a loaded session's later
  // edits) stay.
  document_.timeline.erase(document_.timeline.begin() + static_cast<std::ptrdiff_t>(k),
                           document_.timeline.begin() + static_cast<std::ptrdiff_t>(entry_phases_.size()));
  history_->drop_after(start.step());
  undo_.drop_after(at - 1);
  restore_point(start);
  apply_due_entries();
  while (state().step < at && state().health.ok) step();
  head_step_ = state().step;
}

Preset Session::with_values(const json& set) const {
  json document = preset_to_json(in_force_);
  for (auto it = set.begin(); it != set.end(); ++it) set_json_path(document, it.key(), it.value(), "$." + it.key());
  return preset_from_json(document);
}

std::optional<std::string> Session::undo() {
  const EditRecord* next = undo_.next_undo();
  if (!next) return std::nullopt;
  // A run stopped by a failed check: undoing the edit that caused it goes back to before it.
  if (!state().health.ok && history_) {
    if (std::optional<std::string> undone = go_back_to_good_state()) return undone;
    next = undo_.next_undo();
    if (!next) return std::nullopt;
  }
  if (next->step > state().step) {
    // Rewound to before it: the edit is in the future; undoing it means that future is not wanted.
    start_branch_here();
    next = undo_.next_undo();
    if (!next) return std::nullopt;
  }
  if (next->goes_back && !(next->before_point && next->step == state().step)) {
    // A pull cannot be taken back by an inverse action (the beads it moved moved others): undoing it goes
    // back to the moment it began, the run since dropped, as an edit after a rewind drops the old future.
    if (!history_)
      throw PresetError("undo", "'" + next->description + "' is undone by going back to before it, and this " +
                                    "session keeps no history");
    EditRecord edit = *undo_.take_undo();
    try {
      go_back_before_entry(*edit.timeline_entry);
    } catch (...) {
      undo_.push_undo(std::move(edit));
      throw;
    }
    return edit.description + " (went back to step " + std::to_string(edit.step) + ", before it)";
  }
  EditRecord edit = *undo_.take_undo();
  const bool exact = edit.before_point && edit.step == state().step && edit.timeline_entry &&
                     *edit.timeline_entry + 1 == entry_phases_.size() && state().health.ok;
  try {
    if (exact) {
      // Still at the edit's step: the run goes on as if it never happened.
      document_.timeline.erase(document_.timeline.begin() + static_cast<std::ptrdiff_t>(*edit.timeline_entry));
      if (history_) history_->drop_after(edit.step - 1);
      restore_point(*edit.before_point);
      if (history_) history_->keep(point());
      if (!edit.touch.empty()) {
        // A touch: nothing of the document to put back.
      } else {
        json document_values = json::object();
        for (auto it = edit.before.begin(); it != edit.before.end(); ++it)
          if (is_document_path(it.key())) document_values[it.key()] = it.value();
        if (!document_values.empty()) change(with_values(document_values));
      }
    } else if (!edit.touch.empty()) {
      if (edit.undo_touch.empty())
        throw PresetError("undo", "'" + edit.description + "' can only be undone at its own step " +
                                      std::to_string(edit.step) + "; rewind there first");
      touch(with_free_ids(read_touch(edit.undo_touch, "undo")), /*undoable=*/false);
    } else {
      change(with_values(edit.before));
    }
  } catch (...) {
    undo_.push_undo(std::move(edit));
    throw;
  }
  edit.before_point.reset();
  const std::string description = edit.description;
  undo_.push_redo(std::move(edit));
  return description;
}

std::optional<std::string> Session::redo() {
  std::optional<EditRecord> edit = undo_.take_redo();
  if (!edit) return std::nullopt;
  std::optional<EditRecord> again;
  try {
    if (!edit->touch.empty()) {
      again = touch(with_free_ids(read_touch(edit->touch, "redo")), /*undoable=*/true);
    } else {
      again = change(with_values(edit->after));
    }
  } catch (...) {
    undo_.push_redo(std::move(*edit));
    throw;
  }
  if (again) {
    again->description = edit->description;
    undo_.push_undo(std::move(*again));
  }
  return edit->description;
}

std::optional<std::string> Session::edit_warning(const Preset& edited) const {
  // The strongest laboratory magnets reach about 45 T; beyond 50 T a value is a slip of the keyboard.
  constexpr double kFieldSoftLimit = 50.0;  // [T]
  // A time step falling this much makes the run this many times slower.
  constexpr double kTimeStepCollapse = 30.0;
  std::vector<std::string> warnings;
  const double strength = std::max(std::abs(edited.field.strength), std::abs(edited.field.start_strength));
  const double before = std::max(std::abs(in_force_.field.strength), std::abs(in_force_.field.start_strength));
  if (strength > kFieldSoftLimit && strength != before)
    warnings.push_back("a field of " + format_number(strength) +
                       " T is far beyond the strongest laboratory magnets (about 45 T)");
  try {
    Model candidate = make_model(edited);
    prepare_model(candidate, state().particles);
    const double now = model().time_step, then = candidate.time_step;
    if (then < now / kTimeStepCollapse)
      warnings.push_back("the time step falls from " + format_number(now) + " s to " + format_number(then) +
                         " s (limited by " + candidate.advice.limited_by + "): the run goes " +
                         format_number(now / then) + " times slower");
    if (candidate.integrator.time_step && candidate.advice.suggested < *candidate.integrator.time_step / 3.0 &&
        !(model().integrator.time_step && model().advice.suggested < *model().integrator.time_step / 3.0))
      warnings.push_back("the fixed time step " + format_number(*candidate.integrator.time_step) +
                         " s is far above the stable one, " + format_number(candidate.advice.suggested) +
                         " s (limited by " + candidate.advice.limited_by + "): the run will most likely blow up");
  } catch (const PresetError&) {
    // Cannot apply at all: edit_parameters says why.
  }
  if (warnings.empty()) return std::nullopt;
  std::string text;
  for (const std::string& w : warnings) text += (text.empty() ? "" : "; ") + w;
  return text;
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

// [SECTION] Hands on the particles (engine/bodies/touch.hpp)

namespace {

std::string millimetre_text(double metres) {
  return format_number(1e3 * metres) + " mm";
}

std::string point_text(const Vec3& x) {
  return "(" + format_number(1e3 * x.x()) + ", " + format_number(1e3 * x.y()) + ", " + format_number(1e3 * x.z()) +
         ") mm";
}

std::string material_names(const std::vector<Material>& materials) {
  std::string out;
  for (const Material& m : materials) out += (out.empty() ? "" : ", ") + m.name;
  return out;
}

}  // namespace

std::uint64_t Session::next_particle_id() const {
  std::uint64_t next = id_floor_;
  for (std::uint64_t id : state().particles.id) next = std::max(next, id + 1);
  // Adds of a loaded session still to come keep their ids.
  for (const TimelineEntry& e : document_.timeline) {
    if (e.touch.contains("add") && e.touch["add"].contains("id") && e.touch["add"]["id"].is_number_unsigned())
      next = std::max(next, e.touch["add"]["id"].get<std::uint64_t>() + 1);
    if (e.touch.contains("add_clump")) {
      const TouchAction a = read_touch(e.touch, "$.timeline");
      next = std::max(next, a.id + clump_spheres(in_force_, a.clump).size());
    }
  }
  return next;
}

std::string Session::apply_touch(const TouchAction& a, const std::string& where) {
  const Particles& p = state().particles;
  // A sphere at x of radius r must lie inside the box (under the lid) and touch no other particle.
  auto check_place = [&](const Vec3& x, double r, const std::string& at) {
    if (const int axis = in_force_.box.axis_outside(x, r); axis >= 0)
      throw PresetError(at, "a sphere of radius " + millimetre_text(r) + " at " + point_text(x) +
                                " is not inside the box along " + "xyz"[axis] + ": its centre must lie from " +
                                millimetre_text(in_force_.box.min[axis] + r) + " to " +
                                millimetre_text(in_force_.box.max[axis] - r));
    if (state().lid_placed && x.z() + r > state().lid_height)
      throw PresetError(at, "a sphere of radius " + millimetre_text(r) + " at " + point_text(x) +
                                " would be above the lid (at z = " + millimetre_text(state().lid_height) + ")");
    if (const long j = first_overlap(model(), p, x, r, kAddOverlapTolerance); j >= 0) {
      const auto k = static_cast<size_t>(j);
      throw PresetError(at, "a sphere of radius " + millimetre_text(r) + " at " + point_text(x) +
                                " would overlap particle " + std::to_string(p.id[k]) + " (centres " +
                                millimetre_text(minimum_image(model(), x - p.position[k]).norm()) + " apart, radii " +
                                millimetre_text(r + p.radius[k]) + "); choose another point or a smaller radius");
    }
  };
  auto check_material = [&](const std::string& name, const std::string& at) {
    if (material_index(in_force_.materials, name) < 0)
      throw PresetError(at, "no material named '" + name + "'; materials: " + material_names(in_force_.materials));
  };
  auto check_free = [&](std::uint64_t first, size_t count, const std::string& at) {
    for (std::uint64_t id : p.id)
      if (id >= first && id < first + count)
        throw PresetError(at, "particle id " + std::to_string(id) + " is in use; the next free id is " +
                                  std::to_string(next_particle_id()));
  };
  auto no_such = [&](std::uint64_t id, const std::string& at) {
    return PresetError(
        at, "no particle has id " + std::to_string(id) + " (the scene has " + std::to_string(p.size()) + " particles)");
  };
  State& s = sim_.edit_state();
  switch (a.kind) {
    case TouchKind::Drag: {
      const long i = index_of_id(p, a.id);
      if (i < 0) throw no_such(a.id, where + ".drag.id");
      if (s.drag.active && s.drag.particle_id != a.id)
        throw PresetError(where + ".drag.id", "particle " + std::to_string(s.drag.particle_id) +
                                                  " is being dragged; release it before taking particle " +
                                                  std::to_string(a.id));
      if (!s.drag.active) {
        const Vec3 pending = s.drag.particle_id == a.id ? s.drag.force : Vec3::Zero();  // released at this step
        s.drag = DragSpring{};
        s.drag.force = pending;
        s.drag.active = true;
        s.drag.particle_id = a.id;
        s.drag.anchor = p.position[static_cast<size_t>(i)];
      }
      s.drag.target = a.target;
      s.drag.stiffness = a.stiffness;
      s.drag.damping = a.damping;
      return describe_touch(a);
    }
    case TouchKind::Release: {
      if (!s.drag.active) throw PresetError(where + ".release", "no drag is active: nothing to release");
      s.drag.active = false;  // its last force is booked by the next force pass (engine/bodies/touch.cpp)
      return "released particle " + std::to_string(s.drag.particle_id);
    }
    case TouchKind::Add: {
      const std::string at = where + ".add";
      check_free(a.id, 1, at + ".id");
      check_material(a.particle.material.empty() ? in_force_.particles.material : a.particle.material,
                     at + ".material");
      check_place(a.particle.position, a.particle.radius, at + ".position");
      const size_t n = p.size();
      add_particle_entry(in_force_, a.particle, a.id, s.particles);
      for (std::vector<Vec3>* per_particle : {&s.damping_force, &s.damping_torque})
        if (per_particle->size() == n) per_particle->push_back(Vec3::Zero());
      id_floor_ = std::max(id_floor_, a.id + 1);
      sim_.reinitialize();
      return describe_touch(a);
    }
    case TouchKind::AddClump: {
      const std::string at = where + ".add_clump";
      if (model().integrator.scheme == IntegratorScheme::OverdampedHeun)
        throw PresetError(at, "clumps move only under velocity Verlet; this scene runs the overdamped scheme");
      const std::string& clump_material = a.clump.material.empty() ? in_force_.particles.material : a.clump.material;
      check_material(clump_material, at + ".material");
      for (size_t k = 0; k < a.clump.pebbles.size(); ++k)
        if (!a.clump.pebbles[k].material.empty())
          check_material(a.clump.pebbles[k].material, at + ".pebbles[" + std::to_string(k) + "].material");
      if (a.clump.shape == ClumpShape::List && a.clump.pebbles.empty())
        throw PresetError(at + ".pebbles", "a list clump needs at least one pebble");
      const std::vector<std::pair<Vec3, double>> spheres = clump_spheres(in_force_, a.clump);
      check_free(a.id, spheres.size(), at + ".first_id");
      for (const auto& [x, r] : spheres) check_place(x, r, at + ".position");
      const size_t n = p.size();
      lodestone::add_clump(in_force_, a.clump, a.id, s);
      for (std::vector<Vec3>* per_particle : {&s.damping_force, &s.damping_torque})
        if (per_particle->size() == n) per_particle->resize(p.size(), Vec3::Zero());
      id_floor_ = std::max(id_floor_, a.id + spheres.size());
      sim_.reinitialize();
      return describe_touch(a);
    }
    case TouchKind::Delete: {
      const long i = index_of_id(p, a.id);
      if (i < 0) throw no_such(a.id, where + ".delete.id");
      const int clump = p.clump[static_cast<size_t>(i)];
      const auto going = clump < 0 ? size_t{1} : static_cast<size_t>(std::count(p.clump.begin(), p.clump.end(), clump));
      if (going == p.size())
        throw PresetError(
            where + ".delete.id",
            "particle " + std::to_string(a.id) + " is all that is left of the scene; a scene keeps one body at least");
      const Removal removal = remove_body(s, a.id);
      for (std::uint64_t id : removal.ids) id_floor_ = std::max(id_floor_, id + 1);
      sim_.reinitialize();
      std::string text = removal.clump ? "deleted the clump of particle " + std::to_string(a.id) + " (" +
                                             std::to_string(removal.ids.size()) + " pebbles)"
                                       : "deleted particle " + std::to_string(a.id);
      if (removal.broken_bonds > 0)
        text +=
            ": " + std::to_string(removal.broken_bonds) + (removal.broken_bonds == 1 ? " bond" : " bonds") + " broken";
      return text;
    }
  }
  return {};
}

std::optional<TouchAction> Session::inverse_of(const TouchAction& a) const {
  TouchAction out;
  switch (a.kind) {
    case TouchKind::Drag:
    case TouchKind::Release: return std::nullopt;
    case TouchKind::Add:
    case TouchKind::AddClump:
      out.kind = TouchKind::Delete;
      out.id = a.id;
      return out;
    case TouchKind::Delete: break;
  }
  const Particles& p = state().particles;
  const long found = index_of_id(p, a.id);
  if (found < 0) return std::nullopt;
  const auto i = static_cast<size_t>(found);
  const int clump = p.clump[i];
  auto material_name = [&](size_t k) { return in_force_.materials[static_cast<size_t>(p.material[k])].name; };
  if (clump < 0) {  // the particle as it is now
    out.kind = TouchKind::Add;
    out.id = a.id;
    out.particle.position = p.position[i];
    out.particle.radius = p.radius[i];
    out.particle.velocity = p.velocity[i];
    out.particle.angular_velocity = p.angular_velocity[i];
    out.particle.axis = p.easy_axis(i).normalized();
    out.particle.material = material_name(i);
    out.particle.moment = p.moment_body[i].norm();
    return out;
  }
  // The clump as it is now: its pebbles as a list around its centre of mass, in the world frame.
  const Clumps& c = state().clumps;
  const auto k = static_cast<size_t>(clump);
  out.kind = TouchKind::AddClump;
  out.id = std::numeric_limits<std::uint64_t>::max();
  out.clump.shape = ClumpShape::List;
  out.clump.position = c.position[k];
  out.clump.axis = Vec3::UnitZ();
  out.clump.velocity = c.velocity[k];
  out.clump.angular_velocity = c.angular_velocity(k);
  out.clump.material = material_name(i);
  for (size_t j = 0; j < p.size(); ++j) {
    if (p.clump[j] != clump) continue;
    out.id = std::min(out.id, p.id[j]);
    ClumpPebble b;
    b.offset = minimum_image(model(), p.position[j] - c.position[k]);
    b.radius = p.radius[j];
    b.axis = p.easy_axis(j).normalized();
    b.material = material_name(j);
    b.moment = p.moment_body[j].norm();
    out.clump.pebbles.push_back(b);
  }
  return out;
}

TouchAction Session::with_free_ids(TouchAction a) const {
  if (a.kind != TouchKind::Add && a.kind != TouchKind::AddClump) return a;
  const std::uint64_t count = a.kind == TouchKind::Add ? 1 : clump_spheres(in_force_, a.clump).size();
  for (std::uint64_t id : state().particles.id)
    if (id >= a.id && id < a.id + count) {
      a.id = next_particle_id();
      break;
    }
  return a;
}

std::optional<EditRecord> Session::touch(const TouchAction& action, bool undoable) {
  // A run stopped by a failed check goes on from its last good state, with the touch (deleting the
  // particle that blew up is a fix).
  if (!state().health.ok && history_ && history_->at_or_before(state().step)) {
    restore_point(*history_->at_or_before(state().step));
    apply_due_entries();
  }
  std::optional<EditRecord> record;
  std::optional<TouchAction> inverse;
  if (undoable) {
    record.emplace();
    record->before_point = std::make_shared<const SessionPoint>(point());
    inverse = inverse_of(action);
  }
  const std::string description = apply_touch(action, "touch");  // throws, changing nothing
  start_branch_here();
  const std::int64_t now = state().step;
  std::vector<TimelineEntry>& timeline = document_.timeline;
  const size_t index = entry_phases_.size();
  const json written = write_touch(action);
  // A moving drag makes one entry per step: the last target at a step is the one the step sees.
  const bool merge = action.kind == TouchKind::Drag && index > 0 &&
                     static_cast<std::int64_t>(timeline[index - 1].step) == now &&
                     timeline[index - 1].touch.contains("drag") &&
                     timeline[index - 1].touch["drag"].value("id", json(-1)) == written["drag"]["id"];
  if (merge) {
    timeline[index - 1].touch = written;
  } else {
    // Entries a stopped run did not reach by now would come out of order: the run never made them.
    timeline.erase(std::remove_if(timeline.begin() + static_cast<std::ptrdiff_t>(index), timeline.end(),
                                  [now](const TimelineEntry& e) { return static_cast<std::int64_t>(e.step) < now; }),
                   timeline.end());
    TimelineEntry entry;
    entry.step = static_cast<std::uint64_t>(now);
    entry.touch = written;
    timeline.insert(timeline.begin() + static_cast<std::ptrdiff_t>(index), std::move(entry));
    entry_phases_.push_back(current_phase());
  }
  if (!record) return std::nullopt;
  record->description = description;
  record->step = now;
  record->touch = written;
  record->timeline_entry = merge ? index - 1 : index;
  if (inverse) record->undo_touch = write_touch(*inverse);
  return record;
}

std::string Session::drag(std::uint64_t particle_id, const Vec3& target, double relative_stiffness) {
  if (!(relative_stiffness >= kDragMinScale && relative_stiffness <= kDragMaxScale))
    throw PresetError("drag.stiffness", "relative stiffness " + format_number(relative_stiffness) +
                                            " is out of the allowed range [" + format_number(kDragMinScale) + ", " +
                                            format_number(kDragMaxScale) + "] (1: the default feel)");
  if (!target.allFinite()) throw PresetError("drag.target", "the target must be a finite point");
  const long i = index_of_id(state().particles, particle_id);
  if (i < 0)
    throw PresetError("drag.id", "no particle has id " + std::to_string(particle_id) + " (the scene has " +
                                     std::to_string(state().particles.size()) + " particles)");
  const DragConstants k = drag_constants(model(), state(), static_cast<size_t>(i), relative_stiffness);
  TouchAction a;
  a.kind = TouchKind::Drag;
  a.id = particle_id;
  a.target = target;
  a.stiffness = k.stiffness;
  a.damping = k.damping;
  // The grab is the pull's one undo record (the moves and the release are not): undone, the run goes back
  // to before it.
  const bool grab = !state().drag.active;
  std::optional<EditRecord> record = touch(a, /*undoable=*/grab);
  if (record) {
    record->description = "pull of particle " + std::to_string(particle_id);
    record->goes_back = true;
    undo_.record(std::move(*record));
  }
  return describe_touch(a);
}

std::string Session::release() {
  TouchAction a;
  a.kind = TouchKind::Release;
  const std::string id = std::to_string(state().drag.particle_id);
  touch(a, /*undoable=*/false);
  return "released particle " + id;
}

std::string Session::add_particle(const ParticleEntry& entry) {
  TouchAction a;
  a.kind = TouchKind::Add;
  a.id = next_particle_id();
  a.particle = entry;
  std::optional<EditRecord> record = touch(a, /*undoable=*/true);
  const std::string description = record->description;
  undo_.record(std::move(*record));
  return description;
}

std::string Session::add_copy(std::uint64_t of_id, const Vec3& position) {
  const Particles& p = state().particles;
  const long found = index_of_id(p, of_id);
  if (found < 0)
    throw PresetError("add.copy", "no particle has id " + std::to_string(of_id) + " (the scene has " +
                                      std::to_string(p.size()) + " particles)");
  const auto i = static_cast<size_t>(found);
  ParticleEntry e;
  e.position = position;
  e.radius = p.radius[i];
  e.axis = p.easy_axis(i).normalized();
  e.material = in_force_.materials[static_cast<size_t>(p.material[i])].name;
  e.moment = p.moment_body[i].norm();
  return add_particle(e);
}

std::string Session::add_clump(const ClumpEntry& entry) {
  TouchAction a;
  a.kind = TouchKind::AddClump;
  a.id = next_particle_id();
  a.clump = entry;
  std::optional<EditRecord> record = touch(a, /*undoable=*/true);
  const std::string description = record->description;
  undo_.record(std::move(*record));
  return description;
}

std::string Session::delete_body(std::uint64_t particle_id) {
  TouchAction a;
  a.kind = TouchKind::Delete;
  a.id = particle_id;
  std::optional<EditRecord> record = touch(a, /*undoable=*/true);
  const std::string description = record->description;
  undo_.record(std::move(*record));
  return description;
}

}  // namespace lodestone
