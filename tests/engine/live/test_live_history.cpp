// The simulation thread's time commands (engine/live/commands.hpp: StepOnce, Rewind, Undo, Redo, GoBack,
// HashState) as the app and the remote control send them: each answers its request in the snapshot, a
// rewind and replay reach the same state hash, an undo says what it changed, an edit at a rewound step
// is held for confirmation, and a run stopped by a bad stiffness is recovered. CI runs these under
// ThreadSanitizer too. No timing thresholds: only answers and states.

#include "engine/core/state_hash.hpp"
#include "engine/live/simulation_thread.hpp"
#include "tests/engine/live_support.hpp"
#include "tests/engine/test_support.hpp"

#include <chrono>
#include <functional>
#include <thread>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Sends a command carrying `request` and returns the answer (a StepOnce's in step_reply).
Reply ask(SimulationThread& t, Command command, std::uint64_t request) {
  t.push(std::move(command));
  REQUIRE(wait_until(
      t, [request](const Snapshot& s) { return s.reply.request == request || s.step_reply.request == request; }));
  return t.snapshot().step_reply.request == request ? t.snapshot().step_reply : t.snapshot().reply;
}

}  // namespace

TEST_CASE("live history: step answers once done, rewind and replay give the same hash, undo and redo answer",
          "[history][threading]") {
  SimulationThread t(magnets_in_walled_box(), "magnets", /*start_running=*/false);
  std::uint64_t id = 0;
  Reply r = ask(t, StepOnce{300, 0.0, ++id}, id);
  CHECK(r.ok);
  CHECK(r.text == "step 300 now 300");
  CHECK(t.snapshot().step == 300);
  const std::string at_300 = ask(t, HashState{++id}, id).text;
  Session plain(magnets_in_walled_box());
  plain.run(300);
  CHECK(at_300 == hash_hex(state_hash(plain.state())));  // the thread's run is the plain run

  // Rewind to 120 and step on: the same state at 300.
  // Paused, the steps from the kept point before 120 are replayed like a StepOnce ("rewind 120 now 120"); a kept
  // point at 120 itself would be answered at once ("now 120").
  r = ask(t, Rewind{120, false, ++id}, id);
  CHECK(r.ok);
  CHECK_THAT(r.text, Catch::EndsWith("now 120"));
  CHECK(t.snapshot().step == 120);
  REQUIRE(t.snapshot().history);
  CHECK(t.snapshot().history->head_step == 300);
  ask(t, StepOnce{180, 0.0, ++id}, id);
  CHECK(ask(t, HashState{++id}, id).text == at_300);

  // Snap while scrubbing: to a kept point at or before the step asked, without stepping.
  r = ask(t, Rewind{200, true, ++id}, id);
  const std::int64_t snapped = t.snapshot().step;
  CHECK(snapped <= 200);
  CHECK(snapped > 200 - History::kFirstSpacing);
  ask(t, Rewind{300, false, ++id}, id);
  CHECK(ask(t, HashState{++id}, id).text == at_300);

  // Undo and redo answer with the change, or refuse.
  CHECK(ask(t, Undo{++id}, id).text == "nothing to undo");
  Preset edited = *t.snapshot().in_force;
  edited.field.strength = 2.0 * edited.field.strength + 1e-3;
  r = ask(t, ApplyParameters{parameter_changes(*t.snapshot().in_force, edited), 1, false, ++id}, id);
  CHECK(r.ok);
  r = ask(t, Undo{++id}, id);
  CHECK(r.ok);
  CHECK(r.text.rfind("undone: field.strength", 0) == 0);
  CHECK(t.snapshot().in_force->field.strength == magnets_in_walled_box().field.strength);
  CHECK(ask(t, HashState{++id}, id).text == at_300);  // undone at the edit's step: as if never made
  r = ask(t, Redo{++id}, id);
  CHECK(r.text.rfind("redone: field.strength", 0) == 0);
  CHECK(t.snapshot().in_force->field.strength == edited.field.strength);

  // An edit at a rewound step is held until confirmed: it would drop the run after it.
  ask(t, StepOnce{50, 0.0, ++id}, id);
  ask(t, Rewind{320, false, ++id}, id);
  r = ask(t, ApplyParameters{{{"materials.0.friction", 0.1}}, 2, false, ++id}, id);
  CHECK_FALSE(r.ok);
  CHECK(r.text.find("starts a new run from this moment") != std::string::npos);
  REQUIRE(t.snapshot().confirmation);
  CHECK(t.snapshot().in_force->materials[0].friction != 0.1);
  r = ask(t, ApplyParameters{t.snapshot().confirmation->changes, 3, true, ++id}, id);
  CHECK(r.ok);
  CHECK(t.snapshot().in_force->materials[0].friction == 0.1);
  CHECK(t.snapshot().history->head_step == 320);
  CHECK_FALSE(t.snapshot().confirmation);
}

TEST_CASE("live history: a run stopped by a bad stiffness is recovered by going back before the edit",
          "[history][threading]") {
  SimulationThread t(magnets_in_walled_box(), "magnets", /*start_running=*/false);
  std::uint64_t id = 0;
  ask(t, StepOnce{100, 0.0, ++id}, id);
  Preset bad = *t.snapshot().in_force;
  bad.materials[0].youngs_modulus = 1.0;
  REQUIRE(ask(t, ApplyParameters{parameter_changes(*t.snapshot().in_force, bad), 1, true, ++id}, id).ok);
  Reply r = ask(t, StepOnce{100000, 0.0, ++id}, id);
  REQUIRE_FALSE(r.ok);
  CHECK(r.text.find("stopped at step") != std::string::npos);
  CHECK(t.snapshot().health.message.find("Most likely cause: the edit at step 100") != std::string::npos);
  t.push(SetRunning{true});  // refused while stopped, with the ways out
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.message_revision > 0; }));
  CHECK(t.snapshot().message.find("undo the last edit") != std::string::npos);

  r = ask(t, GoBack{0.0, ++id}, id);
  CHECK(r.ok);
  CHECK(r.text.find("youngs_modulus") != std::string::npos);
  CHECK(t.snapshot().health.ok);
  CHECK(t.snapshot().step == 100);
  r = ask(t, StepOnce{400, 0.0, ++id}, id);
  CHECK(r.ok);
  CHECK(t.snapshot().step == 500);

  // Going back by time lands on a kept point at least that long before.
  const double now = t.snapshot().time;
  ask(t, GoBack{0.5 * now, ++id}, id);
  CHECK(t.snapshot().time <= 0.5 * now);
  CHECK(t.snapshot().health.ok);
}

TEST_CASE("live history: a running scene waits at the step the confirmation names, then goes on",
          "[history][threading]") {
  // Issue 39, bug 4: after going back, the run went on behind "Apply this change?" and the change was recorded
  // thousands of steps after the step the dialog named.
  SimulationThread t(magnets_in_walled_box(), "magnets", /*start_running=*/false);
  std::uint64_t id = 0;
  ask(t, StepOnce{400, 0.0, ++id}, id);
  ask(t, Rewind{100, false, ++id}, id);
  t.push(SetPace{PaceMode::StepsPerFrame, 1.0});  // a replay toward the old head that lasts (60 steps a second)
  t.push(SetRunning{true});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.running && s.step > 102; }));

  Reply r = ask(t, ApplyParameters{{{"materials.0.friction", 0.2}}, 1, false, ++id}, id);
  REQUIRE_FALSE(r.ok);
  REQUIRE(t.snapshot().confirmation);
  const std::int64_t named = t.snapshot().confirmation->step;
  CHECK(t.snapshot().confirmation->paused_run);
  CHECK(r.text.find("(step " + std::to_string(named) + ")") != std::string::npos);
  CHECK_FALSE(t.snapshot().running);
  CHECK(t.snapshot().step == named);
  // Still there a while later (a dialog waiting for the user), and Run is refused until it is answered.
  t.push(SetRunning{true});
  ask(t, HashState{++id}, id);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ask(t, HashState{++id}, id);
  CHECK(t.snapshot().step == named);
  CHECK_FALSE(t.snapshot().running);

  // Confirmed: recorded at the named step, and the run goes on from there.
  r = ask(t, ApplyParameters{t.snapshot().confirmation->changes, 2, true, ++id}, id);
  CHECK(r.ok);
  CHECK_FALSE(t.snapshot().confirmation);
  REQUIRE(t.snapshot().scene);
  REQUIRE(t.snapshot().scene->timeline.size() == 1);
  CHECK(static_cast<std::int64_t>(t.snapshot().scene->timeline[0].step) == named);
  CHECK(t.snapshot().in_force->materials[0].friction == 0.2);
  REQUIRE(wait_until(t, [named](const Snapshot& s) { return s.running && s.step > named + 20; }));

  // Declined: dropped, nothing recorded, and the run goes on.
  ask(t, Rewind{named + 10, false, ++id}, id);
  t.push(SetRunning{true});
  REQUIRE(wait_until(t, [named](const Snapshot& s) { return s.running && s.step > named + 12; }));
  r = ask(t, ApplyParameters{{{"materials.0.friction", 0.3}}, 3, false, ++id}, id);
  REQUIRE_FALSE(r.ok);
  const std::int64_t held_at = t.snapshot().confirmation->step;
  r = ask(t, DeclineEdit{++id}, id);
  CHECK(r.ok);
  CHECK_FALSE(t.snapshot().confirmation);
  CHECK(t.snapshot().in_force->materials[0].friction == 0.2);
  CHECK(t.snapshot().scene->timeline.size() == 1);
  REQUIRE(wait_until(t, [held_at](const Snapshot& s) { return s.running && s.step > held_at; }));
  CHECK(ask(t, DeclineEdit{++id}, id).text == "no edit is waiting for confirmation");
}
