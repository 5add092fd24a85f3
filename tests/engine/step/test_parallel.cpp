// The engine's threads (engine/core/thread_team.hpp, issue 7): the team itself, and the determinism rules.
// With the same preset and thread count two runs are bit-identical; with different thread counts they
// agree to round-off. The scene is large enough that every parallel stage really splits its work
// (neighbour rebuilds, contacts with walls, dipole pairs, integration), with friction, damping, walls and
// gravity so that contact history and events are part of what must agree.

#include "engine/bodies/bonds.hpp"
#include "engine/bodies/clumps.hpp"
#include "engine/contact/contacts.hpp"
#include "engine/core/pair_bands.hpp"
#include "engine/core/team_rehearsal.hpp"
#include "engine/core/thread_team.hpp"
#include "engine/magnetic/field.hpp"
#include "engine/session/session.hpp"
#include "engine/step/environment_forces.hpp"
#include "engine/step/health.hpp"
#include "engine/step/integrator.hpp"
#include "engine/step/neighbor.hpp"
#include "engine/step/thermal.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/test_support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace lodestone;
using lodestone::testing::same_bits;

namespace {

// Dense jittered bcc packing of 2 cells^3 magnetic beads (volume fraction 0.5), periodic in x and y,
// walls below and above, gravity, a field, linear contacts with friction and dashpots, random velocities;
// a thin skin so that the lists are rebuilt during the run.
Preset dense_scene(int cells) {
  Preset p = testing::bare_preset();
  const double d = 1e-3;
  const double a = std::cbrt(2.0 * M_PI / 6.0 / 0.5) * d;
  p.materials[0].kn = 2e3;
  p.materials[0].ks = 1.5e3;
  p.materials[0].friction = 0.4;
  p.materials[0].magnetization = 5e4;
  p.contact.law = ContactLaw::Linear;
  p.contact.linear.dp_nratio = 0.3;
  p.contact.linear.dp_sratio = 0.2;
  p.magnetics.method = DipoleMethod::Cutoff;
  p.magnetics.cutoff = 3.0 * d;
  p.field.strength = 0.02;
  p.environment.gravity = Vec3(0, 0, -9.81);
  p.box.min = Vec3::Zero();
  p.box.max = Vec3::Constant(cells * a);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = SideKind::Periodic;
  p.box.z_min = p.box.z_max = SideKind::Wall;
  p.integrator.neighbor_skin = 0.02 * d;
  p.particles.kind = GeneratorKind::Lattice;
  p.particles.lattice = LatticeKind::BodyCentredCubic;
  p.particles.count = 2 * cells * cells * cells;
  p.particles.diameter = d;
  p.particles.spacing = a;
  p.particles.jitter = 0.02 * d;
  p.particles.velocity_spread = 0.02;  // [m/s]
  return p;
}

Session run_scene(const Preset& preset, int threads, int steps) {
  Session session(preset);
  session.set_threads(threads);
  testing::run_checked(session, steps);
  return session;
}

// `count` bars of `pebbles` pebbles (radius 0.4 mm, 0.6 mm apart) on layers of 30 x 30 sites `pitch` apart (layers two
// pitches apart), pointing at random; moving and turning at random when `moving`.
std::vector<ClumpEntry> bar_lattice(int count, int pebbles, double pitch, std::mt19937_64& g, bool moving) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<ClumpEntry> bars;
  for (int k = 0; k < count; ++k) {
    ClumpEntry e;
    e.shape = ClumpShape::Bar;
    e.position =
        Vec3(pitch * (k % 30) + 0.5 * pitch, pitch * ((k / 30) % 30) + 0.5 * pitch, 2.0 * pitch * (k / 900) + pitch);
    e.axis = Vec3(u(g), u(g), u(g)).normalized();
    e.count = pebbles;
    e.pebble_radius = 0.4e-3;
    e.spacing = 0.6e-3;
    if (moving) {
      e.velocity = 0.2 * Vec3(u(g), u(g), u(g));
      e.angular_velocity = 100.0 * Vec3(u(g), u(g), u(g));
    }
    bars.push_back(e);
  }
  return bars;
}

// Largest |a_i - b_i| over particles and components.
double largest_difference(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double worst = 0.0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, (a[i] - b[i]).cwiseAbs().maxCoeff());
  return worst;
}
double largest_vector_norm(const std::vector<Vec3>& a) {
  double worst = 0.0;
  for (const Vec3& v : a) worst = std::max(worst, v.norm());
  return worst;
}

}  // namespace

TEST_CASE("thread team: every part runs once, on its own index, and errors reach the caller", "[parallel][threading]") {
  ThreadTeam team(3);
  CHECK(team.size() == 3);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::atomic<int>> calls(3);
    const int parts = 1 + round % 3;
    team.run(parts, [&](int k) { calls[static_cast<size_t>(k)].fetch_add(1); });
    for (int k = 0; k < 3; ++k) CHECK(calls[static_cast<size_t>(k)].load() == (k < parts ? 1 : 0));
  }
  CHECK_THROWS_WITH(team.run(3,
                             [](int k) {
                               if (k == 2) throw std::runtime_error("part 2 failed");
                             }),
                    "part 2 failed");
  // The team still works after an error.
  std::atomic<int> total{0};
  team.run(3, [&](int k) { total += k + 1; });
  CHECK(total.load() == 6);
  // More parts than threads: each runs once, on whichever thread claims it first.
  std::vector<std::atomic<int>> many(10);
  team.run(10, [&](int k) { many[static_cast<size_t>(k)].fetch_add(1); });
  for (const std::atomic<int>& c : many) CHECK(c.load() == 1);

  const std::vector<size_t> b = split_evenly(10, 3);
  CHECK(b == std::vector<size_t>{0, 3, 6, 10});
  CHECK(split_evenly(0, 2) == std::vector<size_t>{0, 0, 0});
  CHECK(parts_for(team, 100, 1000) == 1);
  CHECK(parts_for(team, 2500, 1000) == 2);
  CHECK(parts_for(team, 1'000'000, 1000) == 3);
  CHECK(parts_for(ThreadTeam::serial(), 1'000'000, 1) == 1);
  CHECK(fine_parts_for(team, 2500, 1000, 4) == 2);
  CHECK(fine_parts_for(team, 1'000'000, 1000, 4) == 12);
  CHECK(fine_parts_for(ThreadTeam::serial(), 1'000'000, 1, 4) == 1);
}

TEST_CASE("thread team: the parts of a thread held up are run by the others", "[parallel][threading]") {
  // The caller's part 0 waits until every other part is done: its own block (parts 1-3 of 12 on 3 threads) must be
  // taken over by the workers, each part once. Were they not, the caller would run them itself after 10 s, late.
  ThreadTeam team(3);
  constexpr int kParts = 12;
  std::vector<std::atomic<int>> calls(kParts);
  std::vector<std::thread::id> ran_on(kParts);
  std::atomic<int> others_done{0};
  bool others_finished_first = false;
  const std::thread::id caller = std::this_thread::get_id();
  team.run(kParts, [&](int k) {
    calls[static_cast<size_t>(k)].fetch_add(1);
    ran_on[static_cast<size_t>(k)] = std::this_thread::get_id();
    if (k > 0) {
      others_done.fetch_add(1);
      return;
    }
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (others_done.load() < kParts - 1 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    others_finished_first = others_done.load() == kParts - 1;
  });
  CHECK(others_finished_first);
  for (int k = 0; k < kParts; ++k) {
    INFO("part " << k);
    CHECK(calls[static_cast<size_t>(k)].load() == 1);
    CHECK((ran_on[static_cast<size_t>(k)] == caller) == (k == 0));
  }
}

TEST_CASE("thread team: a pair loop clears and adds each part's arrays over its window only, to the same bits",
          "[parallel][threading]") {
  // A Verlet-like list over 3000 particles, ordered by i, each i with partners j > i no more than 200 further on
  // (a band, as in cell order), the first 600 also with partners among the last 150 (across periodic faces), and a
  // force and torque per pair that depend on (i, j). Run with each part's window from the list (pair_list_window:
  // a band, and a second one for the far partners) and with whole arrays: the same bits, and the same as a serial
  // sum to round-off. Two rounds, so that the second finds the first's values left in the parts' arrays outside
  // their windows.
  const size_t n = 3000;
  const int wrapping = 600, wrapped = 150;  // parts after the first have far partners too
  std::vector<IndexPair> pairs;
  for (int i = 0; i < static_cast<int>(n); ++i) {
    for (int j = i + 1; j < std::min(static_cast<int>(n), i + 200); j += 1 + (i * 7 + j) % 5) pairs.push_back({i, j});
    if (i < wrapping)
      for (int j = static_cast<int>(n) - wrapped + i % 7; j < static_cast<int>(n); j += 3 + i % 4)
        pairs.push_back({i, j});
  }
  REQUIRE(pairs.size() > 30000);
  const auto push = [](const IndexPair& q) {
    const double x = std::sin(0.37 * q.i + 1.3 * q.j);
    return Vec3(x, 1.0 / (1.0 + q.j - q.i), x * x - 0.5);
  };
  const auto pair_loop = [&](size_t begin, size_t end, Vec3* f, Vec3* t) {
    for (size_t k = begin; k < end; ++k) {
      const Vec3 v = push(pairs[k]);
      f[pairs[k].i] += v;
      f[pairs[k].j] -= v;
      t[pairs[k].i] += 0.5 * v;
      t[pairs[k].j] += 0.25 * v;
    }
    return 0;
  };
  std::vector<Vec3> serial_f(n, Vec3::Zero()), serial_t(n, Vec3::Zero());
  pair_loop(0, pairs.size(), serial_f.data(), serial_t.data());

  ThreadTeam team(3);
  for (int round = 0; round < 2; ++round) {
    std::vector<Vec3> banded_f(n, Vec3::Zero()), banded_t(n, Vec3::Zero()), whole_f(n, Vec3::Zero()),
        whole_t(n, Vec3::Zero());
    std::atomic<bool> bands{true};  // checked here, on this thread (Catch's assertions are not thread-safe)
    run_pair_parts<int>(
        team, pairs.size(), 1000, n, banded_f.data(), banded_t.data(),
        [&](size_t begin, size_t end) {
          const ParticleWindow w = pair_list_window(pairs.data(), begin, end, n);
          const auto first_i = static_cast<size_t>(pairs[begin].i), last_i = static_cast<size_t>(pairs[end - 1].i);
          if (w.lo != first_i || w.hi > std::min(n, last_i + 200)) bands = false;
          // A far band for the parts with far partners only, within the last 150.
          const bool far = w.far_lo < w.far_hi;
          if (far != (first_i < static_cast<size_t>(wrapping) && last_i + 200 < n - wrapped)) bands = false;
          if (far && (w.far_lo < n - wrapped || w.far_hi != n)) bands = false;
          return w;
        },
        [&](int, size_t begin, size_t end, Vec3* f, Vec3* t) { return pair_loop(begin, end, f, t); });
    run_pair_parts<int>(
        team, pairs.size(), 1000, n, whole_f.data(), whole_t.data(),
        [&](size_t, size_t) {
          return ParticleWindow{0, n};
        },
        [&](int, size_t begin, size_t end, Vec3* f, Vec3* t) { return pair_loop(begin, end, f, t); });
    bool same = true;
    double worst = 0.0;
    for (size_t i = 0; i < n; ++i) {
      same = same && same_bits(banded_f[i], whole_f[i]) && same_bits(banded_t[i], whole_t[i]);
      worst = std::max({worst, (banded_f[i] - serial_f[i]).norm(), (banded_t[i] - serial_t[i]).norm()});
    }
    CHECK(bands.load());  // each part's window from its first i to within the band, and the far band
    CHECK(same);
    CHECK(worst < 1e-12);  // sums of about 120 terms of order 1
  }
}

TEST_CASE("thread team: a pair list's bands kept per chunk give every run of pairs the window read pair by pair",
          "[parallel]") {
  // The bands of a run of pairs are minima and maxima, so those kept per chunk of kPairBandChunk pairs
  // (engine/core/pair_bands.hpp) put together with the pairs of the chunks a run only cuts must give the window that
  // reading the run gives: checked on a list like a periodic Verlet list's (near partners, and far ones across the
  // faces for the first particles) for runs that start and end on chunk boundaries, inside one chunk, across one,
  // empty and whole, and at random.
  const size_t n = 4000;
  std::vector<IndexPair> pairs;
  for (int i = 0; i < static_cast<int>(n); ++i) {
    for (int j = i + 1; j < std::min(static_cast<int>(n), i + 150); j += 1 + (i * 5 + j) % 7) pairs.push_back({i, j});
    if (i < 500)
      for (int j = static_cast<int>(n) - 120 + i % 5; j < static_cast<int>(n); j += 4 + i % 3) pairs.push_back({i, j});
  }
  const size_t chunk = kPairBandChunk;
  REQUIRE(pairs.size() > 20 * chunk);
  PairListBands bands;
  bands.reset(7, n, pairs.size());
  summarise_pair_bands(pairs.data(), 0, bands.chunks.size(), bands);
  REQUIRE(bands.describes(7, n, pairs.size()));
  CHECK_FALSE(bands.describes(8, n, pairs.size()));  // another build's list
  CHECK_FALSE(bands.describes(7, n - 1, pairs.size()));
  CHECK_FALSE(bands.describes(7, n, pairs.size() - 1));

  std::vector<std::pair<size_t, size_t>> runs = {{0, pairs.size()},
                                                 {0, 0},
                                                 {chunk, 3 * chunk},
                                                 {1, chunk - 1},
                                                 {5, chunk + 5},
                                                 {chunk - 1, 4 * chunk + 1},
                                                 {pairs.size() - 3, pairs.size()}};
  std::mt19937 pick(11);
  for (int r = 0; r < 300; ++r) {
    size_t a = pick() % (pairs.size() + 1), b = pick() % (pairs.size() + 1);
    runs.emplace_back(std::min(a, b), std::max(a, b));
  }
  int with_far_band = 0;
  for (const auto& [begin, end] : runs) {
    const ParticleWindow read = pair_list_window(pairs.data(), begin, end, n);
    const ParticleWindow kept = pair_list_window(bands, pairs.data(), begin, end);
    const ParticleWindow via_pointer = pair_list_window(&bands, pairs.data(), begin, end, n);
    const bool same = kept.lo == read.lo && kept.hi == read.hi && kept.far_lo == read.far_lo &&
                      kept.far_hi == read.far_hi && via_pointer.lo == read.lo && via_pointer.far_hi == read.far_hi;
    if (!same) FAIL_CHECK("pairs [" << begin << ", " << end << "): the kept bands give another window");
    with_far_band += read.far_lo < read.far_hi ? 1 : 0;
  }
  CHECK(with_far_band > 20);  // the far band was put together from chunks too
}

TEST_CASE("thread team: a rehearsed round's time on T threads is its parts handed out in order as threads free up",
          "[parallel]") {
  // By hand: the caller takes the first part, the other threads the next ones, and each later part the thread that
  // finishes first (engine/core/team_rehearsal.hpp).
  CHECK(makespan_on_threads({3.0, 1.0, 1.0, 1.0}, 2) == 3.0);            // caller 3; the other 1 + 1 + 1
  CHECK(makespan_on_threads({1.0, 1.0, 1.0, 1.0, 4.0}, 2) == 6.0);       // 1 + 1 + 4 and 1 + 1
  CHECK(makespan_on_threads({2.0, 2.0, 2.0, 2.0}, 16) == 2.0);           // more threads than parts
  CHECK(makespan_on_threads({2.0, 0.5, 3.0}, 1) == 5.5);                 // one thread: one after another
  CHECK(makespan_on_threads({4.0, 1.0, 1.0, 1.0, 1.0, 1.0}, 3) == 4.0);  // 4; 1 + 1 + 1; 1 + 1
  CHECK(makespan_on_threads({}, 4) == 0.0);
}

TEST_CASE("threads: two runs with the same thread count are bit-identical", "[parallel]") {
  const Preset preset = dense_scene(14);  // 5488 beads: every stage splits over 2 threads
  const int steps = 30;
  const Session a = run_scene(preset, 2, steps);
  const Session b = run_scene(preset, 2, steps);
  const State& s = a.state();
  const State& t = b.state();
  REQUIRE(s.neighbors.builds > 1);  // rebuilt during the run, on two threads
  REQUIRE(s.events.total(EventKind::ContactActivated) > 0);
  REQUIRE(s.events.total(EventKind::SlipStarted) > 0);
  CHECK(same_bits(s.particles.position, t.particles.position));
  CHECK(same_bits(s.particles.velocity, t.particles.velocity));
  CHECK(same_bits(s.particles.angular_velocity, t.particles.angular_velocity));
  CHECK(same_bits(s.particles.orientation, t.particles.orientation));
  CHECK(same_bits(s.particles.force, t.particles.force));
  CHECK(same_bits(s.particles.torque, t.particles.torque));
  CHECK(same_bits(s.energy.elastic, t.energy.elastic));
  CHECK(same_bits(s.energy.dipole, t.energy.dipole));
  CHECK(same_bits(s.energy.dissipated_friction, t.energy.dissipated_friction));
  CHECK(same_bits(s.energy.dissipated_dashpot, t.energy.dissipated_dashpot));
  CHECK(s.events.count == t.events.count);
}

TEST_CASE("threads: 1, 2 and 3 threads agree to round-off, with the same lists and events", "[parallel]") {
  const Preset preset = dense_scene(14);
  const int steps = 30;
  const Session one = run_scene(preset, 1, steps);
  const double d = preset.particles.diameter;
  const double speed = largest_vector_norm(one.state().particles.velocity);
  const double force = largest_vector_norm(one.state().particles.force);
  const double energy_scale = std::abs(one.state().energy.dipole);
  for (int threads : {2, 3}) {
    INFO(threads << " threads");
    const Session many = run_scene(preset, threads, steps);
    const State& s = one.state();
    const State& t = many.state();
    // The neighbour lists do not depend on the split at all (each particle's partners in index order).
    CHECK(s.neighbors.builds == t.neighbors.builds);
    CHECK(s.neighbors.contact_pairs.size() == t.neighbors.contact_pairs.size());
    CHECK(s.neighbors.dipole_pairs.size() == t.neighbors.dipole_pairs.size());
    // Sums grouped differently differ in the last bits (1e-16 relative); 30 steps of contacts amplify
    // that by at most a few orders of magnitude. 1e-11 of the scale is far above round-off and far below
    // any real change (a missing pair moves forces by 1e-3 of their size or more).
    CHECK(largest_difference(s.particles.position, t.particles.position) < 1e-11 * d);
    CHECK(largest_difference(s.particles.velocity, t.particles.velocity) < 1e-11 * speed);
    CHECK(largest_difference(s.particles.force, t.particles.force) < 1e-9 * force);
    CHECK(std::abs(s.energy.dipole - t.energy.dipole) < 1e-12 * energy_scale);
    // Events are recorded in the same order as one thread makes them.
    CHECK(s.events.count == t.events.count);
    const std::vector<Event> ea = s.events.recent_in_order(), eb = t.events.recent_in_order();
    REQUIRE(ea.size() == eb.size());
    bool same_events = true;
    for (size_t k = 0; k < ea.size(); ++k)
      same_events = same_events && ea[k].step == eb[k].step && ea[k].kind == eb[k].kind && ea[k].id_a == eb[k].id_a &&
                    ea[k].id_b == eb[k].id_b;
    CHECK(same_events);
  }
}

TEST_CASE("threads: a short dense run on two threads for the thread sanitizer", "[parallel][threading]") {
  // Every parallel stage once or twice (the TSan build runs the [threading] tests).
  const Preset preset = dense_scene(14);
  const Session two = run_scene(preset, 2, 2);
  CHECK(two.state().particles.size() == 5488);
  CHECK(std::isfinite(two.state().energy.dipole));
}

// The stages whose forces are each particle's own or are added in pair order (issue 38): the contact laws run in
// parallel parts, their pushes are added in pair order; the field, gravity and damping write only their own
// particles. Their forces and torques are bit-identical on any number of threads; their energies agree to round-off.
TEST_CASE("threads: contact, field and damping forces do not depend on the thread count", "[parallel]") {
  Preset preset = dense_scene(14);
  preset.environment.translational_damping = 0.05;
  preset.environment.rotational_damping = 0.02;
  preset.field.gradient(2, 2) = 0.5;  // a gradient force as well as the torque
  Session session = run_scene(preset, 1, 10);
  const Model& model = session.model();
  const double dt = model.time_step;
  auto stages_on = [&](int threads) {
    ThreadTeam team(threads);
    State s = session.state();
    for (size_t i = 0; i < s.particles.size(); ++i) {
      s.particles.force[i].setZero();
      s.particles.torque[i].setZero();
    }
    compute_contact_forces(model, s, dt, team, nullptr);
    apply_field(model, s, dt, team);
    apply_gravity_and_damping(model, s, dt, team);
    return s;
  };
  const State one = stages_on(1);
  REQUIRE(one.energy.elastic > 0.0);  // contacts act
  for (int threads : {2, 3}) {
    INFO(threads << " threads");
    const State many = stages_on(threads);
    CHECK(same_bits(one.particles.force, many.particles.force));
    CHECK(same_bits(one.particles.torque, many.particles.torque));
    // The forces on the walls and the energies are sums grouped per part, so equal to the last bits of their size (a
    // few parts of 1e-16 each).
    for (size_t side = 0; side < 6; ++side) {
      INFO("side " << side);
      CHECK((one.wall_force[side] - many.wall_force[side]).norm() <= 1e-13 * one.wall_force[side].norm());
    }
    CHECK(std::abs(one.energy.elastic - many.energy.elastic) <= 1e-13 * std::abs(one.energy.elastic));
    CHECK(std::abs(one.energy.zeeman - many.energy.zeeman) <= 1e-13 * std::abs(one.energy.zeeman));
    CHECK(std::abs(one.energy.dissipated_viscous - many.energy.dissipated_viscous) <=
          1e-13 * std::abs(one.energy.dissipated_viscous) + 1e-300);
  }
}

// The pushes of the contacts that act are added band by band of particles on the team, each particle's in pair order
// (engine/contact/contacts.cpp, add_pushes). A bed packed so that every bead presses on its eight nearest neighbours
// (2.9 % of a diameter each), so that most beads are pushed from pairs in more than one part of the pair loop (the list
// joins rows of many parts around a bead: the spatial sort puts a bead's neighbours up to a layer away in index):
// any order but the pair order changes the last bits of some sums.
TEST_CASE("threads: a packed bed's contact forces, every bead pressed, do not depend on the thread count",
          "[parallel][threading]") {
  Preset preset = dense_scene(14);
  const double d = preset.particles.diameter;
  const double a = 1.001 * d * 2.0 / std::sqrt(3.0);  // nearest neighbours just apart; the beads grown below
  preset.particles.spacing = a;
  preset.particles.jitter = 0.0;
  preset.box.max = Vec3::Constant(14 * a);
  const Session session(preset);
  const Model& model = session.model();
  auto contacts_on = [&](int threads) {
    ThreadTeam team(threads);
    State s = session.state();
    for (double& r : s.particles.radius) r *= 1.03;  // each overlaps its eight nearest neighbours by 2.9 % of d
    build_neighbor_lists(model, s, team);
    for (size_t i = 0; i < s.particles.size(); ++i) {
      s.particles.force[i].setZero();
      s.particles.torque[i].setZero();
    }
    compute_contact_forces(model, s, model.time_step, team, nullptr);
    return s;
  };
  const State one = contacts_on(1);
  const size_t n = one.particles.size();
  REQUIRE(n == 5488);
  REQUIRE(one.neighbors.contact_pairs.size() > 3 * n);  // about four a bead: 16 parts on 4 threads
  size_t pressed = 0;
  for (size_t i = 0; i < n; ++i) pressed += one.particles.force[i].squaredNorm() > 0.0;
  REQUIRE(pressed == n);
  for (int threads : {2, 3, 4}) {
    INFO(threads << " threads");
    const State many = contacts_on(threads);
    CHECK(same_bits(one.particles.force, many.particles.force));
    CHECK(same_bits(one.particles.torque, many.particles.torque));
  }
}

// The overdamped (Heun) step's sweeps on the team (issue 38): each particle's slopes, noise, advance and wrap are its
// own, and the largest speed is a maximum, so 1, 2 and 3 threads give the same bits. A bed in a box periodic along x
// and y (the advance wraps), two particles held (one in position, one in orientation), forces and torques at random,
// and whole overdamped steps of a session at 300 K without dipoles (whose pair sums the thread count groups) beside it.
TEST_CASE("threads: the overdamped step's sweeps give the same bits on any number of threads",
          "[parallel][threading]") {
  Preset preset = dense_scene(14);
  preset.integrator.scheme = IntegratorScheme::OverdampedHeun;
  preset.environment.translational_damping = 0.05;
  preset.environment.rotational_damping = 0.02;
  preset.environment.temperature = 300.0;
  const Session session = run_scene(preset, 1, 2);
  const Model& model = session.model();
  State start = session.state();
  REQUIRE(start.particles.size() > 5000);
  std::mt19937_64 g(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (size_t i = 0; i < start.particles.size(); ++i) {
    start.particles.force[i] = 1e-3 * Vec3(u(g), u(g), u(g));
    start.particles.torque[i] = 1e-7 * Vec3(u(g), u(g), u(g));
  }
  start.particles.hold[10] = static_cast<std::uint8_t>(HoldKind::Position);
  start.particles.hold[11] = static_cast<std::uint8_t>(HoldKind::Orientation);
  const double dt = 0.05;  // long enough that some particles cross a periodic face
  struct Sweeps {
    State state;
    OverdampedSlopes k0, k1, noise;
  };
  const auto sweeps_on = [&](int threads) {
    ThreadTeam team(threads);
    Sweeps out{start, {}, {}, {}};
    StepOrigin origin;
    overdamped_slopes(model, out.state, out.k0, team);
    brownian_slopes(model, out.state, dt, out.noise, team);
    add_slopes(out.noise, out.k0, team);
    save_origin(out.state, origin, team);
    advance_from(model, origin, out.k0.velocity, out.k0.angular_velocity, 0.0, dt, out.state, team);
    overdamped_slopes(model, out.state, out.k1, team);
    mean_slopes(out.k0, out.k1, team);
    advance_from(model, origin, out.k1.velocity, out.k1.angular_velocity, 0.0, dt, out.state, team);
    return out;
  };
  const Sweeps one = sweeps_on(1);
  REQUIRE(one.k0.max_speed > 0.0);
  REQUIRE(one.state.particles.image != start.particles.image);  // something wrapped
  REQUIRE(same_bits(one.state.particles.position[10], start.particles.position[10]));
  for (int threads : {2, 3}) {
    INFO(threads << " threads");
    const Sweeps many = sweeps_on(threads);
    CHECK(same_bits(one.k0.max_speed, many.k0.max_speed));
    CHECK(same_bits(one.k1.velocity, many.k1.velocity));
    CHECK(same_bits(one.k1.angular_velocity, many.k1.angular_velocity));
    CHECK(same_bits(one.state.particles.position, many.state.particles.position));
    CHECK(same_bits(one.state.particles.orientation, many.state.particles.orientation));
    CHECK(one.state.particles.image == many.state.particles.image);
  }
  // Whole steps of a session (the trial pass's backup of the histories copied on the team too) on 1 and 3 threads,
  // without the dipoles, whose pair sums are grouped by the thread count.
  preset.magnetics.method = DipoleMethod::Off;
  const Session a = run_scene(preset, 1, 5), b = run_scene(preset, 3, 5);
  REQUIRE(a.state().energy.elastic > 0.0);  // contacts act, with histories to back up
  CHECK(same_bits(a.state().particles.position, b.state().particles.position));
  CHECK(same_bits(a.state().particles.orientation, b.state().particles.orientation));
}

// Bonds and clumps on the team (issue 38): the bonds are worked out in parallel parts and added in bond order, the
// clumps' half steps and their pebbles' placement write only their own items. So all of it is bit-identical on any
// number of threads, breaking bonds and the energy books included.
TEST_CASE("threads: bonds and clumps give the same bits on any number of threads", "[parallel][threading]") {
  SECTION("bonds: 23 296 of them, in 45 parts of 512, their pushes added in two ranges of particles, five breaking") {
    Preset p = testing::bare_preset();
    p.particles.kind = GeneratorKind::Lattice;
    p.particles.count = 16 * 16 * 32;
    p.particles.diameter = 1e-3;
    p.particles.orientation = OrientationKind::Random;
    p.particles.region = Region{Vec3::Zero(), Vec3(16e-3, 16e-3, 32e-3)};
    p.particles.velocity_spread = 1e-2;
    p.bonds.create = BondCreation::Touching;
    p.bonds.damping_ratio = 0.5;
    const Session session = run_scene(p, 1, 5);  // moving and turning: damping and every end rotation at work
    Model model = session.model();
    State moved = session.state();
    REQUIRE(moved.bonds.size() == 23296);
    // One particle inside the block pulled along x by a fifth of a diameter: the bond it stretches by 20 % and the four
    // it bends across break, the one it compresses holds (the other bonds are strained by 1e-5 or less).
    moved.particles.position[777].x() += 0.2e-3;
    model.bonds.tensile_strength = 0.05 * model.bonds.youngs_modulus;
    const auto bonds_on = [&](int threads) {
      ThreadTeam team(threads);
      State s = moved;
      for (size_t i = 0; i < s.particles.size(); ++i) {
        s.particles.force[i].setZero();
        s.particles.torque[i].setZero();
      }
      compute_bond_forces(model, s, model.time_step, team);
      return s;
    };
    const State one = bonds_on(1);
    REQUIRE(one.broken_bonds == 5);
    REQUIRE(one.energy.elastic > 0.0);
    REQUIRE(one.energy.dissipated_dashpot != 0.0);
    for (int threads : {2, 3}) {
      INFO(threads << " threads");
      const State many = bonds_on(threads);
      CHECK(many.broken_bonds == one.broken_bonds);
      CHECK(same_bits(one.particles.force, many.particles.force));
      CHECK(same_bits(one.particles.torque, many.particles.torque));
      CHECK(same_bits(one.energy.elastic, many.energy.elastic));
      CHECK(same_bits(one.energy.dissipated_dashpot, many.energy.dissipated_dashpot));
      CHECK(same_bits(one.energy.dissipated_friction, many.energy.dissipated_friction));
      bool same_bonds = true;
      for (size_t k = 0; k < one.bonds.size(); ++k)
        same_bonds = same_bonds && one.bonds[k].broken == many.bonds[k].broken &&
                     same_bits(one.bonds[k].damping_force, many.bonds[k].damping_force) &&
                     same_bits(one.bonds[k].damping_couple, many.bonds[k].damping_couple);
      CHECK(same_bonds);
    }
  }
  SECTION("clumps: 2 100 bars of two pebbles, in two parts of clumps and of pebbles") {
    Preset p = testing::bare_preset();
    p.box.min = Vec3::Zero();
    p.box.max = Vec3(0.06, 0.06, 0.03);
    p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = SideKind::Periodic;
    std::mt19937_64 g(3);
    p.clumps = bar_lattice(2100, 2, 2e-3, g, true);
    const Session session = run_scene(p, 1, 3);
    const Model& model = session.model();
    REQUIRE(session.state().clumps.size() == 2100);
    REQUIRE(session.state().particles.size() == 4200);
    const auto half_steps_on = [&](int threads) {
      ThreadTeam team(threads);
      State s = session.state();
      integrate_first_half(model, s, model.time_step, team);
      integrate_second_half(model, s, model.time_step, team);
      return s;
    };
    const State one = half_steps_on(1);
    for (int threads : {2, 3}) {
      INFO(threads << " threads");
      const State many = half_steps_on(threads);
      CHECK(same_bits(one.particles.position, many.particles.position));
      CHECK(same_bits(one.particles.velocity, many.particles.velocity));
      CHECK(same_bits(one.particles.angular_velocity, many.particles.angular_velocity));
      CHECK(same_bits(one.particles.orientation, many.particles.orientation));
      CHECK(one.particles.image == many.particles.image);
      CHECK(same_bits(one.clumps.position, many.clumps.position));
      CHECK(same_bits(one.clumps.velocity, many.clumps.velocity));
      CHECK(same_bits(one.clumps.orientation, many.clumps.orientation));
      CHECK(same_bits(one.clumps.angular_momentum, many.clumps.angular_momentum));
      CHECK(one.clumps.image == many.clumps.image);
    }
  }
  SECTION("clumps: the force sums of 3 000 bars of four pebbles, pebbles in random order, in up to 7 parts") {
    // Each clump adds its own pebbles in particle order, the part holding its first pebble going on past its end for
    // the rest (engine/bodies/clumps.cpp sum_clump_forces): the bits of one loop over all the particles in index order,
    // written out here, on any number of threads. The pebbles are put in random order, so that clumps span parts (a
    // reordered scene keeps them a few cell rows apart; this is the worst case), and given random forces and torques;
    // gravity leaning off the vertical. Then the same scratch again after the order changes: its spans are found again.
    Preset p = testing::bare_preset();
    p.box.min = Vec3::Zero();
    p.box.max = Vec3(0.1, 0.1, 0.06);
    std::mt19937_64 g(5);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    p.clumps = bar_lattice(3000, 4, 3e-3, g, false);
    const Session session = run_scene(p, 1, 1);
    Model model = session.model();
    model.environment.gravity = Vec3(0.3, -0.2, -9.81);
    State shuffled = session.state();
    REQUIRE(shuffled.particles.size() == 12000);
    std::vector<int> order(shuffled.particles.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::shuffle(order.begin(), order.end(), g);
    shuffled.particles.permute(order);
    for (size_t i = 0; i < shuffled.particles.size(); ++i) {
      shuffled.particles.force[i] = Vec3(u(g), u(g), u(g));
      shuffled.particles.torque[i] = 1e-3 * Vec3(u(g), u(g), u(g));
    }
    const auto one_loop = [&](State s) {  // the sums as one loop over the particles would make them
      const Particles& q = s.particles;
      Clumps& c = s.clumps;
      std::vector<double> pebble_mass(c.size(), 0.0);
      std::vector<Vec3> first_moment(c.size(), Vec3::Zero());
      for (size_t k = 0; k < c.size(); ++k) c.force[k] = c.torque[k] = Vec3::Zero();
      for (size_t i = 0; i < q.size(); ++i) {
        const auto k = static_cast<size_t>(q.clump[i]);
        const Vec3 r = c.orientation[k] * q.clump_offset[i];
        c.force[k] += q.force[i];
        c.torque[k] += r.cross(q.force[i]) + q.torque[i];
        pebble_mass[k] += q.mass[i];
        first_moment[k] += q.mass[i] * r;
      }
      for (size_t k = 0; k < c.size(); ++k) {
        c.force[k] += (c.mass[k] - pebble_mass[k]) * model.environment.gravity;
        c.torque[k] -= first_moment[k].cross(model.environment.gravity);
      }
      return s;
    };
    State in_clump_order = shuffled;  // the same particles in the order the clumps made them
    std::vector<int> back(order.size());
    for (size_t i = 0; i < order.size(); ++i) back[static_cast<size_t>(order[i])] = static_cast<int>(i);
    in_clump_order.particles.permute(back);
    for (int threads : {1, 2, 3, 7}) {
      INFO(threads << " threads");
      ThreadTeam team(threads);
      ClumpPebbles pebbles;
      for (const State* scene : {&shuffled, &in_clump_order}) {
        const State expected = one_loop(*scene);
        State s = *scene;
        sum_clump_forces(model, s, pebbles, team);
        CHECK(same_bits(s.clumps.force, expected.clumps.force));
        CHECK(same_bits(s.clumps.torque, expected.clumps.torque));
      }
    }
    // And what the sums add up to: the pebbles' forces, and gravity on the clumps' masses where the pebbles' (which
    // overlap, so weigh more) received it.
    const State summed = one_loop(shuffled);
    Vec3 pebbles_total = Vec3::Zero(), clumps_total = Vec3::Zero();
    double clump_mass = 0.0, pebble_mass = 0.0;
    for (size_t i = 0; i < shuffled.particles.size(); ++i) {
      pebbles_total += shuffled.particles.force[i];
      pebble_mass += shuffled.particles.mass[i];
    }
    for (size_t k = 0; k < summed.clumps.size(); ++k) {
      clumps_total += summed.clumps.force[k];
      clump_mass += summed.clumps.mass[k];
    }
    REQUIRE(pebble_mass > clump_mass);
    const Vec3 expected_total = pebbles_total + (clump_mass - pebble_mass) * model.environment.gravity;
    CHECK((clumps_total - expected_total).norm() < 1e-12 * 12000.0);  // 12 000 terms of order 1 N
  }
}

// The checks' runaway-overlap scan, made by the contact pass (RunawayOverlapWatch): the first listed pair in list order
// whose centres are closer than Ri + Rj - f min(Ri, Rj), on any number of threads, and the checks stage then names the
// same particles as its own scan.
TEST_CASE("threads: the contact pass finds the checks' first too deep pair on any number of threads", "[parallel]") {
  Preset preset = dense_scene(14);
  preset.integrator.neighbor_skin = 0.2e-3;  // every bcc neighbour (1.11 d apart) listed: about 20 000 pairs
  Session session = run_scene(preset, 1, 3);
  const Model& model = session.model();
  const State start = session.state();
  const std::vector<IndexPair>& pairs = start.neighbors.contact_pairs;
  REQUIRE(pairs.size() > 3 * 2000);            // several parts of the pair pass
  auto first_too_deep = [&](const State& s) {  // by hand, over the list
    const Particles& p = s.particles;
    for (size_t k = 0; k < pairs.size(); ++k) {
      const auto i = static_cast<size_t>(pairs[k].i), j = static_cast<size_t>(pairs[k].j);
      const double deep = p.radius[i] + p.radius[j] - kRunawayOverlapFraction * std::min(p.radius[i], p.radius[j]);
      if (minimum_image(model, p.position[i] - p.position[j]).norm() < deep) return k;
    }
    return pairs.size();
  };
  // None too deep; then the second particle of a pair two thirds down the list pushed onto the first, and then one
  // a third down as well (the earlier pair must win, whichever part holds it).
  const std::vector<size_t> pushed{2 * pairs.size() / 3, pairs.size() / 3};
  State s = start;
  for (size_t round = 0; round <= pushed.size(); ++round) {
    if (round > 0) {
      const size_t k = pushed[round - 1];
      s.particles.position[static_cast<size_t>(pairs[k].j)] =
          s.particles.position[static_cast<size_t>(pairs[k].i)] + Vec3(0.4e-3, 0, 0);
      wrap_periodic(model, s.particles);
    }
    const size_t expected = first_too_deep(s);
    CHECK((round == 0 ? expected == pairs.size() : expected <= pushed[round - 1]));
    for (int threads : {1, 2, 3}) {
      INFO("round " << round << ", " << threads << " threads");
      ThreadTeam team(threads);
      State t = s;
      RunawayOverlapWatch watch{kRunawayOverlapFraction};
      compute_contact_forces(model, t, 0.0, team, nullptr, &watch);
      CHECK(watch.first_pair == expected);
      State scanned = t;
      check_health(model, scanned, team);
      check_health(model, t, team, watch.first_pair);
      CHECK(t.health.ok == scanned.health.ok);
      CHECK(t.health.message == scanned.health.message);
      CHECK(t.health.ok == (round == 0));
    }
  }
}
