// Autosave across the threads (issue 41): the simulation thread hands over a copy (CaptureAutosave) while it runs,
// the writer thread (engine/live/autosave_writer.hpp) writes it while the GUI side hands over more, and a
// RestoreSession brings the autosaved state back bit for bit. CI runs these under ThreadSanitizer too
// (scripts/test.sh --tsan). No timing thresholds: only ordering and content.

#include "engine/core/state_hash.hpp"
#include "engine/live/autosave_writer.hpp"
#include "tests/engine/live_support.hpp"
#include "tests/engine/test_support.hpp"
#include "tests/test_process.hpp"

using namespace lodestone;
using namespace lodestone::testing;

namespace {

Preset walled_scene() {
  Preset p = bare_preset();
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Wall;
  p.box.min = Vec3::Zero();
  p.box.max = Vec3::Constant(0.01);
  p.particles.kind = GeneratorKind::Random;
  p.particles.count = 30;
  p.particles.diameter = 1e-3;
  p.particles.velocity_spread = 0.01;
  return p;
}

}  // namespace

TEST_CASE("autosave writer: copies taken from a running simulation are written off both threads, the newest kept",
          "[threading][autosave]") {
  lodestone::test::TempDir dir;
  AutosaveStore store((dir.path() / "lodestone").string());
  AutosaveWriter writer(store);
  SimulationThread t(walled_scene(), "walled.json", /*start_running=*/true);
  std::uint64_t last_handed = 0;
  for (std::uint64_t request = 1; request <= 6; ++request) {
    t.push(CaptureAutosave{request});
    REQUIRE(wait_until(t, [&](const Snapshot& s) { return s.autosave_request == request && s.autosave; }));
    writer.submit(t.snapshot().autosave);  // while the last may still be written
    last_handed = request;
  }
  writer.wait_idle();
  const AutosaveWriter::Outcome done = writer.last();
  CHECK(last_handed == 6);
  CHECK(done.handed == 6);
  CHECK(done.failed == 0);
  CHECK(done.written >= 1);
  CHECK(done.error.empty());
  REQUIRE(!done.path.empty());
  t.update_snapshot();
  const Autosave& newest = *t.snapshot().autosave;
  CHECK(newest.info.scene == "walled");
  CHECK(newest.info.source == "walled.json");
  // The last copy handed over is the one written last (a newer one replaces one not yet begun).
  const Autosave read = store.load(done.path);
  CHECK(read.info.step == newest.info.step);
  CHECK(state_hash(read.point.state) == state_hash(newest.point.state));
  CHECK(store.own_files().size() <= static_cast<size_t>(AutosaveStore::kKeptPerScene));
}

TEST_CASE("simulation thread: a restored session is the autosaved state, paused, counted as a load", "[threading]") {
  SimulationThread t(walled_scene(), "walled.json", /*start_running=*/true);
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step > 50; }));
  t.push(CaptureAutosave{1});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.autosave_request == 1 && s.autosave; }));
  const std::shared_ptr<const Autosave> copy = t.snapshot().autosave;
  const std::uint64_t loads = t.snapshot().scene_loads;
  REQUIRE(wait_until(t, [&](const Snapshot& s) { return s.step > copy->info.step + 20; }));  // it runs on

  const Autosave back = autosave_from_bytes(autosave_to_bytes(*copy));
  t.push(RestoreSession{back.document, back.point, back.info.source, "restored", 2});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.reply.request == 2; }));
  CHECK(t.snapshot().reply.ok);
  CHECK(t.snapshot().reply.text == std::to_string(copy->info.step));
  CHECK_FALSE(t.snapshot().running);
  CHECK(t.snapshot().restored);
  CHECK(t.snapshot().scene_loads == loads + 1);
  CHECK(t.snapshot().message == "restored");
  t.push(HashState{3});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.reply.request == 3; }));
  CHECK(t.snapshot().reply.text == hash_hex(state_hash(copy->point.state)));
}
