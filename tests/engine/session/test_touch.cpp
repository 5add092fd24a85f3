// Hands on the particles (issue 22; engine/bodies/touch.hpp, Session "Hands on the particles"): the drag
// spring and its work in the energy balance, adding particles and clumps (refused on overlap, ids unique,
// contacts consistent), deleting them (bonds broken and counted), a lid added to a running box, the touch
// entries of the timeline replayed bit for bit, and the undo of adds and deletes.

#include "engine/bodies/touch.hpp"
#include "engine/core/state_hash.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/scene/touch_actions.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

double balance(const Session& s) {
  return s.observe().energy_balance();
}

// Two 1 mm spheres far apart in open space: no forces but the drag's.
Preset two_free_spheres(double radius = 5e-4) {
  Preset p = bare_preset();
  p.particles.particles = {sphere(Vec3(0, 0, 0), radius), sphere(Vec3(0.03, 0, 0), radius)};
  return p;
}

// A first free point for a sphere of radius r on a grid through the box, or nothing.
std::optional<Vec3> free_point(const Session& s, double r) {
  const BoxParameters& box = s.parameters().box;
  for (double z = box.min.z() + 1.5 * r; z < box.max.z() - r; z += 2.5 * r)
    for (double y = box.min.y() + 1.5 * r; y < box.max.y() - r; y += 2.5 * r)
      for (double x = box.min.x() + 1.5 * r; x < box.max.x() - r; x += 2.5 * r)
        if (first_overlap(s.model(), s.state().particles, Vec3(x, y, z), 1.05 * r) < 0) return Vec3(x, y, z);
  return std::nullopt;
}

}  // namespace

// [SECTION] Drag

TEST_CASE(
    "touch: a drag pulls a sphere toward the target, and after the release it keeps the user's work as kinetic "
    "energy",
    "[touch]") {
  Session s(two_free_spheres());
  const Vec3 target(2e-3, 1e-3, 0.0);
  s.drag(0, target, 1.0);
  const double before = balance(s);
  double peak_kinetic = 0.0;
  // A quarter of the spring's period (kDragPeriodSteps steps): the sphere is on its way, fast.
  for (int k = 0; k < 40; ++k) {
    run_checked(s, 1);
    peak_kinetic = std::max(peak_kinetic, s.observe().kinetic());
  }
  const double work = s.state().energy.drag_work;
  REQUIRE(work > 0.0);
  const Vec3 x = s.state().particles.position[index_of(s, 0)];
  CHECK(x.dot(target) > 0.1 * target.squaredNorm());                        // moved toward it
  CHECK(s.state().particles.position[index_of(s, 1)] == Vec3(0.03, 0, 0));  // the other one felt nothing
  s.release();
  CHECK_FALSE(s.state().drag.active);
  run_checked(s, 1);  // the spring's last force took part in this step's first half kick: booked here
  const double total = s.state().energy.drag_work;
  CHECK(total == Approx(work).epsilon(0.05));
  run_checked(s, 50);
  // Nothing acts after the release: all the work is in the sphere's motion, and the balance, which counts
  // the work as put in, stayed where it was.
  CHECK(s.observe().kinetic() == Approx(total).epsilon(1e-3));
  CHECK(std::abs(balance(s) - before) < 1e-3 * peak_kinetic);
  CHECK(s.state().energy.drag_work == total);
}

TEST_CASE("touch: a drag moved about for 2000 steps keeps the energy balance and the energy check quiet", "[touch]") {
  Preset p = magnets_in_walled_box();
  p.particles.velocity_spread = 0.0;
  Session s(p);
  run_checked(s, 200);
  const std::uint64_t id = s.state().particles.id[3];
  const Vec3 start = s.state().particles.position[3];
  double kinetic_scale = 0.0;
  const double before = balance(s);
  for (int k = 0; k < 20; ++k) {
    // The target circles 1 mm around the start, a new point every 100 steps.
    const double angle = 0.3 * k;
    s.drag(id, start + Vec3(1e-3 * std::cos(angle), 1e-3 * std::sin(angle), 0.5e-3), 2.0);
    for (int j = 0; j < 100; ++j) {
      run_checked(s, 1);  // any failed check (the energy growing without a source) fails here
      kinetic_scale = std::max(kinetic_scale, s.observe().kinetic());
    }
  }
  CHECK(std::abs(s.state().energy.drag_work) > 0.0);
  // The particle followed: near the last target.
  CHECK((s.state().particles.position[index_of(s, id)] - s.state().drag.target).norm() < 0.5e-3);
  // Without the drag's work in it, the balance would be off by all of it; with it, by far less.
  const double drift = std::abs(balance(s) - before);
  INFO("drift " << drift << " J, drag work " << s.state().energy.drag_work << " J");
  CHECK(drift < 0.05 * std::abs(s.state().energy.drag_work) + 0.05 * kinetic_scale);
}

TEST_CASE("touch: the drag spring's stiffness follows the mass, so a 20 nm grain and a 10 mm magnet move alike",
          "[touch]") {
  auto fraction_covered = [](double radius, double density) {
    Preset p = two_free_spheres(radius);
    p.particles.particles[1].position = Vec3(30 * radius, 0, 0);
    p.materials[0].density = density;
    Session s(p);
    const Vec3 target(3 * radius, 0, 0);
    s.drag(0, target, 1.0);
    run_checked(s, 30);
    return s.state().particles.position[index_of(s, 0)].x() / target.x();
  };
  const double grain = fraction_covered(10e-9, 7874.0), magnet = fraction_covered(5e-3, 7500.0);
  CHECK(grain > 0.05);
  CHECK(grain == Approx(magnet).epsilon(1e-9));
}

TEST_CASE("touch: a drag on a pebble pulls and turns its clump", "[touch]") {
  Preset p = bare_preset();
  p.materials[0].density = 7500.0;
  ClumpEntry bar;
  bar.shape = ClumpShape::Bar;
  bar.count = 4;
  bar.pebble_radius = 5e-4;
  bar.axis = Vec3::UnitX();
  p.clumps = {bar};
  p.particles.particles = {sphere(Vec3(0, 0.02, 0), 5e-4)};
  Session s(p);
  const Particles& ps = s.state().particles;
  // The pebble at one end (largest x).
  size_t end = 0;
  for (size_t i = 0; i < ps.size(); ++i)
    if (ps.clump[i] >= 0 && (ps.clump[end] < 0 || ps.position[i].x() > ps.position[end].x())) end = i;
  const Vec3 end_start = ps.position[end];
  s.drag(ps.id[end], end_start + Vec3(0, 2e-3, 0), 1.0);
  run_checked(s, 60);
  const Clumps& c = s.state().clumps;
  CHECK(c.velocity[0].y() > 0.0);          // pulled
  CHECK(c.angular_velocity(0).z() > 0.0);  // and turned about its centre
  CHECK(s.state().energy.drag_work > 0.0);
  CHECK(ps.velocity[index_of(s, ps.id[end])].y() > 0.0);  // the end pulled follows the hand
  for (size_t i = 0; i < ps.size(); ++i)                  // rigid: every pebble moves with the clump
    if (ps.clump[i] >= 0) {
      const Vec3 rigid = c.velocity[0] + c.angular_velocity(0).cross(ps.position[i] - c.position[0]);
      CHECK((ps.velocity[i] - rigid).norm() < 1e-9 * rigid.norm() + 1e-12);
    }
}

TEST_CASE("touch: a drag on a missing particle or with a stiffness out of range is refused by name", "[touch]") {
  Session s(two_free_spheres());
  CHECK_THROWS_WITH(s.drag(7, Vec3::Zero(), 1.0), Catch::Contains("no particle has id 7"));
  CHECK_THROWS_WITH(s.drag(0, Vec3::Zero(), 500.0), Catch::Contains("[0.01, 50]"));
  CHECK_THROWS_WITH(s.release(), Catch::Contains("no drag is active"));
  CHECK(s.document().timeline.empty());
}

// [SECTION] Add

TEST_CASE("touch: an added particle gets a new id, an overlapping one is refused with a message and changes nothing",
          "[touch]") {
  Session s(two_free_spheres());
  ParticleEntry e = sphere(Vec3(0, 0.01, 0), 5e-4);
  const std::string done = s.add_particle(e);
  CHECK(done.find("add particle 2") != std::string::npos);
  REQUIRE(s.state().particles.size() == 3);
  CHECK(s.state().particles.radius[index_of(s, 2)] == 5e-4);

  const std::uint64_t hash = state_hash(s.state());
  e.position = Vec3(0.0006, 0, 0);  // 0.6 mm from particle 0: the spheres would overlap by 0.4 mm
  CHECK_THROWS_WITH(s.add_particle(e),
                    Catch::Contains("would overlap particle 0") && Catch::Contains("touch.add.position"));
  e.position = Vec3(0.06, 0, 0);
  e.material = "cheese";
  CHECK_THROWS_WITH(s.add_particle(e), Catch::Contains("no material named 'cheese'; materials: test"));
  CHECK(s.state().particles.size() == 3);
  CHECK(state_hash(s.state()) == hash);
  CHECK(s.document().timeline.size() == 1);

  // A copy of particle 1 with its radius, material and moment; ids stay unique after a delete.
  s.delete_body(2);
  s.add_copy(1, Vec3(0, -0.01, 0));
  std::set<std::uint64_t> ids(s.state().particles.id.begin(), s.state().particles.id.end());
  CHECK(ids.size() == s.state().particles.size());
  CHECK(ids.count(3) == 1);  // never 2 again
}

TEST_CASE("touch: a particle added touching a chain makes contacts with it, and the chain keeps its contact history",
          "[touch]") {
  Preset p = bare_preset();
  p.materials[0].magnetization = 4e5;
  p.materials[0].kn = 2e3;
  p.materials[0].ks = 2e3;
  p.magnetics.method = DipoleMethod::Direct;
  p.environment.translational_damping = 1e-2;
  p.environment.rotational_damping = 1e-3;
  const double r = 5e-4;
  for (int k = 0; k < 3; ++k) p.particles.particles.push_back(sphere(Vec3(0, 0, 2.0 * r * k), r));
  Session s(p);
  run_checked(s, 3000);  // the chain settles, its contacts pressed by the dipoles
  auto contacts = [&s] {
    std::map<std::pair<std::uint64_t, std::uint64_t>, ContactHistory> out;
    const NeighborLists& l = s.state().neighbors;
    const Particles& ps = s.state().particles;
    for (size_t k = 0; k < l.contact_pairs.size(); ++k)
      if (l.contact_history[k].active) {
        std::uint64_t a = ps.id[static_cast<size_t>(l.contact_pairs[k].i)],
                      b = ps.id[static_cast<size_t>(l.contact_pairs[k].j)];
        out[{std::min(a, b), std::max(a, b)}] = l.contact_history[k];
      }
    return out;
  };
  const auto chain = contacts();
  REQUIRE(chain.size() == 2);
  const Vec3 top = s.state().particles.position[index_of(s, 2)];
  s.add_particle(sphere(top + Vec3(0, 0, 2.02 * r), r));  // a 10 um gap above the top bead
  const auto after_add = contacts();
  REQUIRE(after_add.size() == 2);
  for (const auto& [pair, h] : chain) {
    REQUIRE(after_add.count(pair) == 1);
    CHECK(same_bits(after_add.at(pair).shear, h.shear));
    CHECK(same_bits(after_add.at(pair).normal_force, h.normal_force));
  }
  run_checked(s, 2000);  // the dipoles pull it on
  const auto joined = contacts();
  CHECK(joined.count({2, 3}) == 1);
  CHECK(joined.size() == 3);
}

TEST_CASE("touch: a bar magnet is added whole, refused where a pebble would overlap", "[touch]") {
  Session s(two_free_spheres());
  ClumpEntry bar;
  bar.shape = ClumpShape::Bar;
  bar.count = 5;
  bar.pebble_radius = 5e-4;
  bar.axis = Vec3::UnitX();
  bar.position = Vec3(0, 0, 0.0008);  // its middle pebble would overlap particle 0 below (0.8 mm < 1 mm)
  CHECK_THROWS_WITH(s.add_clump(bar), Catch::Contains("would overlap particle 0"));
  bar.position = Vec3(0, 0, 0.01);
  s.add_clump(bar);
  CHECK(s.state().particles.size() == 7);
  CHECK(s.state().clumps.size() == 1);
  for (std::uint64_t id = 2; id < 7; ++id) CHECK(index_of_id(s.state().particles, id) >= 0);
  run_checked(s, 10);
}

// [SECTION] Delete

TEST_CASE("touch: deleting a bonded bead breaks its bonds and counts them, a pebble takes its clump along", "[touch]") {
  Preset p = bare_preset();
  const double r = 5e-4;
  for (int k = 0; k < 4; ++k) p.particles.particles.push_back(sphere(Vec3(2.0 * r * k, 0, 0), r));
  p.bonds.create = BondCreation::List;
  p.bonds.list = {{0, 1}, {1, 2}, {2, 3}};
  ClumpEntry cube;
  cube.shape = ClumpShape::Cube;
  cube.count = 2;
  cube.pebble_radius = r;
  cube.position = Vec3(0, 0.01, 0);
  p.clumps = {cube};
  Session s(p);
  run_checked(s, 10);
  REQUIRE(s.observe().bonds == 3);
  const std::string done = s.delete_body(1);  // the second bead: two bonds
  CHECK(done == "deleted particle 1: 2 bonds broken");
  CHECK(s.state().broken_bonds == 2);
  CHECK(s.observe().bonds == 1);
  CHECK(s.state().particles.size() == 3 + 8);
  for (const Bond& b : s.state().bonds) {  // the bond left joins 2 and 3 at their new places
    CHECK(s.state().particles.id[static_cast<size_t>(b.a)] == b.id_a);
    CHECK(s.state().particles.id[static_cast<size_t>(b.b)] == b.id_b);
  }
  const std::string gone = s.delete_body(6);  // a pebble of the cube (ids 4..11)
  CHECK(gone.find("clump") != std::string::npos);
  CHECK(s.state().particles.size() == 3);
  CHECK(s.state().clumps.size() == 0);
  run_checked(s, 20);
  CHECK_THROWS_WITH(s.delete_body(6), Catch::Contains("no particle has id 6"));
}

// [SECTION] Lid

TEST_CASE("touch: a lid added to a running box presses a column of spheres with its pressure, within 2 %", "[touch]") {
  Preset p = bare_preset();
  const double r = 5e-4;
  p.box.min = Vec3(-r, -r, 0.0);
  p.box.max = Vec3(r, r, 0.012);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Wall;
  p.materials[0].kn = 1e3;
  p.environment.translational_damping = 2e-3;
  p.environment.rotational_damping = 2e-4;
  for (int k = 0; k < 6; ++k) p.particles.particles.push_back(sphere(Vec3(0, 0, r + 2.0 * r * k), r));
  Session s(p);
  run_checked(s, 100);
  const double area = (2 * r) * (2 * r);
  const double pressure = 500.0;  // [Pa]: 0.5 mN on the column
  Preset lid = s.parameters();
  lid.pressure.method = PressureMethod::Lid;
  lid.pressure.pressure = pressure;
  s.edit_parameters(lid);
  REQUIRE(s.state().lid_placed);
  CHECK(s.state().lid_height == Approx(12 * r).epsilon(1e-9));  // on the top sphere
  run_until(s, s.state().time + 0.02);                          // 10 damping times m / gamma
  double floor_force = 0.0, lid_force = 0.0;
  const int samples = 200;
  for (int k = 0; k < samples; ++k) {
    run_checked(s, 10);
    floor_force += s.observe().floor_force;
    lid_force += s.observe().lid_force;
  }
  const double stress = floor_force / samples / area, lid_stress = lid_force / samples / area;
  INFO("mean floor stress " << stress << " Pa, lid " << lid_stress << " Pa, under a lid at " << pressure << " Pa");
  CHECK(stress == Approx(pressure).epsilon(0.02));
  CHECK(lid_stress == Approx(pressure).epsilon(0.02));
  // The lid is a timeline entry like any edit; taking it off again is one too.
  lid.pressure.method = PressureMethod::None;
  s.edit_parameters(lid);
  CHECK(s.document().timeline.size() == 2);
}

// [SECTION] Replay

TEST_CASE("touch: a session with a drag, an add, a delete and a lid replays bit for bit from its saved document",
          "[touch]") {
  for (int threads : {1, 2}) {
    Preset p = magnets_in_walled_box();
    p.pressure.lid_damping = 5.0;
    Session live(p);
    live.set_threads(threads);
    run_checked(live, 30);
    const std::uint64_t pulled = live.state().particles.id[5];
    const Vec3 start = live.state().particles.position[5];
    for (int k = 0; k < 6; ++k) {
      live.drag(pulled, start + Vec3(0.3e-3 * k, 0.2e-3, 0.5e-3), 1.0);
      if (k % 2 == 0) live.drag(pulled, start + Vec3(0.3e-3 * k, 0.25e-3, 0.5e-3), 1.0);  // two moves in one step
      run_checked(live, 10);
    }
    live.release();
    run_checked(live, 10);
    const std::optional<Vec3> spot = free_point(live, 4e-4);
    REQUIRE(spot);
    live.add_copy(live.state().particles.id[0], *spot);
    run_checked(live, 20);
    live.delete_body(live.state().particles.id[7]);
    run_checked(live, 20);
    Preset lid = live.parameters();
    lid.pressure.method = PressureMethod::Lid;
    lid.pressure.pressure = 200.0;
    live.edit_parameters(lid);
    run_checked(live, 50);

    const Preset saved = saved_and_loaded(live.document());
    REQUIRE(saved.timeline.size() == 6 + 1 + 1 + 1 + 1);  // drags (one per step), release, add, delete, lid
    CHECK(saved.timeline[1].touch.contains("drag"));
    Session replay(saved);
    replay.set_threads(threads);
    run_checked(replay, live.state().step);
    INFO("threads " << threads);
    CHECK(replay.state().particles.size() == live.state().particles.size());
    CHECK(hash_hex(state_hash(replay.state())) == hash_hex(state_hash(live.state())));
    CHECK(same_bits(replay.state().energy.drag_work, live.state().energy.drag_work));

    // The comparison can fail: without the touches the run ends elsewhere.
    Preset untouched = saved;
    untouched.timeline.erase(std::remove_if(untouched.timeline.begin(), untouched.timeline.end(),
                                            [](const TimelineEntry& e) { return !e.touch.empty(); }),
                             untouched.timeline.end());
    Session plain(untouched);
    plain.set_threads(threads);
    run_checked(plain, live.state().step);
    CHECK(state_hash(plain.state()) != state_hash(live.state()));
  }
}

TEST_CASE("touch: bad touch entries in a saved timeline are refused naming the entry", "[touch]") {
  Preset p = two_free_spheres();
  json j = preset_to_json(p);
  j["timeline"] = json::array({json{{"step", 3}, {"touch", {{"poke", json::object()}}}}});
  CHECK_THROWS_WITH(parse_preset(j.dump(), "bad"), Catch::Contains("$.timeline[0].touch.poke") &&
                                                       Catch::Contains("drag, release, add, add_clump, delete"));
  j["timeline"] =
      json::array({json{{"step", 3}, {"touch", {{"drag", {{"id", 0}, {"target", {0, 0, 0}}, {"stiffness", -1}}}}}}});
  CHECK_THROWS_WITH(parse_preset(j.dump(), "bad"), Catch::Contains("$.timeline[0].touch.drag.stiffness"));
  // One that loads but cannot apply (no particle 9) stops the run with a message naming it.
  j["timeline"] = json::array({json{{"step", 3}, {"touch", {{"delete", {{"id", 9}}}}}}});
  Session s(parse_preset(j.dump(), "bad"));
  s.run(10);
  CHECK_FALSE(s.state().health.ok);
  CHECK(s.state().health.message.find("timeline entry 1 (step 3)") != std::string::npos);
  CHECK(s.state().health.message.find("no particle has id 9") != std::string::npos);
}

// [SECTION] Undo

TEST_CASE(
    "touch: an add or a delete undone at its step leaves the run as if it never happened, later is taken back by its "
    "inverse",
    "[touch]") {
  Preset p = magnets_in_walled_box();
  Session reference(p);
  run_checked(reference, 80);

  Session s(p);
  run_checked(s, 40);
  const std::optional<Vec3> spot = free_point(s, 4e-4);
  REQUIRE(spot);
  s.add_particle(sphere(*spot, 4e-4));
  REQUIRE(s.undo());  // at its step: exact
  CHECK(s.document().timeline.empty());
  s.delete_body(s.state().particles.id[2]);
  REQUIRE(s.undo());
  run_checked(s, 40);
  CHECK(state_hash(s.state()) == state_hash(reference.state()));

  // Later: the undo of an add is a delete entry, of a delete the particle re-added as it was.
  const std::uint64_t added_id = s.next_particle_id();
  s.add_particle(sphere(*free_point(s, 4e-4), 4e-4));
  run_checked(s, 10);
  REQUIRE(s.undo());
  CHECK(index_of_id(s.state().particles, added_id) < 0);
  CHECK(s.document().timeline.back().touch.contains("delete"));
  const std::uint64_t victim = s.state().particles.id[4];
  const Vec3 where = s.state().particles.position[4];
  s.delete_body(victim);
  const size_t count = s.state().particles.size();
  REQUIRE(s.undo());  // still at its step: exact
  CHECK(s.state().particles.size() == count + 1);
  s.redo();
  run_checked(s, 5);
  CHECK(index_of_id(s.state().particles, victim) < 0);
  REQUIRE(s.undo());  // 5 steps on: the particle comes back where it was when deleted
  const long back = index_of_id(s.state().particles, victim);
  REQUIRE(back >= 0);
  CHECK(s.state().particles.position[static_cast<size_t>(back)] == where);
  CHECK(s.document().timeline.back().touch.contains("add"));
  run_checked(s, 20);
}

// [SECTION] Going back in time across touches (the history of issue 21)

TEST_CASE("touch: a rewind to before an add and a delete replays both exactly, and one after them is exact too",
          "[touch]") {
  Session s(magnets_in_walled_box());
  s.enable_history();
  run_checked(s, 30);
  const std::optional<Vec3> spot = free_point(s, 4e-4);
  REQUIRE(spot);
  s.add_particle(sphere(*spot, 4e-4));
  run_checked(s, 20);
  s.delete_body(s.state().particles.id[1]);
  run_checked(s, 30);
  const std::uint64_t at_80 = state_hash(s.state());
  const size_t count_at_80 = s.state().particles.size();

  s.rewind(10);  // before both: the state of then, and the touches replayed from the timeline on the way
  REQUIRE(s.state().step == 10);
  run_checked(s, 70);
  CHECK(s.state().particles.size() == count_at_80);
  CHECK(state_hash(s.state()) == at_80);

  s.rewind(45);  // between them
  run_checked(s, 35);
  CHECK(state_hash(s.state()) == at_80);
}

TEST_CASE("touch: undoing a pull goes back to the moment it began, and without a history it is refused by name",
          "[touch]") {
  Preset p = magnets_in_walled_box();
  Session reference(p);
  run_checked(reference, 60);

  Session s(p);
  s.enable_history();
  run_checked(s, 25);
  const std::uint64_t id = s.state().particles.id[0];
  const Vec3 start = s.state().particles.position[0];
  s.drag(id, start + Vec3(0, 0, 2e-3), 1.0);
  run_checked(s, 10);
  s.drag(id, start + Vec3(1e-3, 0, 2e-3), 1.0);
  run_checked(s, 10);
  s.release();
  run_checked(s, 15);
  REQUIRE(s.edits().next_undo());
  CHECK(s.edits().next_undo()->description == "pull of particle " + std::to_string(id));
  const std::optional<std::string> undone = s.undo();
  REQUIRE(undone);
  CHECK(undone->find("went back to step 25") != std::string::npos);
  CHECK(s.state().step == 25);
  CHECK(!s.state().drag.active);
  CHECK(s.document().timeline.empty());
  run_checked(s, 35);
  CHECK(state_hash(s.state()) == state_hash(reference.state()));

  Session no_history(p);
  run_checked(no_history, 5);
  no_history.drag(id, start + Vec3(0, 0, 2e-3), 1.0);
  run_checked(no_history, 5);
  try {
    no_history.undo();
    FAIL("an undo of a pull without history was not refused");
  } catch (const PresetError& e) {
    CHECK(std::string(e.what()).find("pull of particle") != std::string::npos);
    CHECK(std::string(e.what()).find("keeps no history") != std::string::npos);
  }
}

TEST_CASE("touch: a pull let go at the step it began leaves no entry and no undo, and the run is the untouched one",
          "[touch]") {
  for (const bool kept : {true, false}) {
    Session reference(magnets_in_walled_box());
    run_checked(reference, 30);
    Session s(magnets_in_walled_box());
    if (kept) s.enable_history();
    run_checked(s, 10);
    const std::uint64_t hash = state_hash(s.state());
    const std::uint64_t id = s.state().particles.id[0];
    const Vec3 start = s.state().particles.position[0];
    s.drag(id, start + Vec3(0, 0, 2e-3), 1.0);  // paused: grabbed and moved at one step, no step between
    s.drag(id, start + Vec3(1e-3, 0, 2e-3), 1.0);
    CHECK(s.release().find("no step felt the pull") != std::string::npos);
    CHECK(s.document().timeline.empty());
    CHECK_FALSE(s.edits().next_undo());
    CHECK_FALSE(s.state().drag.active);
    CHECK(state_hash(s.state()) == hash);
    run_checked(s, 20);
    CHECK(same_trajectory(s.state(), reference.state()));
    // A pull that a step felt is recorded as before: its entry, its release and its one undo record.
    s.drag(id, s.state().particles.position[0] + Vec3(0, 0, 1e-3), 1.0);
    run_checked(s, 1);
    CHECK(s.release() == "released particle " + std::to_string(id));
    CHECK(s.document().timeline.size() == 2);
    CHECK(s.edits().next_undo());
  }
}
