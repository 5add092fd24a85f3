#include "engine/live/step_requests.hpp"

#include "engine/output/field_probe.hpp"

#include <algorithm>

namespace lodestone {

void StepRequests::ask(const StepOnce& asked, const Session& session, std::optional<std::int64_t> rewind_to) {
  if (!session.state().health.ok) {
    answer(Request(asked, rewind_to), false, "the run stopped on a failed check: " + session.state().health.message);
    return;
  }
  queue_.emplace_back(asked, rewind_to);
  if (queue_.size() == 1) begin_front(session.state());
}

void StepRequests::begin_front(const State& now) {
  Request& r = queue_.front();
  r.start_time = now.time;
  r.started = Clock::now();
  r.begun = true;
}

bool StepRequests::finished(const Request& r, const State& now) const {
  // By time as lodestone-run and Python's run() decide it: the relative tolerance keeps a span that is a whole
  // number of steps from taking one more for round-off in the summed time.
  if (r.asked.seconds > 0.0) return now.time - r.start_time >= r.asked.seconds * (1.0 - 1e-12);
  return r.done >= r.asked.steps;
}

void StepRequests::work(Session& session, Clock::time_point deadline) {
  std::int64_t made = 0;
  while (!queue_.empty()) {
    Request& r = queue_.front();
    while (session.state().health.ok && !finished(r, session.state())) {
      session.step();
      ++r.done;
      if ((++made & 15) == 0 && Clock::now() >= deadline) return;  // publish, then go on
    }
    const State& now = session.state();
    if (!now.health.ok) {
      answer(r, false, "the run stopped at step " + std::to_string(now.step) + " on a failed check");
      queue_.pop_front();
      return stop_all(now, "the run stopped on a failed check");
    }
    const std::int64_t steps = r.asked.seconds > 0.0 ? r.done : r.asked.steps;
    answer(r, true, (r.rewind_to ? what(r) : "step " + std::to_string(steps)) + " now " + std::to_string(now.step));
    queue_.pop_front();
    if (!queue_.empty()) begin_front(now);
  }
}

void StepRequests::stop_all(const State& now, const std::string& why) {
  for (const Request& r : queue_)
    answer(r, false,
           "stopped: " + what(r) +
               (r.begun ? " at step " + std::to_string(now.step) + " after " + std::to_string(r.done) + " steps"
                        : " not begun") +
               " (" + why + ")");
  queue_.clear();
}

std::optional<StepProgress> StepRequests::progress(const State& now) const {
  if (queue_.empty()) return std::nullopt;
  const Request& r = queue_.front();
  StepProgress p;
  p.request = r.asked.request;
  p.asked_steps = r.asked.seconds > 0.0 ? 0 : r.asked.steps;
  p.asked_seconds = r.asked.seconds;
  p.done_steps = r.done;
  p.fraction = r.asked.seconds > 0.0 ? (now.time - r.start_time) / r.asked.seconds
                                     : static_cast<double>(r.done) / static_cast<double>(std::max(1, r.asked.steps));
  p.fraction = std::clamp(p.fraction, 0.0, 1.0);
  const double elapsed = std::chrono::duration<double>(Clock::now() - r.started).count();
  if (r.done > 0 && elapsed > 0.0 && p.fraction > 0.0) {
    p.steps_per_second = static_cast<double>(r.done) / elapsed;
    p.wall_seconds_left = elapsed * (1.0 - p.fraction) / p.fraction;
  }
  p.waiting = queue_.size() - 1;
  return p;
}

void StepRequests::answer(const Request& r, bool ok, std::string text) {
  if (r.asked.request != 0) answer_ = Reply{r.asked.request, ok, std::move(text)};
}

std::string StepRequests::what(const Request& r) {
  if (r.rewind_to) return "rewind " + std::to_string(*r.rewind_to);
  if (r.asked.seconds <= 0.0) return "step " + std::to_string(r.asked.steps);
  std::string text = "advance ";
  append_shortest(text, r.asked.seconds);
  return text + " s";
}

}  // namespace lodestone
