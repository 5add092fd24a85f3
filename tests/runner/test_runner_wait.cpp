// A protocol phase that waits for the user (field-switch-on's "Switch the field on"), pressed in a live session and
// saved: lodestone-run does not wait for anyone, it goes on at the recorded go, and its final state is the live
// session's bit for bit; without a go it ends the phase at its duration (docs/session-log.md).

#include "../engine/test_support.hpp"
#include "../test_process.hpp"
#include "engine/core/state_hash.hpp"
#include "engine/scene/checkpoint.hpp"

#include <catch2/catch.hpp>

using namespace lodestone;

TEST_CASE("runner: a saved session's go of a waiting phase replays at its step, bit for bit", "[runner][wait]") {
  Preset p = testing::repository_preset("field-switch-on.json");
  p.particles.count = 30;
  p.integrator.time_step = 1e-5;
  p.protocol[0].duration = 2e-4;  // 20 steps
  Session live(p);
  live.hold_waiting_phases(true);  // as the app's
  testing::run_checked(live, 80);  // 60 steps past its duration, still waiting
  REQUIRE(live.state().phase == 0);
  live.go();
  testing::run_checked(live, 40);

  lodestone::test::RunnerWorkdir dir;
  save_preset_file(live.document(), (dir.path() / "session.json").string());
  const auto run = dir.run("session.json --steps 120 --checkpoint final.ckpt --threads 1 --quiet");
  REQUIRE(run.code == 0);
  const Checkpoint replayed = load_checkpoint((dir.path() / "final.ckpt").string());
  CHECK(replayed.state.step == 120);
  CHECK(replayed.state.phase == 1);
  CHECK(hash_hex(state_hash(replayed.state)) == hash_hex(state_hash(live.state())));

  // The preset itself, with no go recorded: the runner ends the waiting phase at its duration and never hangs.
  save_preset_file(p, (dir.path() / "preset.json").string());
  const auto plain = dir.run("preset.json --steps 30 --checkpoint plain.ckpt --threads 1 --quiet");
  REQUIRE(plain.code == 0);
  CHECK(load_checkpoint((dir.path() / "plain.ckpt").string()).state.phase == 1);
}
