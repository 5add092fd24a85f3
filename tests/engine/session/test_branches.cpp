// Branches of a run (engine/session/session_history.cpp, docs/history.md): what a change after a rewind does to
// the old future of the timeline, and the recovery of a run stopped by an entry that can no longer apply. Found by
// the soak with hands on (scripts/soak_hands.py, issue 41; docs/reliability.md "What longer runs found").

#include "engine/bodies/touch.hpp"
#include "engine/core/state_hash.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/touch_actions.hpp"
#include "tests/engine/test_support.hpp"

#include <algorithm>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// A point in the box of magnets_in_walled_box() where a sphere of radius r overlaps nothing now.
Vec3 free_point(const Session& s, double r) {
  const BoxParameters& box = s.parameters().box;
  for (double z = box.max.z() - 1.5 * r; z > box.min.z() + r; z -= 2.5 * r)
    for (double y = box.min.y() + 1.5 * r; y < box.max.y() - r; y += 2.5 * r)
      for (double x = box.min.x() + 1.5 * r; x < box.max.x() - r; x += 2.5 * r)
        if (first_overlap(s.model(), s.state().particles, Vec3(x, y, z), 1.05 * r) < 0) return Vec3(x, y, z);
  FAIL("no free point in the box");
  return Vec3::Zero();
}

bool any_entry_after(const Session& s, std::int64_t step) {
  return std::any_of(s.document().timeline.begin(), s.document().timeline.end(),
                     [step](const TimelineEntry& e) { return static_cast<std::int64_t>(e.step) > step; });
}

}  // namespace

TEST_CASE("branches: undoing a pull after a rewind drops the whole old future, also entries no undo record holds",
          "[history]") {
  // The soak's seed 3: the undo of a delete adds the particle back by a touch that has no undo record of its
  // own. After a rewind to before that add, the undo of an earlier pull went back before the pull but kept the
  // add of the old future as if it were a loaded session's later edit; the run then stopped on it.
  Session s(magnets_in_walled_box());
  s.enable_history();
  run_checked(s, 20);
  const std::uint64_t pulled = s.state().particles.id[0];
  s.drag(pulled, s.state().particles.position[0] + Vec3(0, 0, 1e-3), 1.0);
  run_checked(s, 10);
  s.release();
  run_checked(s, 10);
  s.delete_body(s.state().particles.id[3]);  // step 40
  run_checked(s, 20);
  REQUIRE(s.undo());  // step 60: the deleted particle comes back by an add that no undo record holds
  run_checked(s, 20);
  const std::uint64_t untouched_at_20 = [&] {
    Session reference(magnets_in_walled_box());
    run_checked(reference, 20);
    return state_hash(reference.state());
  }();

  s.rewind(50);
  const std::optional<std::string> undone = s.undo();  // the pull: back to step 20, before it
  REQUIRE(undone);
  CHECK(undone->find("pull of particle") != std::string::npos);
  CHECK(s.state().step == 20);
  CHECK(state_hash(s.state()) == untouched_at_20);
  CHECK(!any_entry_after(s, 19));
  run_checked(s, 60);  // past the old future's add at step 60
}

TEST_CASE("branches: recover drops a loaded future entry that can no longer apply and the run goes on without it",
          "[history]") {
  // A saved session's later add, made impossible by a sphere added meanwhile at the same place: the run stops on
  // the entry; recover drops it (before, it went back before the earlier add instead and the run stayed stopped).
  Preset p = magnets_in_walled_box();
  Session probe(p);
  const Vec3 spot = free_point(probe, 4e-4);
  TouchAction later_add;
  later_add.kind = TouchKind::Add;
  later_add.id = 1000;
  later_add.particle = sphere(spot, 4e-4);
  TimelineEntry entry;
  entry.step = 60;
  entry.touch = write_touch(later_add);
  p.timeline.push_back(entry);

  Session s(p);
  s.enable_history();
  run_checked(s, 30);
  s.add_particle(sphere(spot, 4e-4));  // step 30, where the entry of step 60 will want to put its sphere
  s.run(40);
  REQUIRE(!s.state().health.ok);
  CHECK(s.state().step == 60);
  CHECK(s.state().health.message.find("cannot apply") != std::string::npos);

  const std::string dropped = s.go_back_before_last_edit();
  CHECK(dropped.find("could no longer apply") != std::string::npos);
  CHECK(dropped.find("add particle 1000") != std::string::npos);
  INFO(s.state().health.message);
  REQUIRE(s.state().health.ok);
  CHECK(s.state().step == 60);
  REQUIRE(s.document().timeline.size() == 1);
  CHECK(s.document().timeline[0].step == 30);

  // The run as if the entry had never been there.
  Preset without = p;
  without.timeline = s.document().timeline;
  Session reference(without);
  run_checked(reference, 60);
  CHECK(state_hash(s.state()) == state_hash(reference.state()));
  run_checked(s, 20);
}

TEST_CASE("branches: a pull at the first step can still be undone after a later edit at that step was undone",
          "[history]") {
  // The soak's seed 1: the exact undo of an edit at step 0 dropped the kept start of the run and kept the state
  // before that edit instead, which already had the pull of step 0 applied; undoing the pull was then refused
  // ("the history no longer reaches back to before the change at step 0").
  const Preset p = magnets_in_walled_box();
  Session s(p);
  s.enable_history();
  const std::uint64_t start_hash = state_hash(s.state());
  const std::uint64_t pulled = s.state().particles.id[0];
  s.drag(pulled, s.state().particles.position[0] + Vec3(0, 0, 1e-3), 1.0);
  run_checked(s, 10);
  s.release();
  run_checked(s, 10);
  s.rewind(0);
  s.hold(s.state().particles.id[1], HoldKind::Both);
  REQUIRE(s.undo());                                   // the hold, at its own step: exactly back to before it
  const std::optional<std::string> undone = s.undo();  // the pull
  REQUIRE(undone);
  CHECK(undone->find("pull of particle") != std::string::npos);
  CHECK(s.state().step == 0);
  CHECK(s.document().timeline.empty());
  CHECK(state_hash(s.state()) == start_hash);
  run_checked(s, 20);
  Session reference(p);
  run_checked(reference, 20);
  CHECK(state_hash(s.state()) == state_hash(reference.state()));
}
