// Neighbour lists (engine/step/neighbor.hpp; [Dominik-Nubold] App. A.7, cell lists and Verlet lists with a
// skin, eq. 50 with the per-particle criterion) against an independent O(N^2) search, in open,
// walled and periodic boxes (minimum image), the rebuild criterion, contact history across
// rebuilds, and the cutoff dipole sum against the direct one.

#include "engine/bodies/touch.hpp"
#include "engine/magnetic/dipole.hpp"
#include "engine/scene/checkpoint.hpp"
#include "engine/step/neighbor.hpp"
#include "tests/engine/dipole_scenes.hpp"
#include "tests/engine/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <utility>
#include <vector>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

using PairSet = std::set<std::pair<int, int>>;

// Every pair i < j whose minimum-image centre distance is below `range(i, j)`.
template <class Range>
PairSet brute_force(const Model& model, const Particles& p, Range range) {
  PairSet out;
  for (size_t i = 0; i < p.size(); ++i)
    for (size_t j = i + 1; j < p.size(); ++j) {
      const double r = minimum_image(model, p.position[i] - p.position[j]).norm();
      if (r < range(i, j)) out.emplace(static_cast<int>(i), static_cast<int>(j));
    }
  return out;
}

// The list as a set of ordered pairs; requires valid indices, i != j, and no pair twice (in
// either order).
PairSet as_set(const std::vector<IndexPair>& list, size_t n) {
  PairSet out;
  bool valid = true, unique = true;
  for (const IndexPair& pr : list) {
    valid = valid && pr.i >= 0 && pr.j >= 0 && static_cast<size_t>(pr.i) < n && static_cast<size_t>(pr.j) < n &&
            pr.i != pr.j;
    unique = out.emplace(std::min(pr.i, pr.j), std::max(pr.i, pr.j)).second && unique;
  }
  REQUIRE(valid);
  REQUIRE(unique);
  return out;
}

struct ListCounts {
  size_t contact = 0, dipole = 0;
};

// Right after a build the lists hold exactly the pairs within range + skin.
ListCounts check_fresh_lists(const Model& model, const State& state) {
  const Particles& p = state.particles;
  const NeighborLists& lists = state.neighbors;
  REQUIRE(lists.valid);
  REQUIRE(lists.contact_history.size() == lists.contact_pairs.size());
  const double skin = model.skin;
  const PairSet contact =
      brute_force(model, p, [&](size_t i, size_t j) { return p.radius[i] + p.radius[j] + model.contact_reach + skin; });
  CHECK(as_set(lists.contact_pairs, p.size()) == contact);
  PairSet dipole;
  if (model.magnetics.method == DipoleMethod::Cutoff)
    dipole = brute_force(model, p, [&](size_t, size_t) { return model.dipole_cutoff + skin; });
  CHECK(as_set(lists.dipole_pairs, p.size()) == dipole);
  return {contact.size(), dipole.size()};
}

// Between builds (the Verlet guarantee): every pair within the interaction range itself is listed.
void check_lists_cover(const Model& model, const State& state) {
  const Particles& p = state.particles;
  const PairSet contact_listed = as_set(state.neighbors.contact_pairs, p.size());
  const PairSet contact_needed =
      brute_force(model, p, [&](size_t i, size_t j) { return p.radius[i] + p.radius[j] + model.contact_reach; });
  CHECK(std::includes(contact_listed.begin(), contact_listed.end(), contact_needed.begin(), contact_needed.end()));
  if (model.magnetics.method == DipoleMethod::Cutoff) {
    const PairSet dipole_listed = as_set(state.neighbors.dipole_pairs, p.size());
    const PairSet dipole_needed = brute_force(model, p, [&](size_t, size_t) { return model.dipole_cutoff; });
    CHECK(std::includes(dipole_listed.begin(), dipole_listed.end(), dipole_needed.begin(), dipole_needed.end()));
  }
}

// A random cloud of spheres of 0.35 to 0.65 mm (magnetised, cutoff method with r_c = 2 mm, skin
// 0.15 mm) in a box of edge `edge` centred at the origin, moving at ~0.2 m/s.
Preset cloud(double edge, SideKind sides, int count, std::uint64_t seed) {
  Preset p = bare_preset();
  p.materials[0].magnetization = 1e5;
  p.magnetics.method = DipoleMethod::Cutoff;
  p.magnetics.cutoff = 2e-3;
  p.integrator.neighbor_skin = 0.15e-3;
  p.box.min = Vec3::Constant(-0.5 * edge);
  p.box.max = Vec3::Constant(0.5 * edge);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = sides;
  p.particles.kind = GeneratorKind::Random;
  p.particles.count = count;
  p.particles.seed = seed;
  p.particles.diameter = 0.5e-3;
  p.particles.size_distribution = SizeDistribution::Uniform;
  p.particles.size_spread = 0.3;
  p.particles.velocity_spread = 0.2;
  return p;
}

// Checks fresh lists at construction, then steps; at every step the lists cover the interaction
// ranges, and whenever they were rebuilt they equal the brute-force lists with the skin.
void check_scene(Session& session, int steps, const char* name) {
  INFO(name);
  const ListCounts counts = check_fresh_lists(session.model(), session.state());
  std::uint64_t builds = session.state().neighbors.builds;
  int rebuilds_checked = 0;
  for (int n = 0; n < steps; ++n) {
    run_checked(session, 1);
    check_lists_cover(session.model(), session.state());
    if (session.state().neighbors.builds != builds) {
      builds = session.state().neighbors.builds;
      check_fresh_lists(session.model(), session.state());
      ++rebuilds_checked;
    }
  }
  // An unconditional rebuild of a copy of the final state agrees with brute force too.
  State copy = session.state();
  build_neighbor_lists(session.model(), copy);
  check_fresh_lists(session.model(), copy);
  std::printf(
      "[figure] neighbour lists (%s): N = %zu, %zu contact / %zu dipole pairs at start, %d rebuilds in %d steps "
      "checked against O(N^2)\n",
      name, session.state().particles.size(), counts.contact, counts.dipole, rebuilds_checked, steps);
  CHECK(counts.dipole > 0);
  CHECK(rebuilds_checked > 0);
}

void check_scene(const Preset& preset, int steps, const char* name) {
  validate_preset(preset);
  Session session(preset);
  check_scene(session, steps, name);
}

}  // namespace

TEST_CASE("neighbour lists equal an O(N^2) search in open, walled and periodic boxes", "[neighbor]") {
  // Interaction range + skin: contacts Ri + Rj + reach + skin, dipoles cutoff + skin (2.15 mm): the
  // cells are 2.15 mm or larger. A periodic box must be at least twice that (4.3 mm, model.cpp):
  // 4.5 mm gives 2 cells per axis (neighbour cells -1 and +1 are the same cell), 7 mm 3 cells (all
  // 27 cells distinct but wrapping), 12 mm 5 cells.
  SECTION("open box") {
    check_scene(cloud(8e-3, SideKind::Open, 60, 1), 300, "open");
  }
  SECTION("walls") {
    check_scene(cloud(6e-3, SideKind::Wall, 60, 2), 300, "walls");
  }
  SECTION("periodic, 2 cells per axis") {
    check_scene(cloud(4.5e-3, SideKind::Periodic, 40, 3), 300, "periodic 4.5 mm");
  }
  SECTION("periodic, 3 cells per axis") {
    check_scene(cloud(7e-3, SideKind::Periodic, 60, 4), 300, "periodic 7 mm");
  }
  SECTION("periodic, 5 cells per axis") {
    check_scene(cloud(12e-3, SideKind::Periodic, 80, 5), 200, "periodic 12 mm");
  }
  SECTION("periodic in x and y, walls in z") {
    Preset p = cloud(5e-3, SideKind::Periodic, 50, 6);
    p.box.z_min = p.box.z_max = SideKind::Wall;
    check_scene(p, 300, "periodic xy, walls z");
  }
  SECTION("sparse: a large periodic box with few particles (coarsened grid)") {
    // 100 mm / 2.15 mm gives 46^3 cells, far more than 8 N + 64: the grid is coarsened. The
    // particles are placed in an 8 mm cube at a corner, and those in the outer half of it along an
    // axis are moved by one box length: the clump straddles the faces and the edges.
    Preset p = cloud(0.1, SideKind::Periodic, 40, 7);
    p.particles.region = Region{Vec3::Constant(-0.05), Vec3::Constant(-0.042)};
    Session session(p);
    for (Vec3& x : session.edit_state().particles.position)
      for (int a = 0; a < 3; ++a)
        if (x[a] < -0.046) x[a] += 0.1;
    session.reinitialize();
    check_scene(session, 300, "sparse periodic 100 mm, clump across the faces");
  }
  SECTION("large: in cell order, the image skipped far from the faces, and positions out of the box") {
    // From 4 096 particles the scene is reordered by cell, the search skips the cells before a particle's own, and
    // (with every position in the box) the minimum image along the axes where the particle is farther than the reach
    // from both faces; a particle moved a box length out of the box turns the skipping off for that build.
    Preset p = cloud(20e-3, SideKind::Periodic, 5000, 9);
    p.box.z_min = p.box.z_max = SideKind::Wall;
    Session session(p);
    State state = session.state();
    build_neighbor_lists(session.model(), state);
    const ListCounts counts = check_fresh_lists(session.model(), state);
    for (size_t i = 0; i < state.particles.size(); i += 7)
      state.particles.position[i].x() += i % 2 == 0 ? 20e-3 : -20e-3;
    build_neighbor_lists(session.model(), state);
    check_fresh_lists(session.model(), state);
    std::printf("[figure] neighbour lists (large periodic xy, walls z): N = %zu, %zu contact / %zu dipole pairs\n",
                state.particles.size(), counts.contact, counts.dipole);
    CHECK(counts.dipole > 0);
  }
  SECTION("contact reach: rgap widens the contact lists") {
    Preset p = cloud(6e-3, SideKind::Wall, 60, 8);
    p.contact.linear.rgap = 0.2e-3;
    check_scene(p, 200, "walls, rgap 0.2 mm");
  }
}

TEST_CASE("the lists are rebuilt only after a particle moved more than half the skin", "[neighbor]") {
  // Two spheres far apart fly towards each other at v each, a third rests. Skin s = 0.1 mm; per
  // step each moves v dt = s / 21, so the displacement first exceeds s/2 after 11 steps (10.5
  // would be the threshold: half a step of margin against round-off). The criterion is per
  // particle (each moved <= s/2, so no pair distance shrank by more than s); the summed velocity
  // criterion of [Dominik-Nubold] eq. 50 would rebuild about twice as often. Rebuilds: one at
  // construction, then one every 11 steps.
  const double skin = 1e-4, dt = 1e-5;
  const double v = skin / 21.0 / dt;
  Preset p = bare_preset();
  p.integrator.time_step = dt;
  p.integrator.neighbor_skin = skin;
  p.particles.particles = {sphere(Vec3(-0.02, 0, 0), 0.5e-3, Vec3(v, 0, 0)),
                           sphere(Vec3(0.02, 0, 0), 0.5e-3, Vec3(-v, 0, 0)), sphere(Vec3(0, 0.02, 0), 0.5e-3)};
  Session session(p);
  REQUIRE(session.model().skin == skin);
  REQUIRE(session.state().neighbors.builds == 1);
  for (int n = 1; n <= 110; ++n) {
    run_checked(session, 1);
    INFO("step " << n);
    CHECK(session.state().neighbors.builds == static_cast<std::uint64_t>(1 + n / 11));
  }
  // Only the third particle moving, three times as fast: every 4 steps (3 v dt x 4 = 12/21 s > s/2,
  // 3 steps = 9/21 s < s/2).
  Session other(p);
  other.edit_state().particles.velocity = {Vec3::Zero(), Vec3::Zero(), Vec3(0, 0, 3.0 * v)};
  other.reinitialize();
  const std::uint64_t start = other.state().neighbors.builds;
  run_checked(other, 40);
  CHECK(other.state().neighbors.builds - start == 10);
}

TEST_CASE("a particle that crosses a periodic face rebuilds the lists by its displacement, not by its jump",
          "[neighbor]") {
  // The move check takes the minimum image of a displacement only when it exceeds the limit (a shorter one is shorter
  // than half the box, where the image changes nothing): a particle wrapped across the face jumps by a box length,
  // which the image takes back. As above, v dt = s / 21: a rebuild every 11 steps, the crossing (at step 3) or not.
  const double skin = 1e-4, dt = 1e-5;
  const double v = skin / 21.0 / dt;
  Preset p = bare_preset();
  p.integrator.time_step = dt;
  p.integrator.neighbor_skin = skin;
  p.box.min = Vec3(-0.005, -0.02, -0.02);
  p.box.max = Vec3(0.005, 0.02, 0.02);
  p.box.x_min = p.box.x_max = SideKind::Periodic;
  p.particles.particles = {sphere(Vec3(0.005 - 1.2e-5, 0, 0), 0.5e-3, Vec3(v, 0, 0)), sphere(Vec3(0, 0.01, 0), 0.5e-3)};
  Session session(p);
  REQUIRE(session.state().neighbors.builds == 1);
  bool crossed = false;
  for (int n = 1; n <= 44; ++n) {
    run_checked(session, 1);
    crossed = crossed || session.state().particles.position[0].x() < 0.0;
    INFO("step " << n);
    CHECK(session.state().neighbors.builds == static_cast<std::uint64_t>(1 + n / 11));
  }
  CHECK(crossed);
}

TEST_CASE("contact history survives a rebuild: it is keyed by the (id, id) pair", "[neighbor]") {
  // Two magnetised spheres head to tail, in contact (the dipoles press them together), the upper
  // one pushed sideways at 1 cm/s: the shear spring of their contact loads and unloads (amplitude
  // ~ v / omega ~ 0.6 um) and sticks (Coulomb limit 0.5 x 1.6 mN, reached at 1.6 um of shear). The same scene once more
  // with a non-magnetic sphere 20 mm away flying at 1 m/s: it forces a rebuild every few steps but exerts nothing on
  // the pair. If a rebuild lost or mixed up the history, the shear displacement would restart from
  // zero; with the history carried, the two runs are the same operations on the same numbers.
  auto scene = [](bool with_flyer) {
    Preset p = bare_preset();
    p.materials[0].magnetization = 1e5;
    p.materials[0].friction = 0.5;
    p.magnetics.method = DipoleMethod::Direct;
    p.particles.particles = {sphere(Vec3(0, 0, -0.4985e-3), 0.5e-3),
                             sphere(Vec3(0, 0, 0.4985e-3), 0.5e-3, Vec3(1e-2, 0, 0))};
    if (with_flyer) {
      ParticleEntry flyer = sphere(Vec3(0.02, 0, 0), 0.5e-3, Vec3(0, 1.0, 0));
      flyer.moment = 0.0;
      p.particles.particles.push_back(flyer);
    }
    return p;
  };
  Session quiet(scene(false)), busy(scene(true));
  auto pair_history = [](const Session& session) -> const ContactHistory& {
    const NeighborLists& lists = session.state().neighbors;
    for (size_t k = 0; k < lists.contact_pairs.size(); ++k)
      if (lists.contact_pairs[k].i == 0 && lists.contact_pairs[k].j == 1) return lists.contact_history[k];
    FAIL("pair (0, 1) is not in the contact list");
    return lists.contact_history.front();
  };
  double largest_shear = 0.0;
  for (int n = 0; n < 400; ++n) {
    run_checked(quiet, 1);
    run_checked(busy, 1);
    const ContactHistory& a = pair_history(quiet);
    const ContactHistory& b = pair_history(busy);
    INFO("step " << n);
    REQUIRE(a.active);
    REQUIRE(b.active);
    CHECK((a.shear - b.shear).norm() <= 1e-12 * a.shear.norm());
    CHECK(a.slipping == b.slipping);
    largest_shear = std::max(largest_shear, a.shear.norm());
  }
  const std::uint64_t extra_builds = busy.state().neighbors.builds - quiet.state().neighbors.builds;
  std::printf(
      "[figure] contact history: %llu extra rebuilds during 400 steps of a sticking contact, largest shear %.2e m, "
      "histories identical\n",
      static_cast<unsigned long long>(extra_builds), largest_shear);
  CHECK(extra_builds >= 20);
  CHECK(largest_shear > 1e-7);  // the history carried is not trivial
}

TEST_CASE("the contact pass's flags of active contacts follow the histories: steps, trial passes, removals, files",
          "[neighbor]") {
  // The contact pass skips a listed pair beyond reach unless its contact is active, and reads that from
  // NeighborLists::contact_active, a byte per pair beside the 80-byte histories. A flag left behind would skip the
  // opening of an active contact (its energy and events never booked) or evaluate a pair for nothing. Two scenes in
  // which contacts form and open: magnets falling in a walled box (velocity Verlet), and overlapping grains pushed
  // apart by overdamped Heun steps, whose trial pass works on copies of the histories. After every step,
  // after a grain in contact is removed, and in a checkpoint read back, the flags must equal the histories' own.
  auto flags_match = [](const NeighborLists& l) {
    if (l.contact_active.size() != l.contact_history.size()) return false;
    for (size_t k = 0; k < l.contact_history.size(); ++k)
      if ((l.contact_active[k] != 0) != l.contact_history[k].active) return false;
    return true;
  };
  auto active_count = [](const NeighborLists& l) {
    return std::count_if(l.contact_history.begin(), l.contact_history.end(),
                         [](const ContactHistory& h) { return h.active; });
  };
  for (const bool overdamped : {false, true}) {
    INFO((overdamped ? "overdamped Heun" : "velocity Verlet"));
    Preset preset = magnets_in_walled_box();
    if (overdamped) {
      preset = overdamped_grains_in_walled_box();  // the grains overlap at first: the phase lets them push apart
      preset.protocol = {overlap_removal_phase()};
    }
    Session sim(preset);
    long openings = 0, largest_active = 0;
    for (int n = 0; n < 400; ++n) {
      const NeighborLists before = sim.state().neighbors;
      run_checked(sim, 1);
      const NeighborLists& after = sim.state().neighbors;
      INFO("step " << n);
      REQUIRE(flags_match(after));
      largest_active = std::max(largest_active, static_cast<long>(active_count(after)));
      if (after.builds != before.builds) continue;  // the same list: count the contacts that opened in this step
      for (size_t k = 0; k < after.contact_history.size(); ++k)
        openings += before.contact_history[k].active && !after.contact_history[k].active ? 1 : 0;
    }
    std::printf("[figure] contact flags (%s): up to %ld contacts at once, %ld openings in 400 steps\n",
                overdamped ? "overdamped" : "Verlet", largest_active, openings);
    CHECK(openings >= 5);  // the flags were tested against changing histories
    REQUIRE(active_count(sim.state().neighbors) > 0);

    const NeighborLists& lists = sim.state().neighbors;
    const auto first = std::find_if(lists.contact_history.begin(), lists.contact_history.end(),
                                    [](const ContactHistory& h) { return h.active; });
    const IndexPair touching = lists.contact_pairs[static_cast<size_t>(first - lists.contact_history.begin())];
    const Checkpoint read_back = checkpoint_from_bytes(checkpoint_to_bytes(sim.document(), sim.state()));
    CHECK(flags_match(read_back.state.neighbors));
    CHECK(active_count(read_back.state.neighbors) == active_count(lists));

    const size_t before_removal = lists.contact_pairs.size();
    remove_body(sim.edit_state(), sim.state().particles.id[static_cast<size_t>(touching.i)]);
    REQUIRE(sim.state().neighbors.contact_pairs.size() < before_removal);
    CHECK(flags_match(sim.state().neighbors));
    sim.reinitialize();
    run_checked(sim, 20);
    CHECK(flags_match(sim.state().neighbors));
  }
}

TEST_CASE("the dipole list's bands follow the list: rebuilds, a checkpoint read back, a removal", "[neighbor]") {
  // A part of the dipole pass takes its window of particles from the bands kept per chunk of the list
  // (NeighborLists::dipole_bands, engine/core/pair_bands.hpp). Bands of another list would give a window too small
  // and forces lost without a sign, so a pass may use them only while they describe the list: after every rebuild
  // (made with it), after a checkpoint is read (made again: they are not stored), never after a removal renumbers
  // the pairs (the lists are invalid until rebuilt; the pass reads the pairs meanwhile).
  auto window_as_read = [](const NeighborLists& l, size_t n) {
    const PairListBands* bands = current_dipole_bands(l, n);
    if (bands == nullptr) return false;
    const ParticleWindow kept = pair_list_window(*bands, l.dipole_pairs.data(), 0, l.dipole_pairs.size());
    const ParticleWindow read = pair_list_window(l.dipole_pairs.data(), 0, l.dipole_pairs.size(), n);
    return kept.lo == read.lo && kept.hi == read.hi && kept.far_lo == read.far_lo && kept.far_hi == read.far_hi;
  };
  Session session(cloud(7e-3, SideKind::Periodic, 400, 10));  // some 8 000 dipole pairs: 15 chunks
  std::uint64_t builds = session.state().neighbors.builds;
  int rebuilds = 0;
  for (int step = 0; step < 200; ++step) {
    run_checked(session, 1);
    const NeighborLists& l = session.state().neighbors;
    rebuilds += l.builds != builds ? 1 : 0;
    builds = l.builds;
    INFO("step " << step);
    REQUIRE(l.dipole_pairs.size() > 2 * kPairBandChunk);
    REQUIRE(window_as_read(l, session.state().particles.size()));
  }
  CHECK(rebuilds >= 2);
  const Checkpoint read_back = checkpoint_from_bytes(checkpoint_to_bytes(session.document(), session.state()));
  CHECK(window_as_read(read_back.state.neighbors, read_back.state.particles.size()));

  remove_body(session.edit_state(), session.state().particles.id[0]);
  CHECK(current_dipole_bands(session.state().neighbors, session.state().particles.size()) == nullptr);
  session.reinitialize();
  run_checked(session, 1);
  CHECK(window_as_read(session.state().neighbors, session.state().particles.size()));
}

TEST_CASE("a contact whose two bodies swap order at a rebuild keeps its forces", "[neighbor]") {
  // The pair list orders a pair by index; reordering particles (large scenes, neighbor.cpp) can turn
  // a pair round. Its record is about "the first body" (shear of the first relative to the second,
  // its rolling angle, its sand pointer P1), so the carried record is turned too (swap_bodies). Check:
  // a strained contact, the particles' indices swapped, lists rebuilt: every force and torque, by
  // id, is what it was (same state, static force passes). Linear law with rolling resistance, and
  // the sand law (pointers P1 <-> P2, Q1 <-> Q2).
  for (ContactLaw law : {ContactLaw::Linear, ContactLaw::Sand}) {
    INFO((law == ContactLaw::Linear ? "linear + rolling" : "sand"));
    Preset p = bare_preset();
    p.materials[0].friction = 0.5;
    p.materials[0].surface_energy = 0.05;
    p.contact.law = law;
    p.contact.rolling.enabled = true;
    p.contact.sand.sliding_limit = p.contact.sand.rolling_limit = 1e-6;  // elastic throughout
    p.particles.particles = {sphere(Vec3(0, 0, -0.4999e-3), 0.5e-3, Vec3(1e-4, 0, 0)),
                             sphere(Vec3(0, 0, 0.4999e-3), 0.5e-3, Vec3(0, -1e-4, 0))};
    p.particles.particles[0].angular_velocity = Vec3(2, -1, 3);
    p.particles.particles[1].angular_velocity = Vec3(-1, 2, 1);
    p.particles.particles[1].axis = Vec3(1, 1, 0).normalized();
    p.integrator.time_step = 1e-6;  // 20 steps load the springs long before the linear pair flies apart
    Session session(p);
    run_checked(session, 20);
    session.reinitialize();  // a static force pass on this state
    State& s = session.edit_state();
    REQUIRE(s.neighbors.contact_history.size() == 1);
    REQUIRE(s.neighbors.contact_history[0].active);
    const std::vector<std::uint64_t> ids = s.particles.id;
    const std::vector<Vec3> force = s.particles.force, torque = s.particles.torque;

    s.particles.permute({1, 0});
    for (IndexPair& pr : s.neighbors.contact_pairs) std::swap(pr.i, pr.j);  // the same pair, (1, 0) now
    session.reinitialize();  // rebuilds the lists: the pair is (0, 1) again, its bodies the other way round
    const Particles& q = session.state().particles;
    REQUIRE(q.id[0] == ids[1]);
    REQUIRE(session.state().neighbors.contact_history[0].active);
    for (size_t k = 0; k < 2; ++k) {
      const size_t before = 1 - k;  // the particle now at k was at 1 - k
      CHECK((q.force[k] - force[before]).norm() <= 1e-12 * force[before].norm());
      CHECK((q.torque[k] - torque[before]).norm() <= 1e-12 * torque[before].norm());
    }
    CHECK(torque[0].norm() > 0.0);
  }
}

TEST_CASE("cutoff dipole forces equal the direct sum when the cutoff exceeds the box diagonal", "[neighbor]") {
  // 30 magnetised spheres in a closed 6 mm box (diagonal 10.4 mm), cutoff 12 mm: every pair is in
  // the cutoff list, and the pair loop visits them in the same (i, j) order as the direct sum, so
  // forces, torques and energies agree to round-off along a whole run with collisions.
  Preset p = cloud(6e-3, SideKind::Wall, 30, 9);
  p.magnetics.cutoff = 12e-3;
  Preset q = p;
  q.magnetics.method = DipoleMethod::Direct;
  Session cut(p), direct(q);
  REQUIRE(cut.state().neighbors.dipole_pairs.size() == 30 * 29 / 2);
  double worst_force = 0.0, worst_torque = 0.0;
  for (int n = 0; n <= 300; ++n) {
    if (n > 0) {
      run_checked(cut, 1);
      run_checked(direct, 1);
    }
    const Particles& a = cut.state().particles;
    const Particles& b = direct.state().particles;
    double f_scale = 0.0, t_scale = 0.0;
    for (size_t i = 0; i < a.size(); ++i) {
      f_scale = std::max(f_scale, b.force[i].norm());
      t_scale = std::max(t_scale, b.torque[i].norm());
    }
    for (size_t i = 0; i < a.size(); ++i) {
      worst_force = std::max(worst_force, (a.force[i] - b.force[i]).norm() / f_scale);
      worst_torque = std::max(worst_torque, (a.torque[i] - b.torque[i]).norm() / t_scale);
    }
    CHECK(cut.observe().dipole == Approx(direct.observe().dipole).epsilon(1e-12));
  }
  std::printf(
      "[figure] cutoff vs direct (cutoff > box diagonal): largest force difference %.1e, torque %.1e (relative)\n",
      worst_force, worst_torque);
  CHECK(worst_force <= 1e-12);
  CHECK(worst_torque <= 1e-12);
  CHECK(cut.state().events.total(EventKind::ContactActivated) > 0);
}

TEST_CASE("cutoff dipole forces in a periodic box equal a minimum-image sum truncated at r_c", "[neighbor]") {
  // Independent computation of the cutoff method: all N(N-1)/2 pairs, minimum image, pairs with
  // r < r_c, the closed-form pair force and torques (engine/magnetic/dipole.hpp, tested against finite
  // differences in test_dipole.cpp). No particles touch (random placement, no rgap), no field: the
  // engine's forces are the dipole forces alone. 7 mm periodic box, r_c = 2 mm: pairs across the
  // faces interact through the minimum image.
  Preset p = cloud(7e-3, SideKind::Periodic, 60, 10);
  Session session(p);
  run_checked(session, 50);  // move them a little (and across the faces)
  const Model& model = session.model();
  const Particles& s = session.state().particles;
  REQUIRE(session.observe().particle_contacts == 0);
  int across_faces = 0;
  const DipoleSums expected = pair_formula_sum(s, [&](size_t i, size_t j) -> std::optional<Vec3> {
    const Vec3 raw = s.position[i] - s.position[j];
    const Vec3 r = minimum_image(model, raw);
    if (r.norm() >= model.dipole_cutoff) return std::nullopt;
    if ((r - raw).norm() > 0.0) ++across_faces;
    return r;
  });
  const double f_scale = largest_norm(expected.force), t_scale = largest_norm(expected.torque);
  for (size_t i = 0; i < s.size(); ++i) {
    INFO("particle " << i);
    CHECK((s.force[i] - expected.force[i]).norm() <= 1e-12 * f_scale);
    CHECK((s.torque[i] - expected.torque[i]).norm() <= 1e-12 * t_scale);
  }
  CHECK(session.observe().dipole == Approx(expected.energy).epsilon(1e-12));
  CHECK(across_faces > 0);
}
