#include "engine/magnetic/field.hpp"

#include "engine/magnetic/stoner_wohlfarth.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

Vec3 uniform_field(const FieldParameters& f, double t) {
  switch (f.program) {
    case FieldProgram::Constant: return f.strength * f.direction;
    case FieldProgram::Ramp: {
      const double s = std::clamp(t / f.ramp_time, 0.0, 1.0);
      return (f.start_strength + (f.strength - f.start_strength) * s) * f.direction;
    }
    case FieldProgram::Rotating: {
      // Rodrigues rotation of the initial direction about the axis by 2 pi f t.
      const double angle = 2.0 * pi * f.frequency * t;
      const Vec3& k = f.rotation_axis;
      const Vec3& d = f.direction;
      const Vec3 rotated = d * std::cos(angle) + k.cross(d) * std::sin(angle) + k * k.dot(d) * (1.0 - std::cos(angle));
      return f.strength * rotated;
    }
    case FieldProgram::Oscillating: return f.strength * std::sin(2.0 * pi * f.frequency * t + f.phase) * f.direction;
  }
  return Vec3::Zero();
}

Vec3 field_direction(const FieldParameters& f, double t) {
  const Vec3 b = uniform_field(f, t);
  const double norm = b.norm();
  return norm > 0.0 ? Vec3(b / norm) : f.direction;
}

namespace {

// Particles per part: a part costs 2 us (rigid moments) to 20 us (Stoner-Wohlfarth moments, whose torque takes the
// easy axis); parts of 4 096 left 10 000 particles two parts, 1.8x on 16 threads in the rehearsal.
constexpr size_t kFieldGrain = 1024;

// The field's torques and forces on particles [begin, end), and their share of the energy and the total moment.
struct FieldPart {
  double zeeman = 0.0;
  Vec3 total_moment = Vec3::Zero();
};

FieldPart apply_field_to(const Model& model, Particles& p, const Vec3& b_now, size_t begin, size_t end) {
  const FieldParameters& f = model.field;
  const bool has_gradient = f.gradient.cwiseAbs().maxCoeff() > 0.0;
  const Mat3 gradient_t = f.gradient.transpose();
  double zeeman = 0.0;
  Vec3 total_moment = Vec3::Zero();
  for (size_t i = begin; i < end; ++i) {
    const Vec3& m = p.moment[i];
    total_moment += m;
    if (m.squaredNorm() == 0.0) continue;
    const Vec3 b = has_gradient ? Vec3(b_now + f.gradient * (p.position[i] - f.gradient_origin)) : b_now;
    const Material& mat = model.materials[static_cast<size_t>(p.material[i])];
    switch (mat.moment_model) {
      case MomentModel::Rigid: p.torque[i] += m.cross(b); break;
      case MomentModel::StonerWohlfarth: {
        // The field turns the moment; the anisotropy passes the torque on to the body (eq. 3).
        const double volume = sphere_volume(p.radius[i]);
        const Vec3 n = p.easy_axis(i);
        const Vec3 m_hat = m / m.norm();
        p.torque[i] += sw_body_torque(m_hat, n, mat.anisotropy, volume);
        const double c = m_hat.dot(n);
        zeeman -= mat.anisotropy * volume * c * c;  // the anisotropy energy, booked with the field's
        break;
      }
      case MomentModel::Induced:
        // No torque reaches the body (the moment is not attached to it). Inducing m = a B stores
        // m^2 / (2a), a = chi V / mu0, so the energy is m^2 / (2a) - m.B: -1/2 m.B in the applied
        // field alone, and with the neighbours' fields (Jacobi passes) the functional whose minimum
        // they converge to. Its changes are the work of the gradient force and the field work.
        zeeman += 0.5 * m.squaredNorm() * mu0 / (mat.susceptibility * sphere_volume(p.radius[i]));
        break;
    }
    if (has_gradient) p.force[i] += gradient_t * m;  // F_b = sum_a m_a dB_a/dx_b
    zeeman -= m.dot(b);
  }
  return {zeeman, total_moment};
}

}  // namespace

void apply_field(const Model& model, State& state, double dt, ThreadTeam& team) {
  Particles& p = state.particles;
  const FieldParameters& f = model.field;
  const Vec3 b_now = uniform_field(f, state.time);
  // Up to 16 parts a thread: at 100 000 particles on two threads one part a thread took over 0.1 ms, and the thread
  // that ended first slept (docs/performance.md, "Each thread's own parts first": 267 -> 238 µs a step).
  const std::vector<FieldPart> results = results_of_parts<FieldPart>(
      team, p.size(), kFieldGrain,
      [&](size_t begin, size_t end) { return apply_field_to(model, p, b_now, begin, end); }, 16);
  double zeeman = 0.0;
  Vec3 total_moment = Vec3::Zero();
  for (const FieldPart& r : results) {  // in part order: the same grouping for the same team size
    zeeman += r.zeeman;
    total_moment += r.total_moment;
  }
  if (dt > 0.0) {
    // dE/dt = -sum m . dB/dt for the uniform, time-dependent part (trapezoid in m).
    const Vec3 b_before = uniform_field(f, state.time - dt);
    state.energy.field_work -= 0.5 * (state.total_moment + total_moment).dot(b_now - b_before);
  }
  state.total_moment = total_moment;
  state.energy.zeeman = zeeman;
}

}  // namespace lodestone
