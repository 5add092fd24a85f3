#pragma once
// Field lines of the total field B(x) (engine/magnetic/field_evaluation.hpp; outside the particles, through
// FieldEvaluator::outside_at): curves x(s) along the unit
// vector B/|B|, traced from seed points with the classical fourth-order Runge-Kutta method in arc length s,
//   dx/ds = u(x) = B(x)/|B(x)|,
// forward (along B) and backward from each seed. A line ends where it enters a particle (the last step is
// shortened, by bisection on its length, to end on the sphere's surface: inside, the interior field would bend
// it), leaves the bounds (cut to the bounding box), reaches its length
// or step limit, or meets a point where |B| <= min_field (near a null the direction is undefined).
//
// Steps: `step` is the arc length of one step. With max_step > step the step adapts to the bending of the line:
// after each step the turn of the direction, |u(x_end) - u(x_start)| (radians for small angles), is measured;
// a turn above max_turn repeats the step at half the length (not below `step`), a turn below 0.4 max_turn lets
// the next step double (not above max_step). Straight stretches far from the particles then take long steps.
// RK4's error per step is O(h^5 / rho^4) for a line of curvature radius rho, so on a fixed step the error
// after a length L falls as h^4 (tests/engine/analysis/test_field_lines.cpp checks the order on a dipole's line).

#include "engine/core/thread_team.hpp"
#include "engine/magnetic/field_evaluation.hpp"

#include <span>
#include <vector>

namespace lodestone {

struct FieldLineSettings {
  double step = 0.0;        // [m] arc length of a step (the smallest, when adaptive); > 0
  double max_step = 0.0;    // [m] adaptive steps up to this length; <= step: every step is `step` long
  double max_turn = 0.1;    // [rad] adaptive: largest turn of the direction in one step
  double max_length = 0.0;  // [m] per direction; 0: no limit but max_steps
  int max_steps = 1000;     // per direction
  bool forward = true;      // trace along B from the seed
  bool backward = true;     // and against it
  Vec3 bound_min = Vec3::Constant(-INFINITY);  // [m] a line ends on leaving this box
  Vec3 bound_max = Vec3::Constant(INFINITY);   // [m]
  double min_field = 0.0;                      // [T] a line ends where |B| <= this
};

enum class LineEnd : int { Particle, Bounds, Length, Steps, NullField };

struct FieldLine {
  // [m] from the backward end through the seed to the forward end (the seed is points[seed_index]).
  std::vector<Vec3> points;
  size_t seed_index = 0;
  LineEnd backward_end = LineEnd::Steps, forward_end = LineEnd::Steps;
};

// Settings for a scene: adaptive steps from a fifth of the smallest radius up to the largest diameter, lines
// bounded by the box (on open axes: the particles' extent, widened by half of it and two diameters each side)
// and at most twice its diagonal long.
FieldLineSettings field_line_settings_for(const Model& model, const State& state);

FieldLine trace_field_line(const FieldEvaluator& field, const Vec3& seed, const FieldLineSettings& settings);
// One line per seed, the seeds split between the team's threads (each line is traced by one thread).
std::vector<FieldLine> trace_field_lines(const FieldEvaluator& field, std::span<const Vec3> seeds,
                                         const FieldLineSettings& settings, ThreadTeam& team = ThreadTeam::serial());

}  // namespace lodestone
