// The total field B(x) at free points (engine/magnetic/field_evaluation.hpp) against the closed form of the
// point-dipole field, B = c0/r^3 [3 n (n.m) - m] ([PFC-dipole] eq. 6), written out here independently of the
// engine, for one and two dipoles with each summing method, plus the applied field program; the interior of a
// sphere; a chain seen from afar against a single dipole of its total moment; the tree within its stated
// accuracy; minimum images in a periodic box; and results that do not depend on the thread count.
//
// Tolerances: 1e-12 relative where the engine and the reference evaluate the same sum (a few roundings per
// term, far above double precision's 1e-16); the far field of a chain and the tree are approximations with
// their own error bounds, given where they are checked.

#include "engine/core/random.hpp"
#include "engine/live/simulation_thread.hpp"
#include "engine/magnetic/field.hpp"
#include "engine/magnetic/field_evaluation.hpp"
#include "tests/engine/test_support.hpp"

#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

constexpr double c0 = 1e-7;  // mu0 / 4 pi [T m / A]

// The closed form, component by component (not through the engine's Vec3 helpers).
Vec3 dipole_reference(const Vec3& x, const Vec3& centre, const Vec3& m) {
  const double rx = x.x() - centre.x(), ry = x.y() - centre.y(), rz = x.z() - centre.z();
  const double r = std::sqrt(rx * rx + ry * ry + rz * rz);
  const double m_r = m.x() * rx + m.y() * ry + m.z() * rz;
  const double r3 = r * r * r, r5 = r3 * r * r;
  return Vec3(c0 * (3.0 * m_r * rx / r5 - m.x() / r3), c0 * (3.0 * m_r * ry / r5 - m.y() / r3),
              c0 * (3.0 * m_r * rz / r5 - m.z() / r3));
}

double relative_error(const Vec3& got, const Vec3& want) {
  return (got - want).norm() / want.norm();
}

ParticleEntry dipole(const Vec3& position, double radius, const Vec3& axis, double moment) {
  ParticleEntry e = sphere(position, radius);
  e.axis = axis.normalized();
  e.moment = moment;
  return e;
}

Preset dipoles_preset(DipoleMethod method, std::vector<ParticleEntry> particles) {
  Preset p = bare_preset();
  p.magnetics.method = method;
  p.magnetics.cutoff = 0.04;  // [m] beyond every probe distance used with the cutoff method here
  p.particles.particles = std::move(particles);
  return p;
}

// Probe points around the origin, outside spheres of 1 mm at the origin and at (3, 1, -2) mm.
std::vector<Vec3> probe_points() {
  return {Vec3(4e-3, 0, 0),        Vec3(0, 0, 5e-3),          Vec3(-2e-3, 3e-3, 1e-3), Vec3(2.5e-3, -2.5e-3, 2.5e-3),
          Vec3(1e-2, 2e-2, -5e-3), Vec3(-3e-3, -1e-3, -4e-3), Vec3(0, 1.2e-3, 0)};
}

}  // namespace

TEST_CASE("One dipole: the field at free points is the closed form to 1e-12 with every summing method",
          "[field_evaluation]") {
  const Vec3 m_axis = Vec3(0.3, -0.5, 0.8).normalized();
  const double moment = 4e-4;
  for (DipoleMethod method : {DipoleMethod::Cutoff, DipoleMethod::Direct, DipoleMethod::Tree}) {
    Session session(dipoles_preset(method, {dipole(Vec3::Zero(), 1e-3, m_axis, moment)}));
    const Vec3 m = session.state().particles.moment[0];
    REQUIRE(relative_error(m, moment * m_axis) < 1e-14);
    for (FieldSum sum : {FieldSum::AsForces, FieldSum::Exact}) {
      const FieldEvaluator field(session.model(), session.state(), {.sum = sum});
      for (const Vec3& x : probe_points()) {
        INFO("method " << static_cast<int>(method) << ", point " << x.transpose());
        CHECK(relative_error(field.at(x), dipole_reference(x, Vec3::Zero(), m)) < 1e-12);
      }
    }
  }
}

TEST_CASE("Two dipoles: the field is the sum of both closed forms to 1e-12", "[field_evaluation]") {
  const Vec3 second(3e-3, 1e-3, -2e-3);
  for (DipoleMethod method : {DipoleMethod::Cutoff, DipoleMethod::Direct, DipoleMethod::Tree}) {
    Session session(dipoles_preset(
        method, {dipole(Vec3::Zero(), 1e-3, Vec3(0, 0, 1), 4e-4), dipole(second, 1e-3, Vec3(1, 1, 0), 2.5e-4)}));
    const Particles& p = session.state().particles;
    const FieldEvaluator field(session.model(), session.state());
    const std::vector<Vec3> points = probe_points();
    std::vector<Vec3> values(points.size());
    field.evaluate(points, values);
    for (size_t k = 0; k < points.size(); ++k) {
      INFO("method " << static_cast<int>(method) << ", point " << points[k].transpose());
      const Vec3 want = dipole_reference(points[k], p.position[0], p.moment[0]) +
                        dipole_reference(points[k], p.position[1], p.moment[1]);
      CHECK(relative_error(values[k], want) < 1e-12);
    }
  }
}

TEST_CASE("The applied field program and its gradient are added at the state's time", "[field_evaluation]") {
  Preset preset = dipoles_preset(DipoleMethod::Direct, {dipole(Vec3::Zero(), 1e-3, Vec3(0, 0, 1), 4e-4)});
  preset.field.program = FieldProgram::Rotating;
  preset.field.strength = 0.02;
  preset.field.frequency = 50.0;
  preset.field.direction = Vec3(1, 0, 0);
  preset.field.rotation_axis = Vec3(0, 0, 1);
  // Symmetric and traceless [T/m].
  preset.field.gradient << 0.5, 0.2, 0.0, 0.2, -0.3, 0.1, 0.0, 0.1, -0.2;
  preset.field.gradient_origin = Vec3(1e-3, 0, 0);
  Session session(preset);
  run_checked(session, 40);
  const State& state = session.state();
  REQUIRE(state.time > 0.0);
  const double angle = 2.0 * pi * 50.0 * state.time;
  const Vec3 uniform = 0.02 * Vec3(std::cos(angle), std::sin(angle), 0.0);
  const FieldEvaluator field(session.model(), state);
  const FieldEvaluator applied_only(session.model(), state, {.moments = false});
  for (const Vec3& x : probe_points()) {
    const Vec3 applied = uniform + preset.field.gradient * (x - preset.field.gradient_origin);
    const Vec3 want = applied + dipole_reference(x, state.particles.position[0], state.particles.moment[0]);
    CHECK(relative_error(applied_only.at(x), applied) < 1e-12);
    CHECK(relative_error(field.at(x), want) < 1e-12);
  }
}

TEST_CASE("Inside a sphere its own term is the uniform interior field 2/3 mu0 M, continuous in B.n at the surface",
          "[field_evaluation]") {
  const double radius = 1e-3, moment = 4e-4;
  const Vec3 axis = Vec3(0, 0, 1);
  const Vec3 other(4e-3, 0, 0);
  for (DipoleMethod method : {DipoleMethod::Cutoff, DipoleMethod::Direct, DipoleMethod::Tree}) {
    Session session(dipoles_preset(
        method, {dipole(Vec3::Zero(), radius, axis, moment), dipole(other, radius, Vec3(0, 1, 0), moment)}));
    const Particles& p = session.state().particles;
    const FieldEvaluator field(session.model(), session.state());
    // 2/3 mu0 M with M = m / V: 2/3 mu0 m / (4/3 pi R^3) = 2 c0 m / R^3.
    const Vec3 interior = (2.0 / 3.0) * mu0 * p.moment[0] / sphere_volume(radius);
    for (const Vec3& x : std::vector<Vec3>{Vec3::Zero(), Vec3(0.3e-3, -0.2e-3, 0.5e-3), Vec3(0, 0, 0.999e-3)}) {
      INFO("method " << static_cast<int>(method) << ", point " << x.transpose());
      CHECK(field.particle_at(x) == 0);
      CHECK(relative_error(field.at(x), interior + dipole_reference(x, other, p.moment[1])) < 1e-12);
      // The continuation of the outside field (what field lines follow): the point dipole's, also inside.
      if (x.norm() > 0.0)
        CHECK(relative_error(field.outside_at(x), dipole_reference(x, Vec3::Zero(), p.moment[0]) +
                                                      dipole_reference(x, other, p.moment[1])) < 1e-12);
    }
    // The normal component across the surface at a point off the axis.
    const Vec3 n = Vec3(0.6, 0.0, 0.8);
    const Vec3 just_inside = (1.0 - 1e-9) * radius * n, just_outside = (1.0 + 1e-9) * radius * n;
    CHECK(field.particle_at(just_outside) == -1);
    const double inside_n = field.at(just_inside).dot(n), outside_n = field.at(just_outside).dot(n);
    CHECK(std::abs(inside_n - outside_n) < 1e-7 * std::abs(outside_n));
  }
}

TEST_CASE("Far from a chain its field is that of one dipole of its total moment, to (L/r)^2", "[field_evaluation]") {
  // Ten touching spheres along z, moments along z: symmetric about the centre, so the quadrupole vanishes and
  // the first correction to the dipole term is the octupole's, of relative size ~ (L/r)^2 (L the chain's
  // length); the chain's own field is the sum of its dipoles (checked with the exact sum at each point).
  const double radius = 0.5e-3, moment = 5e-5;
  std::vector<ParticleEntry> chain;
  for (int k = 0; k < 10; ++k) chain.push_back(dipole(Vec3(0, 0, (2 * k - 9) * radius), radius, Vec3(0, 0, 1), moment));
  Session session(dipoles_preset(DipoleMethod::Direct, chain));
  const Particles& p = session.state().particles;
  const FieldEvaluator field(session.model(), session.state(), {.sum = FieldSum::Exact});
  const double length = 20 * radius;
  const Vec3 total = 10 * moment * Vec3(0, 0, 1);
  double previous = 0.0;
  for (double distance : {5 * length, 10 * length, 20 * length}) {
    const Vec3 x = distance * Vec3(0.6, 0.0, 0.8);
    Vec3 sum = Vec3::Zero();
    for (size_t i = 0; i < p.size(); ++i) sum += dipole_reference(x, p.position[i], p.moment[i]);
    const Vec3 b = field.at(x);
    CHECK(relative_error(b, sum) < 1e-12);
    const double error = relative_error(b, dipole_reference(x, Vec3::Zero(), total));
    INFO("r / L = " << distance / length << ": relative deviation from one dipole " << error);
    CHECK(error < std::pow(length / distance, 2));
    if (previous > 0.0) CHECK(error < previous / 3.0);  // falls as r^-2: a quarter per doubling
    previous = error;
  }
}

TEST_CASE("The tree's field at free points is within its stated accuracy of the exact sum", "[field_evaluation]") {
  // 400 polydisperse spheres, random moments, in a cube at volume fraction 0.1; probes on a grid through the
  // cloud and around it (outside the spheres). The force pass's tree has an RMS relative error below 1e-3
  // at theta = 0.3 (tests/engine/magnetic/test_dipole_tree.cpp, docs/physics.md); the field at free points is the same
  // expansion, so the same bound holds, and it falls about as theta^3 (a factor 3 asked for halving theta).
  Random rng(11);
  std::vector<ParticleEntry> entries;
  const double side = 0.02;
  while (entries.size() < 400) {
    const double r = rng.uniform(0.5e-3, 1.0e-3);
    const Vec3 x(rng.uniform(0, side), rng.uniform(0, side), rng.uniform(0, side));
    bool free = true;
    for (const ParticleEntry& e : entries) free = free && (x - e.position).norm() >= r + e.radius;
    if (free) entries.push_back(dipole(x, r, rng.orientation() * Vec3::UnitZ(), 8e5 * sphere_volume(r)));
  }
  auto rms_error = [&](double theta) {
    Preset preset = dipoles_preset(DipoleMethod::Tree, entries);
    preset.magnetics.tree_opening_angle = theta;
    Session session(preset);
    const FieldEvaluator tree(session.model(), session.state());
    const FieldEvaluator exact(session.model(), session.state(), {.sum = FieldSum::Exact});
    double error_sq = 0.0, norm_sq = 0.0;
    int count = 0;
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) {
        const Vec3 x(-0.2 * side + 1.4 * side * i / 11.0, -0.2 * side + 1.4 * side * j / 11.0, 0.47 * side);
        if (exact.particle_at(x) >= 0) continue;
        const Vec3 want = exact.at(x);
        error_sq += (tree.at(x) - want).squaredNorm();
        norm_sq += want.squaredNorm();
        ++count;
      }
    REQUIRE(count > 100);
    return std::sqrt(error_sq / norm_sq);
  };
  const double at_default = rms_error(0.3), at_half = rms_error(0.15), at_zero = rms_error(1e-6);
  INFO("RMS relative error: theta 0.3 " << at_default << ", 0.15 " << at_half << ", ~0 " << at_zero);
  CHECK(at_default < 1e-3);
  CHECK(at_half < at_default / 3.0);
  CHECK(at_zero < 1e-12);
}

TEST_CASE("A periodic box: the cutoff and direct sums take the minimum image of each moment", "[field_evaluation]") {
  Preset preset = dipoles_preset(DipoleMethod::Cutoff, {dipole(Vec3(0.5e-3, 5e-3, 5e-3), 0.4e-3, Vec3(0, 0, 1), 1e-4)});
  preset.box.min = Vec3::Zero();
  preset.box.max = Vec3(0.01, 0.01, 0.01);
  preset.box.x_min = preset.box.x_max = SideKind::Periodic;
  preset.magnetics.cutoff = 3e-3;
  for (DipoleMethod method : {DipoleMethod::Cutoff, DipoleMethod::Direct}) {
    preset.magnetics.method = method;
    Session session(preset);
    const Particles& p = session.state().particles;
    const FieldEvaluator field(session.model(), session.state());
    // Across the x boundary: the image at x + 10 mm is 1.5 mm from (9 mm, 5 mm, 5 mm).
    const Vec3 x(9e-3, 5e-3, 5.5e-3);
    const Vec3 image = p.position[0] + Vec3(0.01, 0, 0);
    CHECK(relative_error(field.at(x), dipole_reference(x, image, p.moment[0])) < 1e-12);
    // A point given outside the box is the same point as its periodic copy inside.
    CHECK(relative_error(field.at(x - Vec3(0.01, 0, 0)), dipole_reference(x, image, p.moment[0])) < 1e-12);
    CHECK(field.particle_at(Vec3(10.6e-3, 5e-3, 5e-3)) == 0);
    if (method == DipoleMethod::Cutoff) CHECK(field.at(Vec3(5e-3, 5e-3, 5e-3)).norm() == 0.0);  // beyond the cutoff
  }
}

TEST_CASE("The field of a scene does not depend on the thread count", "[field_evaluation]") {
  Preset preset = magnets_in_walled_box();
  Session session(preset);
  run_checked(session, 20);
  std::vector<Vec3> points;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) points.push_back(Vec3(6e-3 * i / 31.0, 6e-3 * j / 31.0, 2e-3));
  ThreadTeam team(2);
  for (FieldSum sum : {FieldSum::AsForces, FieldSum::Exact}) {
    const std::vector<Vec3> one = evaluate_field(session.model(), session.state(), points, {.sum = sum});
    const std::vector<Vec3> two = evaluate_field(session.model(), session.state(), points, {.sum = sum}, team);
    for (size_t k = 0; k < points.size(); ++k) REQUIRE((one[k].array() == two[k].array()).all());
  }
}

TEST_CASE("The simulation thread answers an EvaluateField with the field of its current state",
          "[field_evaluation][threading]") {
  // The path of the remote verb field-at (app/desktop/remote_control.hpp): a command in, the values out in a
  // snapshot, computed from the engine's state in double precision (not the snapshot's floats).
  const Preset preset = dipoles_preset(
      DipoleMethod::Cutoff,
      {dipole(Vec3::Zero(), 1e-3, Vec3(0, 0, 1), 4e-4), dipole(Vec3(3e-3, 1e-3, -2e-3), 1e-3, Vec3(1, 1, 0), 2.5e-4)});
  SimulationThread thread(preset, "two dipoles", /*start_running=*/false);
  auto wait_for = [&](std::uint64_t request) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (thread.snapshot().field_request != request && std::chrono::steady_clock::now() < deadline) {
      thread.update_snapshot();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return thread.snapshot().field_request == request;
  };
  const std::vector<Vec3> points = probe_points();
  thread.push(EvaluateField{5, points, false});
  REQUIRE(wait_for(5));
  const Session reference(preset);
  const Particles& p = reference.state().particles;
  {
    const Snapshot& s = thread.snapshot();
    REQUIRE(s.field_values);
    CHECK(s.field_values->step == 0);
    REQUIRE(s.field_values->field.size() == points.size());
    for (size_t k = 0; k < points.size(); ++k) {
      CHECK(s.field_values->points[k] == points[k]);
      const Vec3 want = dipole_reference(points[k], p.position[0], p.moment[0]) +
                        dipole_reference(points[k], p.position[1], p.moment[1]);
      CHECK(relative_error(s.field_values->field[k], want) < 1e-12);
    }
  }
  // After steps (waited for: a command queued behind them could be drained with them and run first), the
  // answer is of the new state.
  thread.push(StepOnce{5});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (thread.snapshot().step != 5 && std::chrono::steady_clock::now() < deadline) {
    thread.update_snapshot();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  REQUIRE(thread.snapshot().step == 5);
  thread.push(EvaluateField{6, {Vec3(4e-3, 0, 0)}, true});
  REQUIRE(wait_for(6));
  CHECK(thread.snapshot().field_values->step == 5);
}

TEST_CASE("A state with a non-finite position (a run that blew up) is evaluated without harm", "[field_evaluation]") {
  // The app may ask for the field of a run that stopped on a failed check: no crash, no out-of-range cell.
  for (DipoleMethod method : {DipoleMethod::Cutoff, DipoleMethod::Direct}) {
    Session session(dipoles_preset(method, {dipole(Vec3::Zero(), 1e-3, Vec3(0, 0, 1), 4e-4),
                                            dipole(Vec3(3e-3, 0, 0), 1e-3, Vec3(0, 0, 1), 4e-4)}));
    State state = session.state();
    state.particles.position[1] = Vec3(NAN, 0.0, INFINITY);
    const FieldEvaluator field(session.model(), state);
    CHECK(field.particle_at(Vec3::Zero()) == 0);
    const Vec3 b = field.at(Vec3(0, 0, 5e-3));
    CHECK(b.allFinite());  // the bad particle is at no finite distance: it adds nothing
  }
}
