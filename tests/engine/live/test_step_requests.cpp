// The "step N" / "advance T" requests of the simulation thread (engine/live/step_requests.hpp, issue 43): each gets
// exactly one answer, a step that would take hours is ended by a pause with "stopped: ..." at the step reached,
// questions sent meanwhile are answered while it goes on (the thread never works a request off to its end before
// reading the queue), and steps asked one after another are made in order. No timing thresholds: answers and states.

#include "engine/core/state_hash.hpp"
#include "engine/live/simulation_thread.hpp"
#include "engine/live/step_requests.hpp"
#include "tests/engine/live_support.hpp"
#include "tests/engine/test_support.hpp"

#include <string>

using namespace lodestone;
using namespace lodestone::testing;

TEST_CASE("step requests: one answer each, by count and by time, in the order asked", "[step_requests]") {
  Session session(magnets_in_walled_box());
  StepRequests steps;
  steps.ask(StepOnce{30, 0.0, 1}, session);
  steps.ask(StepOnce{1, 20 * session.model().time_step, 2}, session);  // 20 steps of simulated time
  steps.ask(StepOnce{5, 0.0, 3}, session);
  REQUIRE(steps.progress(session.state()));
  CHECK(steps.progress(session.state())->waiting == 2);
  CHECK(steps.progress(session.state())->wall_seconds_left < 0.0);  // nothing made yet: no estimate
  const auto far_future = StepRequests::Clock::now() + std::chrono::hours(1);
  steps.work(session, far_future);
  CHECK_FALSE(steps.busy());
  CHECK(session.state().step == 30 + 20 + 5);
  CHECK(steps.last_answer().request == 3);
  CHECK(steps.last_answer().ok);
  CHECK(steps.last_answer().text == "step 5 now 55");

  // A rewind's replay is answered with its target.
  steps.ask(StepOnce{5, 0.0, 4}, session, 60);
  steps.work(session, far_future);
  CHECK(steps.last_answer().text == "rewind 60 now 60");

  // The same steps made one by one reach the same state.
  Session plain(magnets_in_walled_box());
  plain.run(60);
  CHECK(state_hash(plain.state()) == state_hash(session.state()));
}

TEST_CASE("step requests: a stop answers the one under way at the step reached and the others as not begun",
          "[step_requests]") {
  Session session(magnets_in_walled_box());
  StepRequests steps;
  steps.ask(StepOnce{1000000000, 0.0, 7}, session);
  steps.ask(StepOnce{10, 0.0, 8}, session);
  steps.work(session, StepRequests::Clock::now());  // one slice: 16 steps, then the deadline is seen
  const std::int64_t reached = session.state().step;
  REQUIRE(reached == 16);
  const std::optional<StepProgress> p = steps.progress(session.state());
  REQUIRE(p);
  CHECK(p->request == 7);
  CHECK(p->done_steps == 16);
  CHECK(p->fraction == Approx(16e-9));
  CHECK(p->wall_seconds_left > 0.0);  // estimated from the 16 steps
  steps.stop_all(session.state(), "paused");
  CHECK_FALSE(steps.busy());
  // Only the last answer is kept: the remote control has one request in flight at a time.
  CHECK(steps.last_answer().request == 8);
  CHECK(steps.last_answer().text == "stopped: step 10 not begun (paused)");
  StepRequests one;
  one.ask(StepOnce{1000000000, 0.0, 9}, session);
  one.work(session, StepRequests::Clock::now());
  one.stop_all(session.state(), "paused");
  CHECK_FALSE(one.last_answer().ok);
  CHECK(one.last_answer().text == "stopped: step 1000000000 at step 32 after 16 steps (paused)");
}

TEST_CASE("live steps: a pause ends a step that would take hours, questions meanwhile are answered",
          "[step_requests][threading]") {
  SimulationThread t(magnets_in_walled_box(), "magnets", /*start_running=*/false);
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.sequence >= 1; }));
  t.push(StepOnce{1000000000, 0.0, 1});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.stepping && s.stepping->done_steps > 0; }));
  CHECK(t.snapshot().stepping->request == 1);
  CHECK(t.snapshot().stepping->wall_seconds_left > 0.0);
  // A question is answered while the steps go on (before, the thread made every step first: it never answered).
  t.push(HashState{2});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.reply.request == 2; }));
  CHECK(t.snapshot().stepping);
  // A second step waits its turn.
  t.push(StepOnce{5, 0.0, 3});
  t.push(SetRunning{false});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step_reply.request == 3; }));
  CHECK(t.snapshot().step_reply.text == "stopped: step 5 not begun (paused)");
  CHECK_FALSE(t.snapshot().stepping);
  CHECK_FALSE(t.snapshot().running);
  const std::int64_t stopped_at = t.snapshot().step;
  // The scene is usable at once: the next request is made from the step reached.
  t.push(StepOnce{4, 0.0, 4});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step_reply.request == 4; }));
  CHECK(t.snapshot().step_reply.ok);
  CHECK(t.snapshot().step_reply.text == "step 4 now " + std::to_string(stopped_at + 4));
}

TEST_CASE("live steps: a reset, a load and a run each end a step under way with one answer naming why",
          "[step_requests][threading]") {
  SimulationThread t(magnets_in_walled_box(), "magnets", /*start_running=*/false);
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.sequence >= 1; }));
  const std::vector<std::pair<Command, std::string>> cases = {
      {ResetScene{}, "(reset)"},
      {LoadScene{magnets_in_walled_box(), "again"}, "(another scene was loaded)"},
      {SetRunning{true}, "(the run was started)"},
  };
  std::uint64_t id = 0;
  for (const auto& [command, why] : cases) {
    t.push(SetRunning{false});
    t.push(StepOnce{1000000000, 0.0, ++id});
    const std::uint64_t request = id;
    REQUIRE(wait_until(t, [request](const Snapshot& s) { return s.stepping && s.stepping->request == request; }));
    t.push(command);
    REQUIRE(wait_until(t, [request](const Snapshot& s) { return s.step_reply.request == request; }));
    INFO(t.snapshot().step_reply.text);
    CHECK_FALSE(t.snapshot().step_reply.ok);
    CHECK(t.snapshot().step_reply.text.rfind("stopped: step 1000000000 at step ", 0) == 0);
    CHECK(t.snapshot().step_reply.text.find(why) != std::string::npos);
  }
}
