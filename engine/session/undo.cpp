#include "engine/session/undo.hpp"

#include <algorithm>

namespace lodestone {
namespace {

std::string short_dump(const json& value) {
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  constexpr size_t kLongest = 40;
  if (text.size() > kLongest) text = text.substr(0, kLongest - 3) + "...";
  return text;
}

}  // namespace

std::string describe_changes(const json& before, const json& after, const ShownValue& shown) {
  auto text = [&shown](const std::string& path, const json& value) {
    return short_dump(shown ? shown(path, value) : value);
  };
  std::string out;
  for (auto it = after.begin(); it != after.end(); ++it) {
    if (!out.empty()) out += "; ";
    out += it.key() + " " + (before.contains(it.key()) ? text(it.key(), before.at(it.key())) : "?") + " -> " +
           text(it.key(), it.value());
  }
  return out;
}

void UndoStack::record(EditRecord edit) {
  redo_.clear();
  push_undo(std::move(edit));
}

void UndoStack::push_undo(EditRecord edit) {
  undo_.push_back(std::move(edit));
  if (undo_.size() > kDepth) undo_.erase(undo_.begin());
}

std::optional<EditRecord> UndoStack::take_undo() {
  if (undo_.empty()) return std::nullopt;
  EditRecord edit = std::move(undo_.back());
  undo_.pop_back();
  return edit;
}

std::optional<EditRecord> UndoStack::take_redo() {
  if (redo_.empty()) return std::nullopt;
  EditRecord edit = std::move(redo_.back());
  redo_.pop_back();
  return edit;
}

void UndoStack::release_points_before(std::int64_t step) {
  // Only the newest records can still hold a point: walk back while they do.
  for (auto it = undo_.rbegin(); it != undo_.rend() && it->before_point; ++it)
    if (it->step < step) it->before_point.reset();
}

void UndoStack::drop_after(std::int64_t step) {
  auto later = [step](const EditRecord& e) { return e.step > step; };
  undo_.erase(std::remove_if(undo_.begin(), undo_.end(), later), undo_.end());
  redo_.clear();
}

}  // namespace lodestone
