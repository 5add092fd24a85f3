// A protocol phase that waits for the user (ProtocolPhase::wait, issue 39: field-switch-on's "Switch the field on"):
// a session that holds it stays in it past its duration until go(), which is recorded in the timeline as
// {"touch": {"go": {}}}; a session that does not hold (the runner) ends it at its duration, or at a recorded go,
// so that a saved session replays bit for bit.

#include "engine/core/state_hash.hpp"
#include "engine/live/simulation_thread.hpp"
#include "engine/scene/document.hpp"
#include "tests/engine/live_support.hpp"
#include "tests/engine/test_support.hpp"

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// field-switch-on's protocol on a small scene: no field for 20 steps (waiting for a button), then a field.
Preset waiting_scene() {
  Preset p = repository_preset("field-switch-on.json");
  p.particles.count = 30;
  REQUIRE(p.protocol.size() == 2);
  REQUIRE(p.protocol[0].wait == "Switch the field on");
  p.integrator.time_step = 1e-5;  // well under a contact's period (about 1 ms)
  p.protocol[0].duration = 20 * 1e-5;
  return p;
}

}  // namespace

TEST_CASE("waiting phase: a holding session stays in it past its duration until go, recorded at its step",
          "[protocol][wait]") {
  Session session(waiting_scene());
  session.hold_waiting_phases(true);
  run_checked(session, 100);
  CHECK(session.state().phase == 0);
  CHECK(session.phase_waits());
  CHECK(session.model().field.strength == 0.0);
  const std::string answer = session.go();
  CHECK_THAT(answer, Catch::Contains("2/2 field on"));
  CHECK(session.state().phase == 1);
  CHECK_FALSE(session.phase_waits());
  CHECK(session.model().field.strength == Approx(5e-3));
  REQUIRE(session.document().timeline.size() == 1);
  CHECK(session.document().timeline[0].step == 100);
  CHECK(session.document().timeline[0].touch == json::parse(R"({"go": {}})"));
  // Not a waiting phase any more: refused, naming the phase, changing nothing.
  CHECK_THROWS_WITH(session.go(), Catch::Contains("touch.go") && Catch::Contains("'field on' does not wait"));
  CHECK(session.document().timeline.size() == 1);
}

TEST_CASE("waiting phase: the runner's session ends it at its duration without a go, at the go's step with one",
          "[protocol][wait]") {
  Session plain(waiting_scene());  // does not hold
  run_checked(plain, 25);
  CHECK(plain.state().phase == 1);

  // A held session's go at step 100, saved and read back: a session that does not hold replays it bit for bit.
  Session live(waiting_scene());
  live.hold_waiting_phases(true);
  run_checked(live, 100);
  live.go();
  run_checked(live, 60);
  const Preset saved = parse_preset(preset_to_json(live.document()).dump());
  Session replay(saved);
  run_checked(replay, 99);
  CHECK(replay.state().phase == 0);  // past its duration: a go is still to come
  run_checked(replay, 61);
  CHECK(replay.state().phase == 1);
  CHECK(state_hash(replay.state()) == state_hash(live.state()));
}

TEST_CASE("waiting phase: an early go ends it before its duration, go is refused without a waiting phase",
          "[protocol][wait]") {
  Session live(waiting_scene());
  live.hold_waiting_phases(true);
  run_checked(live, 5);
  live.go();
  CHECK(live.state().phase == 1);
  run_checked(live, 30);
  Session replay(live.document());
  run_checked(replay, 35);
  CHECK(state_hash(replay.state()) == state_hash(live.state()));

  Session none(repository_preset("two-dipoles.json"));
  CHECK_THROWS_WITH(none.go(), Catch::Contains("no protocol"));
  CHECK(none.document().timeline.empty());
  const std::string bad = [] {
    try {
      parse_preset(R"({"version": 1, "timeline": [{"step": 3, "touch": {"go": {"now": 1}}}]})");
    } catch (const PresetError& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  CHECK_THAT(bad, Catch::Contains("$.timeline[0].touch.go.now") && Catch::Contains("unknown key"));
}

TEST_CASE("waiting phase: the simulation thread holds it and says so, GoOn goes on through the command queue",
          "[protocol][wait][live]") {
  SimulationThread t(waiting_scene(), "waiting", /*start_running=*/false);
  t.push(StepOnce{60});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 60; }));
  CHECK(t.snapshot().waiting_button == "Switch the field on");
  CHECK(t.snapshot().phase_label == "1/2 no field");
  t.push(GoOn{7});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.reply.request == 7; }));
  CHECK(t.snapshot().reply.ok);
  CHECK(t.snapshot().waiting_button.empty());
  CHECK(t.snapshot().phase_label == "2/2 field on");
  t.push(GoOn{8});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.reply.request == 8; }));
  CHECK_FALSE(t.snapshot().reply.ok);
  CHECK_THAT(t.snapshot().reply.text, Catch::Contains("does not wait"));
}
