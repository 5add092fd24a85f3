// Session: edits of the parameters in force (engine/scene/preset_edits.hpp), recorded in the timeline, and their
// undo and redo (engine/session/undo.hpp).

#include "engine/scene/preset_edits.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/scene/unit_values.hpp"
#include "engine/session/session.hpp"
#include "engine/session/session_parts.hpp"
#include "engine/step/model_preparation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace lodestone {

using session_detail::format_number;
using session_detail::phase_presets_of;

namespace {

// The generator's list of particles is the document's alone (session_detail::parameters_of).
bool is_generator_list_path(const std::string& path) {
  return path.rfind("particles.particles", 0) == 0;
}

}  // namespace

void Session::apply(const std::vector<ParameterChange>& changes) {
  if (!state().health.ok && history_) go_back_to_good_state();
  if (std::optional<EditRecord> record = change(prepare_edit(changes))) undo_.record(std::move(*record));
}

void Session::apply_prepared(PreparedEdit edit) {
  if (!state().health.ok && history_) go_back_to_good_state();
  if (edit.prepared_at != parameters_revision_ || edit.step != state().step) edit = prepare_edit(edit.changes);
  if (std::optional<EditRecord> record = change(std::move(edit))) undo_.record(std::move(*record));
}

void Session::edit_parameters(const Preset& edited) {
  apply(parameter_changes(in_force_, edited));
}

std::vector<ParameterChange> Session::changes_made_by(const std::vector<ParameterChange>& changes, json* before) const {
  // The generator's list is the document's alone (parameters_of).
  std::vector<ParameterChange> in_force, listed;
  for (const ParameterChange& c : changes) (is_generator_list_path(c.path) ? listed : in_force).push_back(c);
  std::vector<ParameterChange> made = changes_made(in_force_, in_force, "$", before);
  for (ParameterChange& c : changes_made(document_, listed, "$", before)) made.push_back(std::move(c));
  return made;
}

json Session::value_at(const std::string& path) const {
  return lodestone::value_at(is_generator_list_path(path) ? document_ : in_force_, path, "$");
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

void Session::back_to_before(const EditRecord& edit) {
  document_.timeline.erase(document_.timeline.begin() + static_cast<std::ptrdiff_t>(*edit.timeline_entry));
  if (history_) history_->drop_with_entry(edit.step, *edit.timeline_entry);
  restore_point(*edit.before_point);
  if (history_) history_->keep(point());
}

PreparedEdit Session::prepare_edit(const std::vector<ParameterChange>& changes) const {
  PreparedEdit edit;
  edit.changes = changes;
  edit.prepared_at = parameters_revision_;
  edit.step = state().step;
  json before = json::object(), document_set = json::object();
  for (ParameterChange& c : changes_made_by(changes, &before))
    (is_document_path(c.path) ? document_set : edit.run_set)[c.path] = std::move(c.value);
  EditRecord& record = edit.record;
  record.step = state().step;
  record.after = edit.run_set;
  record.after.update(document_set);
  if (edit.changes_nothing()) return edit;
  record.before = json::object();
  for (auto it = record.after.begin(); it != record.after.end(); ++it) record.before[it.key()] = before[it.key()];
  // The notice speaks the unit each value was typed in ("0.2 kOe"), else the panels' unit (issue 39).
  std::map<std::string, std::string> typed;
  for (const ParameterChange& c : changes) typed[c.path] = typed_unit_of(c.value);
  record.description =
      describe_changes(record.before, record.after, [this, &typed](const std::string& path, const json& v) {
        return value_as_shown(path, v, in_force_.units, typed.count(path) ? typed.at(path) : std::string());
      });
  edit.next = in_force_;
  if (!edit.run_set.empty()) {
    const size_t index = entry_phases_.size();  // the new entry follows those applied
    edit.next = apply_changes(in_force_, edit.run_set, "$.timeline[" + std::to_string(index) + "].set");
    // The later phases still apply on top of the edit.
    Preset later = edit.next;
    for (int k = current_phase() + 1; k < phase_count(); ++k)
      later = apply_changes(later, document_.protocol[static_cast<size_t>(k)].set,
                            "$.protocol[" + std::to_string(k) + "].set");
  }
  if (!document_set.empty()) {  // only a document path copies the document (and its particle list)
    edit.document = apply_document_changes(document_, document_set, "$");
    json parameters_set = json::object();  // the generator's list lives in the document only (parameters_of)
    for (auto it = document_set.begin(); it != document_set.end(); ++it)
      if (!is_generator_list_path(it.key())) parameters_set[it.key()] = it.value();
    edit.next = apply_document_changes(edit.next, parameters_set, "$");
    edit.phases = phase_presets_of(*edit.document);
  }
  if (!edit.run_set.empty()) edit.model = make_model(edit.next);
  return edit;
}

std::optional<EditRecord> Session::change(PreparedEdit edit) {
  if (edit.changes_nothing()) return std::nullopt;
  EditRecord record = std::move(edit.record);
  const int phase = current_phase();
  const size_t index = entry_phases_.size();
  if (edit.model) {
    // An undo while still at this step goes back exactly. An edit that changes only the model (the usual one)
    // leaves the state for the next step to bring up to date: undone before that step, the old model is put
    // back. Otherwise through the kept history when there is one (go_back_before_entry steps to here again
    // without the edit), else from a copy of the session now.
    if (sim_.defers(*edit.model))
      record.before_model = std::make_shared<const ModelPoint>(
          ModelPoint{sim_.model(), state().model_change_pending, in_force_, entry_phases_});
    else if (!history_)
      record.before_point = std::make_shared<const SessionPoint>(point());
    // Replayed from the timeline the same way (apply_due_entries).
    sim_.set_model(*edit.model, Simulation::ModelRefresh::Deferred);  // throws, leaving the old model
  }

  start_branch_here();
  in_force_ = std::move(edit.next);
  ++parameters_revision_;
  if (edit.document) {
    document_ = std::move(*edit.document);
    phase_presets_ = std::move(edit.phases);
  }
  if (edit.run_set.empty()) return record;
  // Entries a stopped run did not reach by now would come out of order: the run never made them.
  std::vector<TimelineEntry>& timeline = document_.timeline;
  const std::int64_t now = state().step;
  timeline.erase(std::remove_if(timeline.begin() + static_cast<std::ptrdiff_t>(index), timeline.end(),
                                [now](const TimelineEntry& e) { return static_cast<std::int64_t>(e.step) < now; }),
                 timeline.end());
  TimelineEntry entry;
  entry.step = static_cast<std::uint64_t>(now);
  entry.set = std::move(edit.run_set);
  timeline.insert(timeline.begin() + static_cast<std::ptrdiff_t>(index), std::move(entry));
  entry_phases_.push_back(phase);
  record.timeline_entry = index;
  return record;
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
  const bool at_its_step = edit.step == state().step && edit.timeline_entry &&
                           *edit.timeline_entry + 1 == entry_phases_.size() && state().health.ok;
  try {
    // The state still waits for the model the edit brought (Simulation::ModelRefresh::Deferred).
    const bool model_only = at_its_step && edit.before_model && state().model_change_pending;
    if (model_only || (at_its_step && (edit.before_point || reaches_before(*edit.timeline_entry)))) {
      // Still at the edit's step: the run goes on as if it never happened.
      if (model_only) {
        // The model and parameters as they were; the state was not touched.
        document_.timeline.erase(document_.timeline.begin() + static_cast<std::ptrdiff_t>(*edit.timeline_entry));
        in_force_ = edit.before_model->in_force;
        entry_phases_ = edit.before_model->entry_phases;
        sim_.restore_model(edit.before_model->model, edit.before_model->pending);
        ++parameters_revision_;
        if (history_) {
          history_->drop_with_entry(edit.step, *edit.timeline_entry);
          history_->keep(point());
        }
      } else if (edit.before_point) {
        back_to_before(edit);
      } else {
        go_back_before_entry(*edit.timeline_entry, /*keep_edits_at_its_step=*/true);
      }
      if (!edit.touch.empty()) {
        // A touch: nothing of the document to put back.
      } else {
        json document_values = json::object();
        for (auto it = edit.before.begin(); it != edit.before.end(); ++it)
          if (is_document_path(it.key())) document_values[it.key()] = it.value();
        if (!document_values.empty()) change(prepare_edit(changes_of(document_values)));
      }
    } else if (!edit.touch.empty()) {
      if (edit.undo_touch.empty())
        throw PresetError("undo", "'" + edit.description + "' can only be undone at its own step " +
                                      std::to_string(edit.step) + "; rewind there first");
      touch(with_free_ids(read_touch(edit.undo_touch, "undo")), /*undoable=*/false);
    } else {
      change(prepare_edit(changes_of(edit.before)));
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
      again = change(prepare_edit(changes_of(edit->after)));
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
  try {
    return edit_warning(prepare_edit(parameter_changes(in_force_, edited)));
  } catch (const PresetError&) {
    return std::nullopt;  // cannot apply at all: apply() says why
  }
}

std::optional<std::string> Session::edit_warning(const PreparedEdit& edit) const {
  // The particles are made once, when the scene is built: a change of how they are made (count, seed, packing,
  // ...) would do nothing to the running scene, silently (issue 42). Said, and applied only when confirmed.
  std::string generator;
  for (const ParameterChange& c : edit.changes)
    if (c.path.rfind("particles.", 0) == 0 && c.path.rfind("particles.particles", 0) != 0 &&
        edit.record.after.contains(c.path))
      generator += (generator.empty() ? "" : ", ") + c.path;
  if (!generator.empty())
    return generator +
           " changes how the particles are made, which happens once, when the scene is built: the "
           "running scene keeps its particles until Reset builds it again with the change";
  if (!edit.model) return std::nullopt;  // the run does not change
  const Preset& edited = edit.next;
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
    Model candidate = *edit.model;
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

}  // namespace lodestone
