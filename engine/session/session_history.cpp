// Session: the kept history of the run (engine/session/history.hpp, docs/history.md): rewinds, going back by
// simulated time or to before an edit, and the branch a change at an earlier step starts.

#include "engine/session/session.hpp"

#include <algorithm>

namespace lodestone {

namespace {

// The sections only the document holds (is_document_path: description, units, version, the generator, run)
// are edited without a timeline entry, so a point kept before such an edit has them as they were: going back
// to it takes them from the document as it is now, as the panels and a save show them. The model is still
// made from the point's own parameters, as that step ran.
void take_document_sections(Preset& in_force, const Preset& document) {
  in_force.version = document.version;
  in_force.description = document.description;
  in_force.units = document.units;
  in_force.run = document.run;
  in_force.particles = document.particles;
  in_force.particles.particles.clear();  // the generator's list is the document's alone (parameters_of)
}

}  // namespace

SessionPoint Session::point() const {
  return SessionPoint{state(), in_force_, entry_phases_};
}

void Session::restore_point(const SessionPoint& p) {
  const int threads = sim_.threads();
  in_force_ = p.in_force;
  entry_phases_ = p.entry_phases;
  sim_ = Simulation::continue_saved(make_model(p.in_force), p.state);
  take_document_sections(in_force_, document_);
  sim_.set_threads(threads);
  ++parameters_revision_;
}

void Session::start_branch_here() {
  const std::int64_t now = state().step;
  if (now >= head_step_) return;
  if (history_) history_->drop_after(now);
  drop_reached_future();
  undo_.drop_after(now);
  head_step_ = now;
}

void Session::drop_reached_future() {
  // Past the entries applied to the state now: those the run had reached (steps up to head_step_) belong to
  // the old future and go; those it never reached stay (a loaded session's later edits).
  std::vector<TimelineEntry>& timeline = document_.timeline;
  const std::int64_t head = head_step_;
  timeline.erase(std::remove_if(timeline.begin() + static_cast<std::ptrdiff_t>(entry_phases_.size()), timeline.end(),
                                [head](const TimelineEntry& e) { return static_cast<std::int64_t>(e.step) <= head; }),
                 timeline.end());
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
  if (entry_failed_to_apply()) return drop_entry_that_cannot_apply();
  if (entry_phases_.empty())
    throw PresetError("timeline", "no edit was applied in this run: nothing to go back before");
  const size_t k = entry_phases_.size() - 1;
  std::string what = entry_description(k);
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

const SessionPoint* Session::kept_before(size_t k) const {
  if (!history_ || history_->empty()) return nullptr;
  const std::int64_t at = static_cast<std::int64_t>(document_.timeline[k].step);
  // The kept points from the entry's step on have it applied; the state at its step without it is
  // reached from an earlier point.
  const SessionPoint* before = history_->at_or_before(at - 1);
  if (!before) before = history_->at_or_before(at);  // the entry came at the very first step
  return before && before->entry_phases.size() <= k ? before : nullptr;
}

void Session::go_back_before_entry(size_t k, bool keep_edits_at_its_step) {
  if (!history_ || history_->empty()) throw PresetError("history", "this session keeps no history to go back in");
  const std::int64_t at = static_cast<std::int64_t>(document_.timeline[k].step);
  const SessionPoint* before = kept_before(k);
  if (!before)
    throw PresetError("history",
                      "the history no longer reaches back to before the change at step " + std::to_string(at));
  SessionPoint start = *before;
  // Entry k and those the run reached after it go, those of an old future a rewind left behind too;
  // entries it never reached (a loaded session's later edits) stay.
  drop_reached_future();
  document_.timeline.erase(document_.timeline.begin() + static_cast<std::ptrdiff_t>(k),
                           document_.timeline.begin() + static_cast<std::ptrdiff_t>(entry_phases_.size()));
  history_->drop_after(start.step());
  undo_.drop_after(keep_edits_at_its_step ? at : at - 1);
  restore_point(start);
  apply_due_entries();
  while (state().step < at && state().health.ok) step();
  head_step_ = state().step;
}

bool Session::entry_failed_to_apply() const {
  const std::vector<TimelineEntry>& timeline = document_.timeline;
  return !state().health.ok && entry_phases_.size() < timeline.size() &&
         static_cast<std::int64_t>(timeline[entry_phases_.size()].step) <= state().step;
}

std::string Session::drop_entry_that_cannot_apply() {
  const size_t k = entry_phases_.size();
  const std::int64_t at = static_cast<std::int64_t>(document_.timeline[k].step);
  const SessionPoint* good = history_ ? history_->at_or_before(at) : nullptr;
  if (!good)
    throw PresetError("history", "the change at step " + std::to_string(at) +
                                     " cannot apply, and the history no longer reaches back to before it");
  const std::string what = entry_description(k) + " at step " + std::to_string(at) + ", which could no longer apply";
  document_.timeline.erase(document_.timeline.begin() + static_cast<std::ptrdiff_t>(k));
  restore_point(*good);
  apply_due_entries();
  while (state().step < at && state().health.ok) step();
  return what;
}

std::string Session::entry_description(size_t k) const {
  if (const EditRecord* edit = undo_.next_undo(); edit && edit->timeline_entry == k) return edit->description;
  const TimelineEntry& entry = document_.timeline[k];
  if (!entry.touch.empty()) return describe_touch(read_touch(entry.touch, "$.timeline"));
  std::string what;
  for (auto it = entry.set.begin(); it != entry.set.end(); ++it)
    what += (what.empty() ? "" : "; ") + it.key() + " = " + it.value().dump();
  return what;
}

}  // namespace lodestone
