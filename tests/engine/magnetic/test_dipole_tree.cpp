// The Barnes-Hut tree (magnetics.method = tree, engine/magnetic/dipole_tree.hpp) against the independent exact sum
// over all pairs built here from dipole_pair (engine/magnetic/dipole.hpp), and against the engine's direct pass.
//
// Tolerances: the issue asks for an RMS relative force error below 1e-3 at the default opening angle (the
// torque, set by the field alone, and the energy, a sum of terms of both signs, within 3e-3); the expansion
// to second order in the cell size makes the error fall as theta^3, so halving theta must cut it by about 8
// (we ask for 3, leaving room for the discrete jumps of the opening test and for the leaves, which are never
// expanded); with theta -> 0 every cell is opened and only round-off remains (1e-12 relative, many orders
// above double precision's 1e-16 times the few thousand terms of a sum).

#include "engine/core/model.hpp"
#include "engine/core/random.hpp"
#include "engine/core/state.hpp"
#include "engine/core/thread_team.hpp"
#include "engine/magnetic/dipole.hpp"
#include "engine/magnetic/dipole_tree.hpp"
#include "engine/magnetic/magnetics.hpp"
#include "engine/scene/document.hpp"
#include "tests/engine/dipole_scenes.hpp"
#include "tests/engine/test_support.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <vector>

using namespace lodestone;
using lodestone::testing::DipoleSums;
using lodestone::testing::pair_formula_sum;
using lodestone::testing::rms_relative;

namespace {

struct Scene {
  std::vector<Vec3> position;  // [m]
  std::vector<Vec3> moment;    // [A m^2]
  std::vector<double> radius;  // [m]
};

Vec3 random_direction(Random& rng) {
  return rng.orientation() * Vec3::UnitZ();
}

// Polydisperse spheres (radius 0.5 to 1.5 mm) placed without overlap by random sequential addition in a cube
// sized for the volume fraction `phi`; moments M V in random directions (M = 8e5 A/m).
Scene random_scene(int n, double phi, std::uint64_t seed) {
  Random rng(seed);
  Scene s;
  std::vector<double> radii(static_cast<size_t>(n));
  double volume = 0.0;
  for (double& r : radii) {
    r = rng.uniform(0.5e-3, 1.5e-3);
    volume += sphere_volume(r);
  }
  const double side = std::cbrt(volume / phi);
  for (double r : radii) {
    for (int attempt = 0;; ++attempt) {
      REQUIRE(attempt < 100000);
      const Vec3 x(rng.uniform(0, side), rng.uniform(0, side), rng.uniform(0, side));
      bool free = true;
      for (size_t k = 0; k < s.position.size() && free; ++k) free = (x - s.position[k]).norm() >= r + s.radius[k];
      if (!free) continue;
      s.position.push_back(x);
      s.radius.push_back(r);
      s.moment.push_back(8e5 * sphere_volume(r) * random_direction(rng));
      break;
    }
  }
  return s;
}

// A dense packing: a simple cubic lattice (spacing 3.1 mm) of the same polydisperse spheres, each displaced
// by up to 0.05 mm (phi about 0.3).
Scene dense_scene(int per_side, std::uint64_t seed) {
  Random rng(seed);
  Scene s;
  const double a = 3.1e-3;
  for (int i = 0; i < per_side; ++i)
    for (int j = 0; j < per_side; ++j)
      for (int k = 0; k < per_side; ++k) {
        const double r = rng.uniform(0.5e-3, 1.5e-3);
        const Vec3 jitter(rng.uniform(-5e-5, 5e-5), rng.uniform(-5e-5, 5e-5), rng.uniform(-5e-5, 5e-5));
        s.position.push_back(a * Vec3(i, j, k) + jitter);
        s.radius.push_back(r);
        s.moment.push_back(8e5 * sphere_volume(r) * random_direction(rng));
      }
  return s;
}

// Equal spheres touching in a straight line along x, moments head to tail with a small random tilt.
Scene chain_scene(int n, std::uint64_t seed) {
  Random rng(seed);
  Scene s;
  const double r = 1e-3;
  for (int i = 0; i < n; ++i) {
    s.position.push_back(Vec3(2.0 * r * i, 0, 0));
    s.radius.push_back(r);
    s.moment.push_back(8e5 * sphere_volume(r) * (Vec3::UnitX() + 0.1 * random_direction(rng)).normalized());
  }
  return s;
}

struct Result {
  std::vector<Vec3> force, torque;
  double energy = 0.0;
};

// The reference: every pair once with dipole_pair.
Result direct_sum(const Scene& s, double cap = 0.0) {
  const DipoleSums sums = pair_formula_sum(
      s.moment, [&](size_t i, size_t j) { return std::optional<Vec3>(s.position[i] - s.position[j]); }, cap);
  return {sums.force, sums.torque, sums.energy};
}

Result tree_sum(const Scene& s, double theta, double cap = 0.0, int leaf_size = 8) {
  const size_t n = s.position.size();
  DipoleTree tree;
  tree.build(s.position, s.moment, {}, DipoleTreeSettings{theta, cap, leaf_size});
  Result out{std::vector<Vec3>(n, Vec3::Zero()), std::vector<Vec3>(n, Vec3::Zero()), 0.0};
  std::vector<double> share(n);
  tree.add_forces(0, n, {}, out.force.data(), out.torque.data(), share.data());
  for (double e : share) out.energy += e;
  return out;
}

const double kDefaultTheta = MagneticParameters{}.tree_opening_angle;

}  // namespace

TEST_CASE("tree: two dipoles give the closed form", "[dipole_tree]") {
  const double m = 2.5e-3, r = 3e-3, c = 1e-7;
  Scene s;
  s.position = {Vec3(0, 0, r), Vec3(0, 0, 0)};
  s.moment = {Vec3(0, 0, m), Vec3(0, 0, m)};
  // leaf_size 8: one leaf; leaf_size 1: a root split into two one-particle leaves.
  for (int leaf_size : {8, 1}) {
    INFO("leaf size " << leaf_size);
    const Result t = tree_sum(s, 1.0, 0.0, leaf_size);
    const double f = 6.0 * c * m * m / std::pow(r, 4);  // head to tail: attraction
    CHECK(t.force[0].z() == Approx(-f).epsilon(1e-12));
    CHECK(t.force[1].z() == Approx(f).epsilon(1e-12));
    CHECK(t.force[0].head<2>().norm() < 1e-12 * f);
    CHECK(t.energy == Approx(-2.0 * c * m * m / (r * r * r)).epsilon(1e-12));
    CHECK(t.torque[0].norm() < 1e-12 * c * m * m / (r * r * r));
  }
  // A random pair against dipole_pair, and the field against dipole_field.
  Random rng(3);
  for (int trial = 0; trial < 10; ++trial) {
    s.position = {Vec3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)) * 1e-2, Vec3::Zero()};
    s.moment = {1e-3 * random_direction(rng), 2e-3 * random_direction(rng)};
    const DipolePair d = dipole_pair(s.position[0] - s.position[1], s.moment[0], s.moment[1], 0.0);
    for (int leaf_size : {8, 1}) {
      const Result t = tree_sum(s, 1.0, 0.0, leaf_size);
      CHECK((t.force[0] - d.force_i).norm() < 1e-12 * d.force_i.norm());
      CHECK((t.force[1] + d.force_i).norm() < 1e-12 * d.force_i.norm());
      CHECK((t.torque[0] - d.torque_i).norm() < 1e-12 * d.torque_i.norm());
      CHECK((t.torque[1] - d.torque_j).norm() < 1e-12 * d.torque_j.norm());
      CHECK(t.energy == Approx(d.energy).epsilon(1e-12));
      DipoleTree tree;
      tree.build(s.position, s.moment, {}, DipoleTreeSettings{1.0, 0.0, leaf_size});
      const Vec3 b = dipole_field(s.position[0] - s.position[1], s.moment[1]);
      CHECK((tree.field(0) - b).norm() < 1e-12 * b.norm());
    }
  }
}

TEST_CASE("tree: a far cell's expansion is exact to third order in its size", "[dipole_tree]") {
  // Five random dipoles within 0.1 of the origin (one cell, split into one-particle leaves: leaf_size 1) and
  // a target at distance R. The cell acts through M, Q and S; what is left is O((rho/R)^3) relative, so
  // doubling R divides the error by 8 (by 4 if S were wrong, by 2 if Q were, not at all if M were).
  Random rng(5);
  std::vector<Vec3> x = {Vec3::Zero()}, m = {random_direction(rng)};
  for (int k = 0; k < 5; ++k) {
    x.push_back(0.1 * Vec3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)));
    m.push_back(random_direction(rng));
  }
  std::vector<double> force_error, field_error;
  for (double distance : {4.0, 8.0, 16.0, 32.0}) {
    x[0] = distance * Vec3(0.6, 0.5, 0.3).normalized();
    DipoleTree tree;
    tree.build(x, m, {}, DipoleTreeSettings{0.9, 0.0, 1});
    const DipoleTreeTarget t = tree.evaluate(0, false);
    Vec3 f = Vec3::Zero(), b = Vec3::Zero();
    for (size_t j = 1; j < x.size(); ++j) {
      f += dipole_pair(x[0] - x[j], m[0], m[j], 0.0).force_i;
      b += dipole_field(x[0] - x[j], m[j]);
    }
    force_error.push_back((t.force - f).norm() / f.norm());
    field_error.push_back((t.field - b).norm() / b.norm());
  }
  for (size_t k = 0; k + 1 < force_error.size(); ++k) {
    INFO("step " << k << ": force error " << force_error[k] << " -> " << force_error[k + 1] << ", field error "
                 << field_error[k] << " -> " << field_error[k + 1]);
    CHECK(force_error[k] > 0.0);  // the cell was used as a whole, not opened
    CHECK(force_error[k] / force_error[k + 1] == Approx(8.0).epsilon(0.15));
    CHECK(field_error[k] / field_error[k + 1] == Approx(8.0).epsilon(0.15));
  }
}

TEST_CASE("tree: force error below 1e-3, torque error below 3e-3 against the direct sum at the default opening angle",
          "[dipole_tree]") {
  struct Case {
    const char* name;
    Scene scene;
  };
  const Case cases[] = {{"random dilute (phi 0.05, 1000)", random_scene(1000, 0.05, 11)},
                        {"random (phi 0.15, 1000)", random_scene(1000, 0.15, 12)},
                        {"dense lattice (phi 0.3, 10^3)", dense_scene(10, 13)},
                        {"chain of 400", chain_scene(400, 14)}};
  for (const Case& c : cases) {
    INFO(c.name);
    const Result d = direct_sum(c.scene);
    const Result t = tree_sum(c.scene, kDefaultTheta);
    const double force_error = rms_relative(t.force, d.force);
    const double torque_error = rms_relative(t.torque, d.torque);
    INFO("force error " << force_error << ", torque error " << torque_error);
    CHECK(force_error < 1e-3);
    CHECK(torque_error < 3e-3);  // the torque is the field alone (m x B), about 3x the force's relative error
    CHECK(t.energy == Approx(d.energy).epsilon(3e-3));  // a sum of terms of both signs: cancellation
  }
}

TEST_CASE("tree: the error falls with theta and vanishes to round-off as theta -> 0", "[dipole_tree]") {
  const Scene s = random_scene(1500, 0.15, 21);
  const Result d = direct_sum(s);
  const double coarse = rms_relative(tree_sum(s, 0.6).force, d.force);
  const double fine = rms_relative(tree_sum(s, 0.3).force, d.force);
  INFO("theta 0.6: " << coarse << ", theta 0.3: " << fine);
  CHECK(fine < coarse / 3.0);
  const Result exact = tree_sum(s, 1e-9);
  CHECK(rms_relative(exact.force, d.force) < 1e-12);
  CHECK(rms_relative(exact.torque, d.torque) < 1e-12);
  CHECK(exact.energy == Approx(d.energy).epsilon(1e-12));
}

TEST_CASE("tree: the total force of an isolated system vanishes within the approximation", "[dipole_tree]") {
  // The direct sum obeys Newton's third law pair by pair (total force zero to round-off); the tree does not,
  // so the total is the sum of the per-particle errors, bounded by sum |F_tree - F_direct|.
  const Scene s = random_scene(1500, 0.15, 31);
  const Result d = direct_sum(s);
  const Result t = tree_sum(s, kDefaultTheta);
  Vec3 total = Vec3::Zero(), total_direct = Vec3::Zero();
  double magnitude = 0.0, error = 0.0;
  for (size_t i = 0; i < s.position.size(); ++i) {
    total += t.force[i];
    total_direct += d.force[i];
    magnitude += t.force[i].norm();
    error += (t.force[i] - d.force[i]).norm();
  }
  INFO("|sum F| / sum |F|: tree " << total.norm() / magnitude << ", direct " << total_direct.norm() / magnitude);
  CHECK(total_direct.norm() < 1e-12 * magnitude);
  CHECK(total.norm() <= error + 1e-12 * magnitude);
  CHECK(total.norm() < 1e-4 * magnitude);
}

TEST_CASE("tree: a target's result does not depend on how the targets are split", "[dipole_tree]") {
  const Scene s = random_scene(500, 0.15, 41);
  const size_t n = s.position.size();
  DipoleTree tree;
  tree.build(s.position, s.moment, {}, DipoleTreeSettings{kDefaultTheta, 0.0, 8});
  std::vector<Vec3> f_whole(n, Vec3::Zero()), t_whole(n, Vec3::Zero()), f_parts(n, Vec3::Zero()),
      t_parts(n, Vec3::Zero());
  std::vector<double> e_whole(n), e_parts(n);
  tree.add_forces(0, n, {}, f_whole.data(), t_whole.data(), e_whole.data());
  // Uneven ranges, last first.
  const size_t cuts[] = {0, 7, 130, 131, 400, n};
  for (int k = 4; k >= 0; --k)
    tree.add_forces(cuts[k], cuts[k + 1], {}, f_parts.data(), t_parts.data(), e_parts.data());
  for (size_t i = 0; i < n; ++i) {
    CHECK(f_parts[i] == f_whole[i]);  // bit for bit
    CHECK(t_parts[i] == t_whole[i]);
    CHECK(e_parts[i] == e_whole[i]);
  }
}

TEST_CASE("tree: the group traversal agrees with the per-particle traversal", "[dipole_tree]") {
  // add_forces walks the tree once per target leaf (an opening test against the leaf's bounding sphere, at
  // least as strict as the per-particle test); evaluate walks it per target. Both approximate the same sum:
  // they agree within the tree's error, and exactly when theta opens every cell.
  const Scene s = random_scene(800, 0.15, 43);
  const size_t n = s.position.size();
  for (double theta : {kDefaultTheta, 1e-9}) {
    INFO("theta " << theta);
    DipoleTree tree;
    tree.build(s.position, s.moment, {}, DipoleTreeSettings{theta, 0.0, 8});
    std::vector<Vec3> force(n, Vec3::Zero()), torque(n, Vec3::Zero()), single(n), single_torque(n);
    std::vector<double> share(n);
    tree.add_forces(0, n, {}, force.data(), torque.data(), share.data());
    for (size_t i = 0; i < n; ++i) {
      const DipoleTreeTarget t = tree.evaluate(i, true);
      single[i] = t.force;
      single_torque[i] = s.moment[i].cross(t.field);
    }
    const double tolerance = theta < 1e-6 ? 1e-12 : 1e-3;
    CHECK(rms_relative(force, single) < tolerance);
    CHECK(rms_relative(torque, single_torque) < 3.0 * tolerance);
  }
}

TEST_CASE("tree: the engine's dipole pass with cap, clumps and induced moments agrees with the direct pass",
          "[dipole_tree]") {
  // Rigid and induced materials, pebbles grouped into clumps of three neighbours (their mutual forces are
  // skipped), a cap above some centre distances: every rule of add_dipole_pair that the tree must follow.
  const Scene s = random_scene(800, 0.3, 51);
  const size_t n = s.position.size();
  Model model;
  model.materials.resize(2);
  model.materials[1].moment_model = MomentModel::Induced;
  model.materials[1].susceptibility = 2.0;
  model.magnetics.dipole_cap = 1.2e-3;
  model.magnetics.induced_iterations = 3;
  model.field.strength = 0.02;
  State base;
  Particles& p = base.particles;
  p.resize(n);
  for (size_t i = 0; i < n; ++i) {
    p.position[i] = s.position[i];
    p.radius[i] = s.radius[i];
    p.moment_body[i] = s.moment[i];
    p.material[i] = i % 5 == 0 ? 1 : 0;
  }
  // Clumps: each particle with its two nearest neighbours not yet in a clump.
  int clumps = 0;
  for (size_t i = 0; i < n; ++i) {
    if (p.clump[i] >= 0 || clumps >= 60) continue;
    p.clump[i] = clumps;
    for (int k = 0; k < 2; ++k) {
      size_t best = n;
      for (size_t j = 0; j < n; ++j)
        if (p.clump[j] < 0 && (best == n || (s.position[j] - s.position[i]).squaredNorm() <
                                                (s.position[best] - s.position[i]).squaredNorm()))
          best = j;
      p.clump[best] = clumps;
    }
    ++clumps;
  }
  auto pass = [&](DipoleMethod method, double theta) {
    model.magnetics.method = method;
    model.magnetics.tree_opening_angle = theta;
    State st = base;
    update_moments(model, st);  // rigid moments from the body frame, induced ones iterated with the pass's fields
    compute_dipole_forces(model, st);
    return st;
  };
  const State direct = pass(DipoleMethod::Direct, 0.5);
  for (double theta : {kDefaultTheta, 1e-9}) {
    INFO("theta " << theta);
    const State tree = pass(DipoleMethod::Tree, theta);
    const double tolerance = theta < 1e-6 ? 1e-12 : 1e-3;
    CHECK(rms_relative(tree.particles.moment, direct.particles.moment) < tolerance);
    CHECK(rms_relative(tree.particles.force, direct.particles.force) < tolerance);
    CHECK(rms_relative(tree.particles.torque, direct.particles.torque) < 3.0 * tolerance);
    CHECK(tree.energy.dipole == Approx(direct.energy.dipole).epsilon(3.0 * tolerance));
    for (size_t i = 0; i < n; ++i)
      if (p.material[i] == 1) CHECK(tree.particles.torque[i] == Vec3::Zero());  // induced: no torque on the body
  }
}

TEST_CASE("tree: periodic boxes, an activity distance and bad opening angles are refused", "[dipole_tree]") {
  using namespace lodestone::testing;
  Preset p = bare_preset();
  p.materials[0].magnetization = 8e5;
  p.magnetics.method = DipoleMethod::Tree;
  p.particles.particles = {sphere(Vec3(0, 0, 0), 1e-3), sphere(Vec3(0.01, 0, 0), 1e-3)};
  CHECK_NOTHROW(Session(p));
  {
    Preset periodic = p;
    periodic.box.y_min = periodic.box.y_max = SideKind::Periodic;
    const PresetError e = session_refusal(periodic, "tree with a periodic axis");
    CHECK(e.path() == "$.magnetics.method");
    CHECK_THAT(e.message(), Catch::Contains("periodic along y") && Catch::Contains("\"direct\""));
  }
  {
    Preset active = p;
    active.magnetics.activity_distance = 1e-3;
    const PresetError e = session_refusal(active, "tree with an activity distance");
    CHECK(e.path() == "$.magnetics.activity_distance");
    CHECK_THAT(e.message(), Catch::Contains("0.001 m") && Catch::Contains("\"none\""));
  }
  for (const char* bad : {"0", "1.5", "-0.2", "\"wide\""}) {
    INFO(bad);
    try {
      parse_preset(std::string(R"({"version": 1, "magnetics": {"method": "tree", "tree_opening_angle": )") + bad +
                   "}}");
      FAIL("accepted");
    } catch (const PresetError& e) {
      CHECK(e.path() == "preset $.magnetics.tree_opening_angle");  // parse_preset's default source name first
      if (bad[0] != '"') CHECK_THAT(e.message(), Catch::Contains("(0, 1]") && Catch::Contains(bad));
    }
  }
  const Preset ok = parse_preset(R"({"version": 1, "magnetics": {"method": "tree", "tree_opening_angle": 0.3}})");
  CHECK(ok.magnetics.method == DipoleMethod::Tree);
  CHECK(ok.magnetics.tree_opening_angle == 0.3);
}

TEST_CASE("tree: 4000 particles stay within the error bound, with the same bits on every run and thread count",
          "[dipole_tree]") {
  // The scene of the bench (bench/dipole_tree.cpp) at a size where cells several levels above the leaves act
  // as a whole (at 1000 most pairs are near pairs), through the engine's pass as the step calls it. The bounds
  // are those of the default-angle test above. The pass writes each target's sums to its own slot and adds
  // the energy shares in index order, so its result does not depend on the thread count: compared bit for bit.
  const Scene s = random_scene(4000, 0.15, 61);
  const size_t n = s.position.size();
  const Result d = direct_sum(s);
  Model model;
  model.magnetics.method = DipoleMethod::Tree;
  State base;
  base.particles.resize(n);
  for (size_t i = 0; i < n; ++i) {
    base.particles.position[i] = s.position[i];
    base.particles.radius[i] = s.radius[i];
    base.particles.moment[i] = s.moment[i];
  }
  auto pass = [&](ThreadTeam& team) {
    State st = base;
    compute_dipole_forces(model, st, team);
    return st;
  };
  const State first = pass(ThreadTeam::serial());
  const double force_error = rms_relative(first.particles.force, d.force);
  const double torque_error = rms_relative(first.particles.torque, d.torque);
  INFO("force error " << force_error << ", torque error " << torque_error);
  CHECK(force_error < 1e-3);
  CHECK(torque_error < 3e-3);
  CHECK(first.energy.dipole == Approx(d.energy).epsilon(3e-3));
  const State again = pass(ThreadTeam::serial());
  ThreadTeam two(2), three(3);
  const State on_two = pass(two), on_three = pass(three);
  for (const State* other : {&again, &on_two, &on_three}) {
    bool same = other->energy.dipole == first.energy.dipole;
    for (size_t i = 0; i < n && same; ++i)
      same = other->particles.force[i] == first.particles.force[i] &&
             other->particles.torque[i] == first.particles.torque[i];
    CHECK(same);
  }
}
