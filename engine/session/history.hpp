#pragma once
// The history of a run: in-memory copies of the session at kept steps (the state with its contact
// history, lists and forces, the parameters in force and the timeline entries applied), from which
// any earlier step is reached exactly by restoring the nearest kept point before it and stepping
// forward (the step is deterministic). With the edit timeline of the document this is everything needed
// to rewind, scrub and replay (docs/history.md).
//
// Memory stays within a budget: points are kept every `spacing` steps; when the budget is exceeded the
// spacing doubles and the points off the new grid are dropped (the first point and the newest one are
// always kept), so a long run thins its old history instead of stopping.

#include "engine/core/model.hpp"
#include "engine/core/preset.hpp"
#include "engine/core/state.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lodestone {

// Everything a session needs to continue from a step (engine/session/session.hpp).
struct SessionPoint {
  State state;
  Preset in_force;                // the parameters in force at that step
  std::vector<int> entry_phases;  // the timeline entries applied by then, with their protocol phases
  std::int64_t step() const { return state.step; }
};

// The model side of a session alone, without its state: what an edit that replaced only the model changed
// (engine/session/undo.hpp).
struct ModelPoint {
  Model model;
  bool pending = false;  // State::model_change_pending then
  Preset in_force;
  std::vector<int> entry_phases;
};

class History {
 public:
  static constexpr std::size_t kDefaultBudget = std::size_t{512} << 20;  // 512 MiB
  static constexpr std::int64_t kFirstSpacing = 16;                      // steps between points at first

  explicit History(std::size_t budget_bytes = kDefaultBudget) : budget_(budget_bytes) {}

  // True when a point at `step` is due (on the grid and newer than the newest kept point).
  bool due(std::int64_t step) const;
  // Keeps a point (any step newer than the newest; on the grid or not), then thins to the budget.
  void keep(SessionPoint point);
  // Thins the kept points so that one more copy of `state` fits in the budget: called before the copy
  // is made, so that memory never holds more than the budget.
  void make_room_for(const State& state);
  // The newest kept point at or before `step`; null when there is none.
  const SessionPoint* at_or_before(std::int64_t step) const;
  // The newest kept point at or before simulated time `time` [s]; null when there is none.
  const SessionPoint* at_or_before_time(double time) const;
  // Drops the points after `step` (a new branch of the run starts there).
  void drop_after(std::int64_t step);
  // Drops the points that have a timeline entry of `step` applied: those after it, and the one at it when more
  // than `entries` entries were applied there. The point at that step taken before the entry (the start of
  // the run, when the entry came at its first step) stays, so that earlier entries of the step can still be
  // gone back before.
  void drop_with_entry(std::int64_t step, std::size_t entries);

  bool empty() const { return points_.empty(); }
  std::int64_t first_step() const { return points_.empty() ? 0 : points_.front().step(); }
  std::int64_t last_step() const { return points_.empty() ? 0 : points_.back().step(); }
  std::size_t size() const { return points_.size(); }
  std::size_t bytes() const { return bytes_; }
  std::size_t budget() const { return budget_; }
  std::int64_t spacing() const { return spacing_; }
  void set_budget(std::size_t budget_bytes);
  // The kept steps, oldest first (the time slider snaps to them).
  std::vector<std::int64_t> steps() const;
  std::vector<double> times() const;  // [s] of the same points

 private:
  void thin();
  void thin_to(std::size_t limit);
  static std::size_t bytes_of(const SessionPoint& p);

  std::vector<SessionPoint> points_;  // by step, oldest first
  std::vector<std::size_t> point_bytes_;
  std::size_t budget_;
  std::size_t bytes_ = 0;
  std::int64_t spacing_ = kFirstSpacing;
};

}  // namespace lodestone
