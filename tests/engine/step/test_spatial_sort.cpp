// Large scenes are reordered by cell at neighbour-list rebuilds (engine/step/neighbor.hpp). Everything
// kept per particle index must move with its particle; ids, and the physics, must not change.

#include "engine/core/random.hpp"
#include "engine/step/neighbor.hpp"
#include "tests/engine/test_support.hpp"

#include <map>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// A scene above the reordering threshold, listed in a random spatial order, walls on z.
Preset large_random_scene(int n) {
  Preset p = bare_preset();
  p.box.z_min = p.box.z_max = SideKind::Wall;
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = SideKind::Periodic;
  p.box.min = Vec3(0, 0, 0);
  p.box.max = Vec3(0.12, 0.12, 0.012);
  p.environment.translational_damping = 1e-4;
  p.environment.rotational_damping = 1e-4;
  p.particles.kind = GeneratorKind::Random;
  p.particles.count = n;
  p.particles.diameter = 1e-3;
  p.particles.seed = 5;
  return p;
}

Vec3 tag(std::uint64_t id, double extra) {
  return Vec3(static_cast<double>(id), extra, 1.0);
}

}  // namespace

TEST_CASE("reordering by cell keeps every per-particle record with its id", "[neighbor][sort]") {
  const int n = static_cast<int>(kSpatialSortMinParticles) + 500;
  Session session(large_random_scene(n));
  State& state = session.edit_state();
  Particles& p = state.particles;
  REQUIRE(p.size() == static_cast<size_t>(n));
  REQUIRE(!state.neighbors.contact_pairs.empty());

  // Shuffle the particles (as in a scene that has flowed for a while) and carry the pair list
  // along through the inverse permutation.
  Random rng(17);
  std::vector<int> order(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) order[static_cast<size_t>(k)] = k;
  for (int k = n - 1; k > 0; --k)
    std::swap(order[static_cast<size_t>(k)], order[static_cast<size_t>(rng.uniform() * (k + 1))]);
  p.permute(order);
  std::vector<int> new_index(static_cast<size_t>(n));
  for (size_t k = 0; k < order.size(); ++k) new_index[static_cast<size_t>(order[k])] = static_cast<int>(k);
  for (IndexPair& pr : state.neighbors.contact_pairs) {
    pr.i = new_index[static_cast<size_t>(pr.i)];
    pr.j = new_index[static_cast<size_t>(pr.j)];
  }
  const std::vector<std::uint64_t> shuffled_ids = p.id;

  // Tag every per-index record with its particle's id, and every pair's history with its ids; the law states beside
  // the records too (a sand pointer for the walls, rolling springs for the pairs).
  state.wall_history.assign(6 * p.size(), ContactHistory{});
  state.wall_law.assign(6 * p.size(), LawState{});
  state.damping_force.assign(p.size(), Vec3::Zero());
  state.damping_torque.assign(p.size(), Vec3::Zero());
  std::map<std::uint64_t, Vec3> position_of;
  for (size_t i = 0; i < p.size(); ++i) {
    for (size_t side = 0; side < 6; ++side) {
      state.wall_history[6 * i + side].shear = tag(p.id[i], static_cast<double>(side));
      state.wall_history[6 * i + side].active = (p.id[i] + side) % 3 == 0;
      state.wall_law[6 * i + side].emplace<SandPointers>().p1 = tag(p.id[i], 10.0 + static_cast<double>(side));
    }
    state.damping_force[i] = tag(p.id[i], -1.0);
    state.damping_torque[i] = tag(p.id[i], -2.0);
    position_of[p.id[i]] = p.position[i];
  }
  // The shear is that of the first body relative to the second: a tag odd in the order of the pair
  // (the reordering can swap a pair's order; the record then turns with it, swap_bodies).
  auto pair_tag = [&](const IndexPair& pr) {
    const double a = static_cast<double>(p.id[static_cast<size_t>(pr.i)]);
    const double b = static_cast<double>(p.id[static_cast<size_t>(pr.j)]);
    return Vec3(a - b, (a - b) * (a + b), 1e-3 * (a - b));
  };
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> first_of;  // sorted ids -> id listed first
  auto ids_of = [&](const IndexPair& pr) {
    const auto a = p.id[static_cast<size_t>(pr.i)], b = p.id[static_cast<size_t>(pr.j)];
    return std::make_pair(std::min(a, b), std::max(a, b));
  };
  state.neighbors.contact_law.assign(state.neighbors.contact_pairs.size(), LawState{});
  for (size_t k = 0; k < state.neighbors.contact_pairs.size(); ++k) {
    state.neighbors.contact_history[k].active = true;
    state.neighbors.contact_history[k].shear = pair_tag(state.neighbors.contact_pairs[k]);
    state.neighbors.contact_law[k].emplace<RollingHistory>().rolling = 2.0 * pair_tag(state.neighbors.contact_pairs[k]);
    first_of[ids_of(state.neighbors.contact_pairs[k])] = p.id[static_cast<size_t>(state.neighbors.contact_pairs[k].i)];
  }
  const size_t pairs_before = state.neighbors.contact_pairs.size();
  mark_active_walls(state);

  // The engine's rebuild reorders by cell.
  build_neighbor_lists(session.model(), state);
  CHECK(p.id != shuffled_ids);

  bool positions_follow = true, records_follow = true, history_follows = true;
  for (size_t i = 0; i < p.size(); ++i) {
    positions_follow = positions_follow && p.position[i] == position_of.at(p.id[i]);
    for (size_t side = 0; side < 6; ++side)
      records_follow =
          records_follow && state.wall_history[6 * i + side].shear == tag(p.id[i], static_cast<double>(side)) &&
          std::get<SandPointers>(state.wall_law[6 * i + side]).p1 == tag(p.id[i], 10.0 + static_cast<double>(side)) &&
          ((state.wall_active[i] >> side) & 1) == static_cast<int>((p.id[i] + side) % 3 == 0);
    records_follow =
        records_follow && state.damping_force[i] == tag(p.id[i], -1.0) && state.damping_torque[i] == tag(p.id[i], -2.0);
  }
  CHECK(positions_follow);
  CHECK(records_follow);
  CHECK(state.neighbors.contact_pairs.size() == pairs_before);
  size_t swapped = 0;
  for (size_t k = 0; k < state.neighbors.contact_pairs.size(); ++k) {
    const IndexPair pr = state.neighbors.contact_pairs[k];
    history_follows = history_follows && state.neighbors.contact_history[k].active &&
                      state.neighbors.contact_history[k].shear == pair_tag(pr) &&
                      std::get<RollingHistory>(state.neighbors.contact_law[k]).rolling == 2.0 * pair_tag(pr);
    swapped += first_of.at(ids_of(pr)) != p.id[static_cast<size_t>(pr.i)] ? 1 : 0;
  }
  CHECK(history_follows);
  CHECK(swapped > 0);  // the reordering did turn pairs round, so the check above means something

  // The new order is by cell: consecutive particles are close (in random order they are about a
  // third of the 0.12 m box side apart).
  double step_sum = 0.0;
  for (size_t i = 1; i < p.size(); ++i)
    step_sum += minimum_image(session.model(), p.position[i] - p.position[i - 1]).norm();
  CHECK(step_sum / static_cast<double>(p.size() - 1) < 0.012);
}

TEST_CASE("a large scene that reorders keeps its energy balance and momentum", "[neighbor][sort]") {
  // The physics is the same whatever the order: with damping and walls, the balance (which uses
  // the per-index damping memory) stays within the integrator's error, and the ids are all there.
  Preset p = large_random_scene(static_cast<int>(kSpatialSortMinParticles) + 200);
  p.materials[0].magnetization = 2e5;
  p.magnetics.method = DipoleMethod::Cutoff;
  p.magnetics.cutoff = 3e-3;
  p.particles.velocity_spread = 0.05;
  Session session(p);
  const double e0 = session.observe().energy_balance();
  const auto builds0 = session.state().neighbors.builds;
  run_checked(session, 60);
  const Observables o = session.observe();
  REQUIRE(session.state().neighbors.builds > builds0);  // it rebuilt (and reordered) during the run
  // Scale: the energy dissipated and converted; truncation at the cutoff adds jumps of U(r_c)
  // (about 1e-9 J per crossing pair here), far below 1e-3 of the kinetic energy.
  const double scale = o.dissipated() + o.kinetic();
  CHECK(std::abs(o.energy_balance() - e0) < 2e-3 * scale);
  std::vector<std::uint64_t> ids = session.state().particles.id;
  std::sort(ids.begin(), ids.end());
  bool all_ids = true;
  for (size_t k = 0; k < ids.size(); ++k) all_ids = all_ids && ids[k] == k;
  CHECK(all_ids);
}
