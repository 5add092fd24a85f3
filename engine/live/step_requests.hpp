#pragma once
// The StepOnce requests of the simulation thread (engine/live/commands.hpp): the one being worked off, a frame at a
// time, and those asked after it, each waiting its turn. Every request gets one answer: "step N now S" when its steps
// are done, or "stopped: ..." when something that takes the clock ends it first (a pause, a reset, a load, a rewind,
// an undo: SimulationThread decides which) or a check fails. While one is worked off, its progress and an estimate
// of the wall time left are published for the panels' progress bar and the remote control, which answers a request
// that would take over a minute at once with the estimate (docs/reliability.md "The remote channel").

#include "engine/live/commands.hpp"
#include "engine/live/snapshot.hpp"
#include "engine/session/session.hpp"

#include <chrono>
#include <deque>
#include <optional>
#include <string>

namespace lodestone {

class StepRequests {
 public:
  using Clock = std::chrono::steady_clock;

  // Queues `asked` behind the requests already there; the first begins at once. A run that stopped on a failed check
  // answers it at once instead. `rewind_to`: the steps replay a rewind to that step, answered "rewind T now S".
  void ask(const StepOnce& asked, const Session& session, std::optional<std::int64_t> rewind_to = std::nullopt);
  bool busy() const { return !queue_.empty(); }
  // Steps `session` for the first request until it is done, a check fails or `deadline` passes (looked at every 16
  // steps); answers each request finished on the way, and begins the next one.
  void work(Session& session, Clock::time_point deadline);
  // Ends every request with "stopped: ... (why)": the one under way at the step reached, the others not begun.
  void stop_all(const State& now, const std::string& why);
  // The request under way, for the snapshot; null when none.
  std::optional<StepProgress> progress(const State& now) const;
  // The last answer given (request 0 before the first).
  const Reply& last_answer() const { return answer_; }

 private:
  struct Request {
    Request(const StepOnce& a, std::optional<std::int64_t> r) : asked(a), rewind_to(r) {}
    StepOnce asked;
    std::optional<std::int64_t> rewind_to;
    std::int64_t done = 0;      // steps made for it
    double start_time = 0.0;    // [s] simulated time when it began
    Clock::time_point started;  // wall time when it began
    bool begun = false;
  };
  void begin_front(const State& now);
  bool finished(const Request& r, const State& now) const;
  void answer(const Request& r, bool ok, std::string text);
  // "step 40", "advance 0.002 s" or "rewind 5000": the request as the answers name it.
  static std::string what(const Request& r);

  std::deque<Request> queue_;
  Reply answer_;
};

}  // namespace lodestone
