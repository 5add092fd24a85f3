#pragma once
// Undo and redo of the edits made to a running session (the app's panels, Ctrl+Z / Ctrl+Shift+Z, the
// remote `undo` / `redo`). An edit is remembered as the values it changed, before and after, by dotted
// preset path. Undoing it applies the old values as a new edit at the current step, recorded in the
// timeline like any edit (so a saved session replays the undo too); while the run is still at the
// edit's own step, the session instead restores its state from just before the edit and removes the
// edit's timeline entry, so the run goes on bit-identically as if the edit never happened
// (docs/history.md).

#include "engine/scene/schema.hpp"
#include "engine/session/history.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lodestone {

struct EditRecord {
  std::string description;  // "field.strength 0.025 -> 0.04" (SI, as a preset file writes it)
  json before;              // {"dotted.path": value} before the edit
  json after;               // the same paths after it
  std::int64_t step = 0;    // where it was made
  // The session just before the edit, kept while the run is still at `step` (then released: a state
  // copy per edit would cost memory for nothing), and the edit's timeline entry, if it made one.
  std::shared_ptr<const SessionPoint> before_point;
  // An edit that replaced only the model (Simulation::ModelRefresh::Deferred): the model and parameters before it,
  // put back by an undo while the state still waits for it (no state copy needed).
  std::shared_ptr<const ModelPoint> before_model;
  std::optional<std::size_t> timeline_entry;
  // A hand on the particles instead of a parameter edit (engine/scene/touch_actions.hpp; before and after then
  // stay empty): the action, done again by a redo, and the action that takes it back after its step (a delete
  // for an add, the particle re-added for a delete).
  json touch;
  json undo_touch;
  // Undone by going back to before it, the run since dropped (a pull: a drag from grab to release), once
  // the run has moved on from its step.
  bool goes_back = false;
};

// "path old -> new" for each changed path, joined with "; " (long values shortened); each value as `shown` gives it
// (the session: in the scene's display units, "5 mT -> 25 mT" where the panel shows mT), else as stored (SI).
using ShownValue = std::function<json(const std::string& path, const json& value)>;
std::string describe_changes(const json& before, const json& after, const ShownValue& shown = {});

class UndoStack {
 public:
  static constexpr std::size_t kDepth = 1000;  // the oldest edits are forgotten beyond this

  // A new edit: it can be undone; what was undone before can no longer be redone.
  void record(EditRecord edit);
  std::optional<EditRecord> take_undo();
  std::optional<EditRecord> take_redo();
  // After an undo (the record to redo) and a redo (the record, undoable again).
  void push_redo(EditRecord edit) { redo_.push_back(std::move(edit)); }
  void push_undo(EditRecord edit);

  const EditRecord* next_undo() const { return undo_.empty() ? nullptr : &undo_.back(); }
  const EditRecord* next_redo() const { return redo_.empty() ? nullptr : &redo_.back(); }
  // The run has moved past `step`: the states kept for exact undo at earlier steps are released.
  void release_points_before(std::int64_t step);
  // A new branch starts at `step`: the edits made after it (in the dropped future) are gone.
  void drop_after(std::int64_t step);
  void clear() {
    undo_.clear();
    redo_.clear();
  }

 private:
  std::vector<EditRecord> undo_;
  std::vector<EditRecord> redo_;
};

}  // namespace lodestone
