#include "engine/analysis/field_lines.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {
namespace {

bool inside_bounds(const Vec3& x, const FieldLineSettings& s) {
  return (x.array() >= s.bound_min.array()).all() && (x.array() <= s.bound_max.array()).all();
}

// The point where the segment from a (inside the bounds) to b (outside) leaves them.
Vec3 clip_to_bounds(const Vec3& a, const Vec3& b, const FieldLineSettings& s) {
  double t = 1.0;
  for (int k = 0; k < 3; ++k) {
    const double d = b[k] - a[k];
    if (b[k] > s.bound_max[k] && d > 0.0) t = std::min(t, (s.bound_max[k] - a[k]) / d);
    if (b[k] < s.bound_min[k] && d < 0.0) t = std::min(t, (s.bound_min[k] - a[k]) / d);
  }
  return a + std::clamp(t, 0.0, 1.0) * (b - a);
}

// Traces from the seed in one direction (sign +1: along B), appending the points after the seed to `out`.
LineEnd trace_direction(const FieldEvaluator& field, const Vec3& seed, double sign, const FieldLineSettings& s,
                        std::vector<Vec3>& out) {
  bool ok = true;
  auto direction = [&](const Vec3& x) -> Vec3 {
    const Vec3 b = field.outside_at(x);
    const double norm = b.norm();
    if (!(norm > s.min_field) || !std::isfinite(norm)) {
      ok = false;
      return Vec3::Zero();
    }
    return (sign / norm) * b;
  };
  if (field.particle_at(seed) >= 0) return LineEnd::Particle;
  if (!inside_bounds(seed, s)) return LineEnd::Bounds;
  const bool adaptive = s.max_step > s.step;
  // One RK4 step of length h from x, where the direction is u.
  auto rk4 = [&](const Vec3& x, const Vec3& u, double h) -> Vec3 {
    const Vec3 k2 = direction(x + 0.5 * h * u);
    const Vec3 k3 = direction(x + 0.5 * h * k2);
    const Vec3 k4 = direction(x + h * k3);
    return x + (h / 6.0) * (u + 2.0 * k2 + 2.0 * k3 + k4);
  };
  Vec3 x = seed;
  Vec3 u = direction(x);
  if (!ok) return LineEnd::NullField;
  double length = 0.0, h = s.step;
  for (int step = 0; step < s.max_steps; ++step) {
    if (s.max_length > 0.0 && length >= s.max_length) return LineEnd::Length;
    Vec3 next, u_next;
    double turn = 0.0, h_used = h;
    for (;;) {
      h_used = s.max_length > 0.0 ? std::min(h, s.max_length - length) : h;
      next = rk4(x, u, h_used);
      if (!ok) return LineEnd::NullField;
      u_next = direction(next);
      if (!ok) {
        out.push_back(next);
        return LineEnd::NullField;
      }
      turn = (u_next - u).norm();
      if (!adaptive || turn <= s.max_turn || h <= s.step) break;
      h = std::max(s.step, 0.5 * h);
    }
    if (!inside_bounds(next, s)) {
      out.push_back(clip_to_bounds(x, next, s));
      return LineEnd::Bounds;
    }
    if (field.particle_at(next) >= 0) {
      // The step entered a particle (its later stages saw the interior field): the line ends on the surface,
      // at the longest step from x that stays outside, found by bisection on the step's length (to 1e-9 of it).
      double outside = 0.0, inside = h_used;
      Vec3 last = x;
      for (int k = 0; k < 30 && ok; ++k) {
        const double middle = 0.5 * (outside + inside);
        const Vec3 y = rk4(x, u, middle);
        if (!ok) break;
        if (field.particle_at(y) >= 0) {
          inside = middle;
        } else {
          outside = middle;
          last = y;
        }
      }
      if (last != x) out.push_back(last);
      return LineEnd::Particle;
    }
    out.push_back(next);
    length += h_used;
    x = next;
    u = u_next;
    if (adaptive && turn < 0.4 * s.max_turn) h = std::min(2.0 * h, s.max_step);
  }
  return LineEnd::Steps;
}

}  // namespace

FieldLineSettings field_line_settings_for(const Model& model, const State& state) {
  const Particles& p = state.particles;
  FieldLineSettings s;
  double smallest = INFINITY, largest = 0.0;
  Vec3 lo = model.box.min, hi = model.box.max;
  Vec3 particles_lo = Vec3::Constant(INFINITY), particles_hi = Vec3::Constant(-INFINITY);
  for (size_t i = 0; i < p.size(); ++i) {
    if (p.radius[i] > 0.0) smallest = std::min(smallest, p.radius[i]);
    largest = std::max(largest, p.radius[i]);
    particles_lo = particles_lo.cwiseMin(p.position[i]);
    particles_hi = particles_hi.cwiseMax(p.position[i]);
  }
  if (!std::isfinite(smallest)) smallest = largest = 1e-3 * (hi - lo).norm();
  for (int a = 0; a < 3; ++a) {
    const bool open_below = model.box.side(a, 0) == SideKind::Open, open_above = model.box.side(a, 1) == SideKind::Open;
    if (!(open_below || open_above) || p.size() == 0) continue;
    const double margin = 0.5 * (particles_hi[a] - particles_lo[a]) + 4.0 * largest;
    if (open_below) lo[a] = particles_lo[a] - margin;
    if (open_above) hi[a] = particles_hi[a] + margin;
  }
  s.bound_min = lo;
  s.bound_max = hi;
  s.step = 0.2 * smallest;
  s.max_step = std::max(s.step, 2.0 * largest);
  s.max_length = 2.0 * (hi - lo).norm();
  return s;
}

FieldLine trace_field_line(const FieldEvaluator& field, const Vec3& seed, const FieldLineSettings& settings) {
  FieldLine line;
  std::vector<Vec3> backward, forward;
  if (settings.backward) line.backward_end = trace_direction(field, seed, -1.0, settings, backward);
  if (settings.forward) line.forward_end = trace_direction(field, seed, 1.0, settings, forward);
  line.points.reserve(backward.size() + 1 + forward.size());
  line.points.assign(backward.rbegin(), backward.rend());
  line.seed_index = line.points.size();
  line.points.push_back(seed);
  line.points.insert(line.points.end(), forward.begin(), forward.end());
  return line;
}

std::vector<FieldLine> trace_field_lines(const FieldEvaluator& field, std::span<const Vec3> seeds,
                                         const FieldLineSettings& settings, ThreadTeam& team) {
  std::vector<FieldLine> lines(seeds.size());
  for_each_range(team, seeds.size(), 1, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) lines[k] = trace_field_line(field, seeds[k], settings);
  });
  return lines;
}

}  // namespace lodestone
