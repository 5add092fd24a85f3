// The magnetic stage as the engine runs it ([PFC-dipole]): moments rotated with the body, the
// activity distance (PFC dipole_d), the capping distance, the cutoff, and the pair sum.

#include "engine/core/thread_team.hpp"
#include "engine/magnetic/dipole.hpp"
#include "engine/magnetic/dipole_block.hpp"
#include "engine/magnetic/dipole_kernel.hpp"
#include "engine/magnetic/magnetics.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/dipole_scenes.hpp"
#include "tests/engine/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Two magnetised spheres of radius r at the given centres, moments along their `axis`.
Preset dipole_pair_preset(const Vec3& xi, const Vec3& xj, double r, const Vec3& axis_i, const Vec3& axis_j) {
  Preset p = bare_preset();
  p.materials[0].magnetization = 8e5;
  p.magnetics.method = DipoleMethod::Direct;
  ParticleEntry a = sphere(xi, r), b = sphere(xj, r);
  a.axis = axis_i;
  b.axis = axis_j;
  p.particles.particles = {a, b};
  return p;
}

double moment_of(double r) {
  return 8e5 * sphere_volume(r);
}

}  // namespace

TEST_CASE("moments are stored in the body frame and turn with the orientation", "[magnetics]") {
  Preset p = dipole_pair_preset(Vec3(0, 0, 0), Vec3(0.01, 0, 0), 5e-4, Vec3(0, 0, 1), Vec3(0, 1, 0));
  Simulation sim = simulation_of(p);
  const Particles& s = sim.state().particles;
  const double m = moment_of(5e-4);
  // Body moment along body z; world moment along the entry's axis.
  CHECK((s.moment_body[1] - Vec3(0, 0, m)).norm() < 1e-12 * m);
  CHECK((s.moment[1] - Vec3(0, m, 0)).norm() < 1e-12 * m);
  // Spin particle 0 about x at omega for a quarter turn: its moment goes from +z to -y.
  const double omega = 200.0;
  State& state = sim.edit_state();
  state.particles.angular_velocity[0] = Vec3(omega, 0, 0);
  state.particles.moment_body[1].setZero();  // no torque from the neighbour
  sim.reinitialize();
  const double quarter = 0.5 * pi / omega;
  const int steps = 1000;
  Model model = sim.model();
  model.integrator.time_step = quarter / steps;
  sim.set_model(model);
  run_checked(sim, steps);
  CHECK((sim.state().particles.moment[0] - Vec3(0, -m, 0)).norm() < 1e-9 * m);
  CHECK((sim.state().particles.easy_axis(0) - Vec3(0, -1, 0)).norm() < 1e-9);
}

TEST_CASE("the activity distance switches a pair off beyond a surface gap", "[magnetics]") {
  // Surface gap 1 mm between spheres of 0.5 mm radius (centres 2 mm apart).
  const double r = 5e-4, gap = 1e-3;
  const Vec3 xi(0, 0, 2 * r + gap), xj(0, 0, 0);
  for (const double activity : {0.9e-3, 1.1e-3}) {
    Preset p = dipole_pair_preset(xi, xj, r, Vec3(0, 0, 1), Vec3(0, 0, 1));
    p.magnetics.activity_distance = activity;
    Session session(p);
    const Particles& s = session.state().particles;
    const DipolePair expected = dipole_pair(xi - xj, s.moment[0], s.moment[1], 0.0);
    if (activity < gap) {
      CHECK(s.force[0].norm() == 0.0);
      CHECK(session.observe().dipole == 0.0);
    } else {
      CHECK((s.force[0] - expected.force_i).norm() < 1e-12 * expected.force_i.norm());
      CHECK(session.observe().dipole == Approx(expected.energy).epsilon(1e-12));
    }
  }
}

TEST_CASE("the capping distance limits the force of two close dipoles in a run", "[magnetics]") {
  // Small spheres (no contact) 1 mm apart, cap 2 mm: force and energy are those at 2 mm.
  const double r = 1e-4;
  Preset p = dipole_pair_preset(Vec3(0, 0, 1e-3), Vec3(0, 0, 0), r, Vec3(0, 0, 1), Vec3(1, 0, 1));
  p.magnetics.dipole_cap = 2e-3;
  Session session(p);
  const Particles& s = session.state().particles;
  const DipolePair at_cap = dipole_pair(Vec3(0, 0, 2e-3), s.moment[0], s.moment[1], 0.0);
  CHECK((s.force[0] - at_cap.force_i).norm() < 1e-12 * at_cap.force_i.norm());
  CHECK((s.force[1] + at_cap.force_i).norm() < 1e-12 * at_cap.force_i.norm());
  CHECK((s.torque[0] - at_cap.torque_i).norm() < 1e-12 * at_cap.torque_i.norm());
  CHECK((s.torque[1] - at_cap.torque_j).norm() < 1e-12 * at_cap.torque_j.norm());
  // Without the cap the force is (2 mm / 1 mm)^4 = 16 times larger along the axis (head to tail
  // component dominates; compare the full vectors).
  p.magnetics.dipole_cap = 0.0;
  Session uncapped(p);
  const DipolePair close = dipole_pair(Vec3(0, 0, 1e-3), s.moment[0], s.moment[1], 0.0);
  CHECK((uncapped.state().particles.force[0] - close.force_i).norm() < 1e-12 * close.force_i.norm());
  CHECK(close.force_i.norm() == Approx(16.0 * at_cap.force_i.norm()).epsilon(1e-12));
}

TEST_CASE("the cutoff method ignores pairs beyond the cutoff and sums the rest", "[magnetics]") {
  // Three collinear dipoles 3 mm apart; cutoff 4 mm: pairs (0,1) and (1,2) interact, (0,2) at 6 mm not.
  const double r = 5e-4;
  Preset p = bare_preset();
  p.materials[0].magnetization = 8e5;
  p.magnetics.method = DipoleMethod::Cutoff;
  p.magnetics.cutoff = 4e-3;
  for (int k = 0; k < 3; ++k) p.particles.particles.push_back(sphere(Vec3(0, 0, 3e-3 * k), r));
  p.particles.particles[2].axis = Vec3(1, 0, 0);
  Session session(p);
  const Particles& s = session.state().particles;
  const DipolePair p01 = dipole_pair(s.position[0] - s.position[1], s.moment[0], s.moment[1], 0.0);
  const DipolePair p12 = dipole_pair(s.position[1] - s.position[2], s.moment[1], s.moment[2], 0.0);
  CHECK((s.force[0] - p01.force_i).norm() < 1e-12 * p01.force_i.norm());
  CHECK((s.force[1] - (-p01.force_i + p12.force_i)).norm() < 1e-12 * p01.force_i.norm());
  CHECK((s.torque[2] - p12.torque_j).norm() < 1e-12 * p12.torque_j.norm());
  CHECK(session.observe().dipole == Approx(p01.energy + p12.energy).epsilon(1e-12));
  // The direct sum adds the (0,2) pair.
  p.magnetics.method = DipoleMethod::Direct;
  Session direct(p);
  const DipolePair p02 = dipole_pair(s.position[0] - s.position[2], s.moment[0], s.moment[2], 0.0);
  CHECK(direct.observe().dipole == Approx(p01.energy + p12.energy + p02.energy).epsilon(1e-12));
}

TEST_CASE("the direct method sums every pair at its nearest image, to round-off on any number of threads",
          "[magnetics][threading]") {
  // 400 magnetised spheres at random in a box periodic along x and y, open along z, moments in random
  // directions. The engine's pass (the SIMD kernel over all pairs, the pairs split between the threads in
  // equal numbers) against the pair formula of engine/magnetic/dipole.hpp summed here over every pair, each
  // at its nearest image. 400 spheres: 79 800 pairs, more than one part per thread of three.
  const Vec3 box(0.02, 0.03, 0.02);
  Preset p = bare_preset();
  p.materials[0].magnetization = 8e5;
  p.magnetics.method = DipoleMethod::Direct;
  p.box.min = Vec3::Zero();
  p.box.max = box;
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = SideKind::Periodic;
  std::mt19937_64 g(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k = 0; k < 400; ++k) {
    ParticleEntry e = sphere(Vec3(box.x() * u(g), box.y() * u(g), box.z() * u(g)), 2e-4);
    e.axis = Vec3(u(g) - 0.5, u(g) - 0.5, u(g) - 0.5).normalized();
    p.particles.particles.push_back(e);
  }
  const Session session(p);
  const Particles& s = session.state().particles;
  const size_t n = s.size();
  const DipoleSums expected = pair_formula_sum(s, [&](size_t i, size_t j) {
    Vec3 r = s.position[i] - s.position[j];
    for (int a = 0; a < 2; ++a) r[a] -= box[a] * std::round(r[a] / box[a]);
    return std::optional<Vec3>(r);
  });
  const double force_scale = largest_norm(expected.force), torque_scale = largest_norm(expected.torque);
  for (int threads : {1, 3}) {
    INFO(threads << " threads");
    ThreadTeam team(threads);
    State state = session.state();
    for (Vec3& f : state.particles.force) f.setZero();
    for (Vec3& t : state.particles.torque) t.setZero();
    compute_dipole_forces(session.model(), state, team);
    // Round-off of sums of 399 terms of either sign: 1e-12 of the largest force.
    CHECK(state.energy.dipole == Approx(expected.energy).epsilon(1e-12));
    double worst_force = 0.0, worst_torque = 0.0;
    for (size_t i = 0; i < n; ++i) {
      worst_force = std::max(worst_force, (state.particles.force[i] - expected.force[i]).norm());
      worst_torque = std::max(worst_torque, (state.particles.torque[i] - expected.torque[i]).norm());
    }
    CHECK(worst_force < 1e-12 * force_scale);
    CHECK(worst_torque < 1e-12 * torque_scale);
    // The same bits when run again with the same number of threads.
    State again = session.state();
    for (Vec3& f : again.particles.force) f.setZero();
    for (Vec3& t : again.particles.torque) t.setZero();
    compute_dipole_forces(session.model(), again, team);
    bool same = testing::same_bits(again.energy.dipole, state.energy.dipole);
    for (size_t i = 0; i < n; ++i)
      same = same && testing::same_bits(again.particles.force[i], state.particles.force[i]) &&
             testing::same_bits(again.particles.torque[i], state.particles.torque[i]);
    CHECK(same);
  }
}

TEST_CASE("the cutoff kernel skips the minimum image only where it changes nothing", "[magnetics]") {
  // 600 magnetised spheres at random in a box periodic along x and z, open along y, cutoff 4 mm: a third of them lie
  // within the cutoff of a periodic face. The SIMD kernel leaves out the minimum image along the axes where a
  // particle is farther than the cutoff from both faces (engine/magnetic/dipole_kernel.hpp); with every position in
  // the box that gives the bits of the kernel imaging every pair (positions_in_box = false), and both agree with
  // the pair formula summed here over the pairs within the cutoff at their nearest image. With positions moved out
  // of the box by a box length (as a preset or an edit may leave them) the pass images every pair and gets the same
  // forces to round-off.
  const Vec3 box(0.02, 0.025, 0.02);
  const double cutoff = 4e-3;
  Preset p = bare_preset();
  p.materials[0].magnetization = 8e5;
  p.magnetics.method = DipoleMethod::Cutoff;
  p.magnetics.cutoff = cutoff;
  p.box.min = Vec3(-0.01, 0.0, 0.005);
  p.box.max = p.box.min + box;
  p.box.x_min = p.box.x_max = p.box.z_min = p.box.z_max = SideKind::Periodic;
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k = 0; k < 600; ++k) {
    const Vec3 x = p.box.min + Vec3(box.x() * u(g), box.y() * u(g), box.z() * u(g));
    ParticleEntry e = sphere(x, 1e-4);
    e.axis = Vec3(u(g) - 0.5, u(g) - 0.5, u(g) - 0.5).normalized();
    p.particles.particles.push_back(e);
  }
  const Session session(p);
  const Model& model = session.model();
  const State& state = session.state();
  const Particles& s = state.particles;
  const size_t n = s.size();
  REQUIRE(positions_in_periodic_box(s.position.data(), n, model.box.min, model.periodic_length));

  const DipoleSums expected = pair_formula_sum(s, [&](size_t i, size_t j) -> std::optional<Vec3> {
    Vec3 r = s.position[i] - s.position[j];
    for (int a : {0, 2}) r[a] -= box[a] * std::round(r[a] / box[a]);
    if (r.norm() > cutoff) return std::nullopt;
    return r;
  });
  const double force_scale = largest_norm(expected.force), torque_scale = largest_norm(expected.torque);
  const auto worst = [](const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    double w = 0.0;
    for (size_t i = 0; i < a.size(); ++i) w = std::max(w, (a[i] - b[i]).norm());
    return w;
  };

  const std::vector<IndexPair>& pairs = state.neighbors.dipole_pairs;
  std::vector<Vec3> force[2], torque[2];
  double energy[2];
  for (int in_box : {0, 1}) {
    DipoleKernelInput in{pairs.data(), s.position.data(),    s.moment.data(), model.dipole_cutoff,
                         0.0,          model.periodic_length};
    in.box_min = model.box.min;
    in.positions_in_box = in_box == 1;
    force[in_box].assign(n, Vec3::Zero());
    torque[in_box].assign(n, Vec3::Zero());
    energy[in_box] = dipole_cutoff_kernel(in, 0, pairs.size(), force[in_box].data(), torque[in_box].data());
  }
  bool same = testing::same_bits(energy[0], energy[1]);
  for (size_t i = 0; i < n; ++i)
    same = same && testing::same_bits(force[0][i], force[1][i]) && testing::same_bits(torque[0][i], torque[1][i]);
  CHECK(same);
  // Round-off of sums of about 30 terms of either sign.
  CHECK(energy[1] == Approx(expected.energy).epsilon(1e-12));
  CHECK(worst(force[1], expected.force) < 1e-12 * force_scale);
  CHECK(worst(torque[1], expected.torque) < 1e-12 * torque_scale);

  // Every tenth sphere a box length out along x or z (the lists stay valid: the same scene).
  State moved = state;
  for (size_t i = 0; i < n; i += 10)
    moved.particles.position[i][i % 20 == 0 ? 0 : 2] += i % 40 < 20 ? box.x() : -box.z();
  REQUIRE_FALSE(positions_in_periodic_box(moved.particles.position.data(), n, model.box.min, model.periodic_length));
  for (Vec3& f : moved.particles.force) f.setZero();
  for (Vec3& t : moved.particles.torque) t.setZero();
  compute_dipole_forces(model, moved);
  // The separations of the moved pairs differ by the rounding of a box length: 1e-12 of the largest.
  CHECK(worst(moved.particles.force, expected.force) < 1e-12 * force_scale);
  CHECK(worst(moved.particles.torque, expected.torque) < 1e-12 * torque_scale);
}

TEST_CASE("the cutoff kernel gathers four partners at a time to the bits of one at a time", "[magnetics]") {
  // Where the processor has AVX2 the kernel takes a particle's partners four at a time and moves those within the
  // cutoff together (engine/magnetic/dipole_kernel.cpp). Lane by lane it subtracts, images and tests as the
  // one-at-a-time gather does, so the forces, torques and energy must be the same to the bit. A list made here: 300
  // particles in a unit box periodic along x and z, runs of 0 to 150 partners (longer than a block of 64), partners
  // at random so that every set of kept lanes and every remainder of four occurs, one at the very point of its
  // particle (never kept); with the minimum image skipped far from the faces and taken everywhere.
  std::mt19937_64 g(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const size_t n = 300;
  const Vec3 box_min(-0.5, 0.0, 0.2), periodic_length(1.0, 0.0, 1.0);
  std::vector<Vec3> position(n), moment(n);
  for (size_t i = 0; i < n; ++i) {
    position[i] = box_min + Vec3(u(g), u(g), u(g));
    moment[i] = Vec3(u(g) - 0.5, u(g) - 0.5, u(g) - 0.5);
  }
  position[6] = position[5];
  std::vector<IndexPair> pairs;
  for (size_t i = 0; i < n; ++i) {
    std::vector<int> partners;
    for (size_t j = 0; j < n; ++j)
      if (j != i && u(g) < static_cast<double>((i * 7) % 151) / static_cast<double>(n))
        partners.push_back(static_cast<int>(j));
    if (i == 5 && (partners.empty() || partners.front() != 6)) partners.insert(partners.begin(), 6);
    for (int j : partners) pairs.push_back({static_cast<int>(i), j});
  }
  size_t longest_run = 0;
  for (size_t k = 0, run = 0; k < pairs.size(); ++k) {
    run = k > 0 && pairs[k].i == pairs[k - 1].i ? run + 1 : 1;
    longest_run = std::max(longest_run, run);
  }
  REQUIRE(longest_run > 100);

  for (const bool in_box : {false, true}) {
    INFO((in_box ? "image skipped far from the faces" : "every pair imaged"));
    std::vector<Vec3> force[2], torque[2];
    double energy[2];
    for (int four : {0, 1}) {
      DipoleKernelInput in{pairs.data(), position.data(), moment.data(), 0.45, 0.0, periodic_length};
      in.box_min = box_min;
      in.positions_in_box = in_box;
      in.four_at_a_time = four == 1;
      force[four].assign(n, Vec3::Zero());
      torque[four].assign(n, Vec3::Zero());
      energy[four] = dipole_cutoff_kernel(in, 0, pairs.size(), force[four].data(), torque[four].data());
    }
    bool same = same_bits(energy[0], energy[1]);
    for (size_t i = 0; i < n; ++i)
      same = same && same_bits(force[0][i], force[1][i]) && same_bits(torque[0][i], torque[1][i]);
    CHECK(same);
    CHECK(std::isfinite(energy[1]));
    CHECK(energy[1] != 0.0);
  }
#if defined(__x86_64__)
  const bool avx2 = __builtin_cpu_supports("avx2");
#else
  const bool avx2 = false;
#endif
  std::printf("[figure] four-at-a-time gather: %zu list pairs, runs up to %zu, %s\n", pairs.size(), longest_run,
              avx2 ? "AVX2 here: the two gathers compared" : "no AVX2 here: one gather only");
}

TEST_CASE("the pair formula's vector loop fuses exactly the multiply-adds it writes", "[magnetics]") {
  // detail::dipole_block runs as the AVX-512, FMA or baseline clone the processor allows (engine/core/simd.hpp); each
  // must give the bits of the formula as written, one std::fma at a time, for the run to be the same on every machine.
  // The formula again, pair by pair, in this file's baseline code (std::fma: the C library's, exactly rounded); a block
  // of 29 pairs (three whole vectors of eight and a padded one), one of them inside the cap. The physics of the formula
  // is tested against dipole_pair above.
  std::mt19937_64 g(17);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  detail::DipoleBlock b{};
  const int count = 29;
  const double cap = 0.3;
  for (int k = 0; k < count; ++k) {
    b.j[k] = k;
    b.dx[k] = u(g), b.dy[k] = u(g), b.dz[k] = u(g);
    b.mx[k] = u(g), b.my[k] = u(g), b.mz[k] = u(g);
  }
  b.dx[7] = 0.1, b.dy[7] = -0.05, b.dz[7] = 0.02;  // inside the cap
  const double mi[3] = {0.3, -0.7, 0.45};
  const detail::DipoleBlock in = b;
  detail::dipole_block(mi, b, count, cap);
  const auto fma = [](double a, double x, double c) { return std::fma(a, x, c); };
  bool same = true;
  for (int k = 0; k < count; ++k) {
    const double dx = in.dx[k], dy = in.dy[k], dz = in.dz[k], mjx = in.mx[k], mjy = in.my[k], mjz = in.mz[k];
    const double r = std::sqrt(fma(dz, dz, fma(dy, dy, dx * dx)));
    const double inv_r_true = 1.0 / r;
    const double nx = dx * inv_r_true, ny = dy * inv_r_true, nz = dz * inv_r_true;
    const double inv_r = r < cap ? 1.0 / cap : inv_r_true;
    const double inv_r3 = mu0_over_4pi * inv_r * inv_r * inv_r, inv_r4 = 3.0 * inv_r3 * inv_r;
    const double mi_n = fma(mi[2], nz, fma(mi[1], ny, mi[0] * nx));
    const double mj_n = fma(mjz, nz, fma(mjy, ny, mjx * nx));
    const double mi_mj = fma(mi[2], mjz, fma(mi[1], mjy, mi[0] * mjx));
    const double radial = fma(-5.0 * mi_n, mj_n, mi_mj);
    const double f[3] = {inv_r4 * fma(radial, nx, fma(mj_n, mi[0], mi_n * mjx)),
                         inv_r4 * fma(radial, ny, fma(mj_n, mi[1], mi_n * mjy)),
                         inv_r4 * fma(radial, nz, fma(mj_n, mi[2], mi_n * mjz))};
    const double c[3] = {fma(mi[1], mjz, -(mi[2] * mjy)), fma(mi[2], mjx, -(mi[0] * mjz)),
                         fma(mi[0], mjy, -(mi[1] * mjx))};
    const double a[3] = {fma(mi[1], nz, -(mi[2] * ny)), fma(mi[2], nx, -(mi[0] * nz)), fma(mi[0], ny, -(mi[1] * nx))};
    const double bj[3] = {fma(mjy, nz, -(mjz * ny)), fma(mjz, nx, -(mjx * nz)), fma(mjx, ny, -(mjy * nx))};
    const double ti[3] = {inv_r3 * fma(3.0 * mj_n, a[0], -c[0]), inv_r3 * fma(3.0 * mj_n, a[1], -c[1]),
                          inv_r3 * fma(3.0 * mj_n, a[2], -c[2])};
    const double tj[3] = {inv_r3 * fma(3.0 * mi_n, bj[0], c[0]), inv_r3 * fma(3.0 * mi_n, bj[1], c[1]),
                          inv_r3 * fma(3.0 * mi_n, bj[2], c[2])};
    const double e = -inv_r3 * fma(3.0 * mi_n, mj_n, -mi_mj);
    same = same && same_bits(b.fx[k], f[0]) && same_bits(b.fy[k], f[1]) && same_bits(b.fz[k], f[2]) &&
           same_bits(b.tix[k], ti[0]) && same_bits(b.tiy[k], ti[1]) && same_bits(b.tiz[k], ti[2]) &&
           same_bits(b.tjx[k], tj[0]) && same_bits(b.tjy[k], tj[1]) && same_bits(b.tjz[k], tj[2]) &&
           same_bits(b.e[k], e);
    // And the physics to round-off: dipole_pair, the unfused formula.
    const DipolePair d = dipole_pair(Vec3(dx, dy, dz), Vec3(mi[0], mi[1], mi[2]), Vec3(mjx, mjy, mjz), cap);
    // The terms' size, mu0/4pi |mi||mj| / r^3 (and / r^4): a few roundings of them, where terms may cancel.
    const double scale = inv_r3 * std::sqrt(mi[0] * mi[0] + mi[1] * mi[1] + mi[2] * mi[2]) *
                         std::sqrt(mjx * mjx + mjy * mjy + mjz * mjz);
    CHECK(std::abs(b.e[k] - d.energy) <= 1e-14 * scale);
    CHECK((Vec3(b.fx[k], b.fy[k], b.fz[k]) - d.force_i).norm() <= 1e-14 * scale * inv_r);
    CHECK((Vec3(b.tjx[k], b.tjy[k], b.tjz[k]) - d.torque_j).norm() <= 1e-14 * scale);
  }
  CHECK(same);
}
