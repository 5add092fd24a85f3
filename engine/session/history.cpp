#include "engine/session/history.hpp"

#include <algorithm>

namespace lodestone {

std::size_t History::bytes_of(const SessionPoint& p) {
  // The parameters are a few kilobytes; the state dominates.
  return memory_bytes(p.state) + sizeof(SessionPoint) + p.entry_phases.size() * sizeof(int) + 4096;
}

bool History::due(std::int64_t step) const {
  return step % spacing_ == 0 && (points_.empty() || step > points_.back().step());
}

void History::keep(SessionPoint point) {
  if (!points_.empty() && point.step() <= points_.back().step()) return;
  point_bytes_.push_back(bytes_of(point));
  bytes_ += point_bytes_.back();
  points_.push_back(std::move(point));
  thin();
}

void History::make_room_for(const State& state) {
  const std::size_t next = memory_bytes(state) + sizeof(SessionPoint) + 4096;
  thin_to(budget_ > next ? budget_ - next : 0);
}

void History::thin() {
  thin_to(budget_);
}

void History::thin_to(std::size_t limit) {
  // Never below two points (the start and now), whatever the budget.
  while (bytes_ > limit && points_.size() > 2) {
    spacing_ *= 2;
    std::vector<SessionPoint> kept;
    std::vector<std::size_t> kept_bytes;
    bytes_ = 0;
    for (size_t k = 0; k < points_.size(); ++k) {
      const bool keep = k == 0 || k + 1 == points_.size() || points_[k].step() % spacing_ == 0;
      if (!keep) continue;
      bytes_ += point_bytes_[k];
      kept.push_back(std::move(points_[k]));
      kept_bytes.push_back(point_bytes_[k]);
    }
    points_ = std::move(kept);
    point_bytes_ = std::move(kept_bytes);
  }
}

const SessionPoint* History::at_or_before(std::int64_t step) const {
  auto it = std::upper_bound(points_.begin(), points_.end(), step,
                             [](std::int64_t s, const SessionPoint& p) { return s < p.step(); });
  return it == points_.begin() ? nullptr : &*(it - 1);
}

const SessionPoint* History::at_or_before_time(double time) const {
  auto it = std::upper_bound(points_.begin(), points_.end(), time,
                             [](double t, const SessionPoint& p) { return t < p.state.time; });
  return it == points_.begin() ? nullptr : &*(it - 1);
}

void History::drop_after(std::int64_t step) {
  while (!points_.empty() && points_.back().step() > step) {
    bytes_ -= point_bytes_.back();
    points_.pop_back();
    point_bytes_.pop_back();
  }
}

void History::drop_with_entry(std::int64_t step, std::size_t entries) {
  drop_after(step);
  if (!points_.empty() && points_.back().step() == step && points_.back().entry_phases.size() > entries)
    drop_after(step - 1);
}

void History::set_budget(std::size_t budget_bytes) {
  budget_ = budget_bytes;
  thin();
}

std::vector<std::int64_t> History::steps() const {
  std::vector<std::int64_t> out;
  out.reserve(points_.size());
  for (const SessionPoint& p : points_) out.push_back(p.step());
  return out;
}

std::vector<double> History::times() const {
  std::vector<double> out;
  out.reserve(points_.size());
  for (const SessionPoint& p : points_) out.push_back(p.state.time);
  return out;
}

}  // namespace lodestone
