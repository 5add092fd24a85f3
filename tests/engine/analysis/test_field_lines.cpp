// Field lines (engine/analysis/field_lines.hpp) of a single dipole against the closed form: in the plane of
// the moment a line of a point dipole is r = C sin^2(theta) (theta from the moment), so C = r / sin^2(theta)
// is constant along it. On fixed steps RK4's error after a fixed length falls as h^4: with h = C/100 the
// drift of C measured is 1.6e-7 relative (bound 1e-6), and halving h must cut it by at least 8 (15 measured,
// 16 expected; 8 leaves room for the last, shortened step and round-off). Adaptive steps at the default turn
// limit (0.1 rad per step, for the app: the error is far below a pixel) drift 1.4e-3 (bound 3e-3) with 99
// points where fixed steps of R/5 take 269; at 0.05 rad, 8e-5 (bound 2e-4) with 191.

#include "engine/analysis/field_lines.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

constexpr double kDipoleRadius = 1e-3;  // [m]

Session single_dipole() {
  Preset p = bare_preset();
  p.magnetics.method = DipoleMethod::Direct;
  ParticleEntry e = sphere(Vec3::Zero(), kDipoleRadius);
  e.axis = Vec3(0, 0, 1);
  e.moment = 1e-4;
  p.particles.particles = {e};
  return Session(p);
}

// Largest |r / sin^2(theta) - C| / C over the line (theta from +z).
double largest_drift(const FieldLine& line, double c) {
  double worst = 0.0;
  for (const Vec3& x : line.points) {
    const double r = x.norm();
    const double sin_theta = std::hypot(x.x(), x.y()) / r;
    worst = std::max(worst, std::abs(r / (sin_theta * sin_theta) - c) / c);
  }
  return worst;
}

}  // namespace

TEST_CASE("A dipole's field line follows r = C sin^2(theta) with RK4's fourth-order error", "[field_lines]") {
  Session session = single_dipole();
  const FieldEvaluator field(session.model(), session.state());
  const double c = 5e-3;
  const Vec3 seed(c, 0, 0);  // theta = 90 deg: r = C
  FieldLineSettings settings;
  settings.step = c / 100.0;
  settings.max_steps = 100000;
  const FieldLine coarse = trace_field_line(field, seed, settings);
  settings.step = c / 200.0;
  const FieldLine fine = trace_field_line(field, seed, settings);
  // Both ends on the sphere: at r = R, sin^2(theta) = R / C.
  CHECK(coarse.backward_end == LineEnd::Particle);
  CHECK(coarse.forward_end == LineEnd::Particle);
  CHECK(std::abs(coarse.points.front().norm() - kDipoleRadius) < 1e-8);
  CHECK(std::abs(coarse.points.back().norm() - kDipoleRadius) < 1e-8);
  // Along B: outside a dipole along +z the field at the equator points along -z, so the forward end is below.
  CHECK(coarse.points.back().z() < 0.0);
  CHECK(coarse.points.front().z() > 0.0);
  CHECK(coarse.points[coarse.seed_index] == seed);
  for (const Vec3& x : coarse.points) CHECK(std::abs(x.y()) < 1e-15);  // stays in the moment's plane
  const double drift_coarse = largest_drift(coarse, c), drift_fine = largest_drift(fine, c);
  INFO("drift of C: h = C/100 " << drift_coarse << ", h = C/200 " << drift_fine);
  CHECK(drift_coarse < 1e-6);
  CHECK(drift_fine < drift_coarse / 8.0);
}

TEST_CASE("Adaptive steps follow the dipole's line with fewer points, to their turn limit", "[field_lines]") {
  Session session = single_dipole();
  const FieldEvaluator field(session.model(), session.state());
  const double c = 2e-2;
  FieldLineSettings settings;
  settings.step = kDipoleRadius / 5.0;
  settings.max_step = 4 * kDipoleRadius;
  settings.max_steps = 100000;
  const FieldLine line = trace_field_line(field, Vec3(c, 0, 0), settings);
  settings.max_step = 0.0;
  const FieldLine fixed = trace_field_line(field, Vec3(c, 0, 0), settings);
  settings.max_step = 4 * kDipoleRadius;
  settings.max_turn = 0.05;
  const FieldLine finer = trace_field_line(field, Vec3(c, 0, 0), settings);
  INFO("points: adaptive " << line.points.size() << " (turn limit 0.05: " << finer.points.size() << "), fixed "
                           << fixed.points.size() << "; drift " << largest_drift(line, c) << ", "
                           << largest_drift(finer, c) << ", " << largest_drift(fixed, c));
  CHECK(line.forward_end == LineEnd::Particle);
  CHECK(line.backward_end == LineEnd::Particle);
  CHECK(largest_drift(line, c) < 3e-3);
  CHECK(line.points.size() * 2 < fixed.points.size());
  CHECK(largest_drift(finer, c) < 2e-4);
  CHECK(finer.points.size() < fixed.points.size());
}

TEST_CASE("Lines end at the bounds, at their length and at a null of the field", "[field_lines]") {
  Preset p = bare_preset();
  p.field.strength = 0.01;
  p.field.direction = Vec3(1, 0, 0);
  p.particles.particles = {sphere(Vec3(0, 0, 0.02), 1e-3)};  // no moment, out of the way
  Session session(p);
  const FieldEvaluator field(session.model(), session.state());
  FieldLineSettings settings;
  settings.step = 1e-3;
  settings.bound_min = Vec3::Constant(-0.01);
  settings.bound_max = Vec3::Constant(0.01);
  const FieldLine line = trace_field_line(field, Vec3(0, 0.002, 0), settings);
  CHECK(line.forward_end == LineEnd::Bounds);
  CHECK(line.backward_end == LineEnd::Bounds);
  CHECK(line.points.front().isApprox(Vec3(-0.01, 0.002, 0)));
  CHECK(line.points.back().isApprox(Vec3(0.01, 0.002, 0)));
  settings.max_length = 4.5e-3;
  const FieldLine short_line = trace_field_line(field, Vec3::Zero(), settings);
  CHECK(short_line.forward_end == LineEnd::Length);
  CHECK(short_line.points.back().isApprox(Vec3(4.5e-3, 0, 0)));
  // A line seeded inside a particle is the seed alone.
  const FieldLine inside = trace_field_line(field, Vec3(0, 0, 0.0205), settings);
  CHECK(inside.points.size() == 1);
  CHECK(inside.forward_end == LineEnd::Particle);
  // No field at all: a null.
  const FieldEvaluator nothing(session.model(), session.state(), {.applied = false});
  CHECK(trace_field_line(nothing, Vec3::Zero(), settings).forward_end == LineEnd::NullField);
}

TEST_CASE("Scene settings bound the lines by the box and step by the particle sizes", "[field_lines]") {
  Session session(magnets_in_walled_box());
  const FieldLineSettings s = field_line_settings_for(session.model(), session.state());
  CHECK(s.bound_min == session.model().box.min);
  CHECK(s.bound_max == session.model().box.max);
  CHECK(s.step == Approx(0.2 * 4e-4));
  CHECK(s.max_step == Approx(8e-4));
  const FieldEvaluator field(session.model(), session.state());
  const std::vector<Vec3> seeds = {Vec3(1e-3, 1e-3, 5.5e-3), Vec3(5e-3, 5e-3, 5.5e-3)};
  ThreadTeam team(2);
  const std::vector<FieldLine> lines = trace_field_lines(field, seeds, s, team);
  REQUIRE(lines.size() == 2);
  for (size_t k = 0; k < 2; ++k) {
    const FieldLine alone = trace_field_line(field, seeds[k], s);
    REQUIRE(alone.points.size() == lines[k].points.size());
    for (size_t i = 0; i < alone.points.size(); ++i) CHECK(alone.points[i] == lines[k].points[i]);
  }
}
