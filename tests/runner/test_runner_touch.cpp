// A session with hands on its particles (issue 22: a drag, an added particle and magnet, a delete, a lid),
// saved and run headless by lodestone-run: the runner's final state is the live session's, bit for bit
// (engine/core/state_hash.hpp, through the checkpoint it writes at the end).

#include "../engine/test_support.hpp"
#include "../test_process.hpp"
#include "engine/bodies/touch.hpp"
#include "engine/core/state_hash.hpp"
#include "engine/scene/checkpoint.hpp"

#include <catch2/catch.hpp>

using namespace lodestone;

TEST_CASE("runner: a saved session with a drag, adds, a delete and a lid replays to the live run's state hash",
          "[runner][timeline][touch]") {
  Preset p = testing::magnets_in_walled_box();
  p.pressure.lid_damping = 5.0;
  Session live(p);
  testing::run_checked(live, 40);
  const std::uint64_t pulled = live.state().particles.id[2];
  const Vec3 start = live.state().particles.position[2];
  for (int k = 1; k <= 4; ++k) {
    live.drag(pulled, start + Vec3(0.2e-3 * k, 0.0, 0.4e-3), 1.5);
    testing::run_checked(live, 15);
  }
  live.release();
  testing::run_checked(live, 10);
  // A copy of particle 0, then a small bar magnet, where they touch nothing.
  bool added = false;
  for (double z = 5.4e-3; z > 0.5e-3 && !added; z -= 0.5e-3)
    for (double x = 0.6e-3; x < 5.5e-3 && !added; x += 0.5e-3)
      for (double y = 0.6e-3; y < 5.5e-3 && !added; y += 0.5e-3)
        if (first_overlap(live.model(), live.state().particles, Vec3(x, y, z), 0.45e-3) < 0) {
          live.add_copy(live.state().particles.id[0], Vec3(x, y, z));
          added = true;
        }
  REQUIRE(added);
  testing::run_checked(live, 5);
  ClumpEntry bar;  // three pebbles of 0.2 mm along x
  bar.shape = ClumpShape::Bar;
  bar.count = 3;
  bar.pebble_radius = 0.2e-3;
  bar.axis = Vec3::UnitX();
  bool placed = false;
  for (double z = 5.5e-3; z > 0.5e-3 && !placed; z -= 0.25e-3)
    for (double x = 0.9e-3; x < 5.1e-3 && !placed; x += 0.25e-3)
      for (double y = 0.5e-3; y < 5.5e-3 && !placed; y += 0.25e-3) {
        bool free = true;
        for (double dx : {-0.4e-3, 0.0, 0.4e-3})
          free = free && first_overlap(live.model(), live.state().particles, Vec3(x + dx, y, z), 0.25e-3) < 0;
        if (!free) continue;
        bar.position = Vec3(x, y, z);
        live.add_clump(bar);
        placed = true;
      }
  REQUIRE(placed);
  testing::run_checked(live, 10);
  live.delete_body(live.state().particles.id[5]);
  testing::run_checked(live, 10);
  Preset lid = live.parameters();
  lid.pressure.method = PressureMethod::Lid;
  lid.pressure.pressure = 300.0;
  live.edit_parameters(lid);
  testing::run_checked(live, 40);
  REQUIRE(live.state().step == 175);
  REQUIRE(live.state().clumps.size() == 1);

  lodestone::test::RunnerWorkdir dir;
  save_preset_file(live.document(), (dir.path() / "session.json").string());
  const auto run = dir.run("session.json --steps 175 --checkpoint final.ckpt --threads 1 --quiet");
  REQUIRE(run.code == 0);
  const Checkpoint replayed = load_checkpoint((dir.path() / "final.ckpt").string());
  CHECK(replayed.state.step == 175);
  CHECK(replayed.state.particles.size() == live.state().particles.size());
  CHECK(hash_hex(state_hash(replayed.state)) == hash_hex(state_hash(live.state())));
  CHECK(replayed.state.energy.drag_work == live.state().energy.drag_work);
}
