#include "app/runner/capture.hpp"

#include "engine/analysis/power_law.hpp"
#include "engine/core/model.hpp"
#include "engine/core/random.hpp"
#include "engine/step/simulation.hpp"
#include "engine/step/thermal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lodestone {

// [SECTION] Closed forms

double dipole_potential_parameter(double moment) {
  return mu0_over_4pi * 2.0 * moment * moment;
}

double capture_barrier_radius(double alpha, double reduced_mass, double impact_parameter, double speed) {
  return 3.0 * alpha / (reduced_mass * impact_parameter * impact_parameter * speed * speed);
}

double capture_barrier_height(double alpha, double reduced_mass, double impact_parameter, double speed) {
  const double l2 = reduced_mass * impact_parameter * impact_parameter * speed * speed;  // mbar b^2 v^2
  return l2 * l2 * l2 / (54.0 * alpha * alpha);
}

double capture_impact_parameter(double alpha, double reduced_mass, double speed) {
  return std::sqrt(3.0) * std::cbrt(alpha / (reduced_mass * speed * speed));
}

double capture_cross_section(double alpha, double reduced_mass, double speed) {
  const double b = capture_impact_parameter(alpha, reduced_mass, speed);
  return pi * b * b;
}

double magnetic_interaction_radius(double moment, double temperature) {
  return std::cbrt(2.0 * mu0 * moment * moment / (pi * boltzmann * temperature));
}

double CaptureGrains::thermal_speed() const {
  return std::sqrt(boltzmann * temperature / mass());
}

double CaptureGrains::lambda() const {
  const double d = diameter;
  return mu0_over_4pi * moment() * moment() / (d * d * d * boltzmann * temperature);
}

std::string shot_outcome_name(ShotOutcome o) {
  switch (o) {
    case ShotOutcome::Collision: return "collision";
    case ShotOutcome::Escape: return "escape";
    case ShotOutcome::TimeLimit: return "time limit";
    case ShotOutcome::Failed: return "failed";
  }
  return "?";
}

// [SECTION] One shot

namespace {

Model shot_model(const CaptureGrains& g, double extent, double time_step) {
  Model m;
  Material iron;
  iron.name = "grain";
  iron.density = g.density;
  iron.youngs_modulus = g.youngs_modulus;
  iron.poisson_ratio = g.poisson_ratio;
  iron.magnetization = g.specific_moment * g.density;  // [A/m]: M V = moment
  iron.surface_energy = g.surface_energy;
  m.materials = {iron};
  m.contact.law = ContactLaw::Sand;  // sticking contacts (the shot ends at the first one anyway)
  m.magnetics.method = DipoleMethod::Direct;
  m.box.min = Vec3::Constant(-extent);
  m.box.max = Vec3::Constant(extent);
  m.box.x_min = m.box.x_max = m.box.y_min = m.box.y_max = m.box.z_min = m.box.z_max = SideKind::Open;
  // A skin larger than the whole shot: the pair stays in the contact list, which is never rebuilt.
  m.integrator.neighbor_skin = 4.0 * extent;
  m.integrator.time_step = time_step;
  return m;
}

// The step the control asks for at the present state (forces current).
double wanted_step(const Particles& p, double eta) {
  const Vec3 r = p.position[1] - p.position[0];
  const double distance = r.norm();
  const double v_rel = (p.velocity[1] - p.velocity[0]).norm();
  const double a_rel = (p.force[1] / p.mass[1] - p.force[0] / p.mass[0]).norm();
  double dt = std::numeric_limits<double>::infinity();
  if (v_rel > 0.0) dt = std::min(dt, eta * distance / v_rel);
  if (a_rel > 0.0) dt = std::min(dt, eta * std::sqrt(distance / a_rel));
  for (size_t i = 0; i < 2; ++i) {
    const double w = p.angular_velocity[i].norm(), t = p.torque[i].norm(), v = p.velocity[i].norm();
    if (w > 0.0) dt = std::min(dt, eta / w);
    if (t > 0.0) dt = std::min(dt, eta * std::sqrt(p.inertia[i] / t));
    if (v > 0.0) dt = std::min(dt, 0.1 * p.radius[i] / v);  // the checks stop a run beyond 0.5 R per step
  }
  return dt;
}

double total_energy(const State& s) {
  const Particles& p = s.particles;
  double e = s.energy.dipole;
  for (size_t i = 0; i < p.size(); ++i)
    e += 0.5 * p.mass[i] * p.velocity[i].squaredNorm() + 0.5 * p.inertia[i] * p.angular_velocity[i].squaredNorm();
  return e;
}

double kinetic_energy(const Particles& p) {
  double e = 0.0;
  for (size_t i = 0; i < p.size(); ++i)
    e += 0.5 * p.mass[i] * p.velocity[i].squaredNorm() + 0.5 * p.inertia[i] * p.angular_velocity[i].squaredNorm();
  return e;
}

// Target (id 0) at the origin at rest; projectile (id 1) upstream along x, offset by b along y.
Particles shot_particles(const CaptureGrains& g, const Shot& shot) {
  const double radius = g.radius(), mass = g.mass(), moment = g.moment();
  Random rng(shot.seed);
  Particles p;
  p.add(0, Vec3::Zero(), radius, mass, 0);
  p.add(1, Vec3(-shot.start_distance, shot.impact_parameter, 0.0), radius, mass, 0);
  p.velocity[1] = Vec3(shot.speed, 0.0, 0.0);
  const std::optional<Vec3> fixed[2] = {shot.target_moment, shot.projectile_moment};
  const double spin_sigma = std::sqrt(boltzmann * g.temperature / p.inertia[0]);  // per component
  for (size_t i = 0; i < 2; ++i) {
    const Quat random_orientation = rng.orientation();  // drawn always, so the spins do not depend on it
    p.orientation[i] = fixed[i] ? rotation_between(Vec3::UnitZ(), fixed[i]->normalized()) : random_orientation;
    p.easy_axis_body[i] = Vec3::UnitZ();
    p.moment_body[i] = moment * Vec3::UnitZ();
    if (shot.spin == SpinStart::Thermal)
      for (int a = 0; a < 3; ++a) p.angular_velocity[i][a] = spin_sigma * rng.normal();
  }
  return p;
}

// The step in use is the first one times a power of two. It changes through set_model (which rebuilds
// the derived tables and recomputes the forces at the same positions, some microseconds): down at once
// when the control asks for less, up only after 32 steps in a row that would allow twice as much (a
// librating moment makes 1/|omega| swing every few steps; this keeps the changes to a few dozen a shot).
// `patience`: the steps in a row so far that would allow twice as much; `changes` counts the changes.
void retune_step(Simulation& sim, double accuracy, bool first, int& patience, std::int64_t& changes) {
  const double want = wanted_step(sim.state().particles, accuracy);
  const double now = sim.model().time_step;
  double dt = now;
  if (first) {
    dt = want;
  } else if (want < now) {
    while (dt > want) dt *= 0.5;
    patience = 0;
  } else if (want >= 2.0 * now && ++patience >= 32) {
    dt = 2.0 * now;
    patience = 0;
  }
  if (dt == now) return;
  Model m = sim.model();
  m.integrator.time_step = dt;
  sim.set_model(m);
  ++changes;
}

// Steps the shot from its first step until the grains touch, the projectile moves away beyond the start separation,
// the time limit passes or a step fails: the outcome, the steps and the step changes into result, the smallest
// centre distance into closest.
void fly_shot(Simulation& sim, const Shot& shot, double contact, double start_separation, ShotResult& result,
              double& closest) {
  const double time_limit = shot.time_limit_factor * start_separation / shot.speed;
  int patience = 0;
  retune_step(sim, shot.accuracy, true, patience, result.step_changes);

  while (true) {
    const Particles& q = sim.state().particles;
    const Vec3 r = q.position[1] - q.position[0];
    const double distance = r.norm();
    closest = std::min(closest, distance);
    if (distance <= contact) {
      result.outcome = ShotOutcome::Collision;
      break;
    }
    if (distance > start_separation && r.dot(q.velocity[1] - q.velocity[0]) > 0.0) {
      result.outcome = ShotOutcome::Escape;
      break;
    }
    if (sim.state().time > time_limit) {
      result.outcome = ShotOutcome::TimeLimit;
      break;
    }
    sim.step();
    if (!sim.state().health.ok) {
      // The step that brings the grains into contact ends the shot anyway: a check failing on it (the
      // energy check sees the sticking contact's well entered with a step sized for the approach) does
      // not change the outcome. Any earlier failure does.
      const Particles& now = sim.state().particles;
      const double gap = (now.position[1] - now.position[0]).norm();
      if (gap <= contact) {
        closest = std::min(closest, gap);
        ++result.steps;
        result.outcome = ShotOutcome::Collision;
        break;
      }
      result.outcome = ShotOutcome::Failed;
      result.message = sim.state().health.message;
      break;
    }
    ++result.steps;
    retune_step(sim, shot.accuracy, false, patience, result.step_changes);
  }
}

}  // namespace

ShotResult run_shot(const CaptureGrains& g, const Shot& shot) {
  ShotResult result;
  const double radius = g.radius();
  const double contact = 2.0 * radius;
  const double start_separation = std::hypot(shot.start_distance, shot.impact_parameter);
  if (!(shot.speed > 0.0) || !(start_separation > contact) || !(shot.accuracy > 0.0)) {
    result.message = "a shot needs speed > 0, a start separation beyond contact and accuracy > 0";
    return result;
  }

  Particles p = shot_particles(g, shot);
  const double extent = 4.0 * start_separation;
  const double first_step = wanted_step(p, shot.accuracy);  // forces are not known yet: speeds and spins
  Simulation sim(shot_model(g, extent, first_step), std::move(p));
  if (!sim.state().health.ok) {
    result.message = sim.state().health.message;
    return result;
  }
  const double energy_start = total_energy(sim.state());
  const double kinetic_start = kinetic_energy(sim.state().particles);
  double closest = start_separation;
  fly_shot(sim, shot, contact, start_separation, result, closest);
  result.time = sim.state().time;
  result.closest_gap = closest - contact;
  result.energy_error = std::abs(total_energy(sim.state()) - energy_start) / kinetic_start;
  return result;
}

// [SECTION] Maps and cross sections

std::uint64_t shot_seed(std::uint64_t base_seed, int run) {
  // splitmix64 of (base, run): well-spread seeds for mt19937_64 from consecutive integers.
  std::uint64_t z = base_seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(run) + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::vector<double> cross_section_weights(const std::vector<double>& b) {
  // 2 pi int P b db with P linear between grid points: the integral of (P0 + s (P1 - P0)) b over each
  // interval, exact for piecewise-linear P (a trapezoid in P b would not be).
  const size_t n = b.size();
  std::vector<double> w(n, 0.0);
  for (size_t k = 0; k + 1 < n; ++k) {
    const double b0 = b[k], b1 = b[k + 1], h = b1 - b0;
    w[k] += 2.0 * pi * h * (2.0 * b0 + b1) / 6.0;
    w[k + 1] += 2.0 * pi * h * (b0 + 2.0 * b1) / 6.0;
  }
  if (n > 0 && b[0] > 0.0) w[0] += pi * b[0] * b[0];  // P taken constant below the first b
  return w;
}

CrossSectionEstimate estimate_cross_section(const std::vector<double>& b, const std::vector<double>& probability) {
  CrossSectionEstimate e;
  const size_t n = std::min(b.size(), probability.size());
  if (n == 0) return e;
  const std::vector<double> w = cross_section_weights(std::vector<double>(b.begin(), b.begin() + n));
  for (size_t k = 0; k < n; ++k) e.sigma += w[k] * probability[k];
  e.tail_open = probability[n - 1] > 0.0;
  for (size_t k = 0; k < n && probability[k] >= 1.0; ++k) e.white_radius = b[k];
  for (size_t k = 0; k + 1 < n; ++k)
    if (probability[k] >= 0.5 && probability[k + 1] < 0.5) {
      const double s = (probability[k] - 0.5) / (probability[k] - probability[k + 1]);
      e.half_radius = b[k] + s * (b[k + 1] - b[k]);  // the last crossing (P may dip and recover)
    }
  return e;
}

double cross_section_error(const std::vector<double>& b, const std::vector<std::vector<int>>& hits) {
  const std::vector<double> w = cross_section_weights(b);
  std::vector<double> per_run;
  for (const std::vector<int>& h : hits) {
    if (h.size() != b.size()) continue;
    double s = 0.0;
    bool usable = true;
    for (size_t k = 0; k < b.size() && usable; ++k) {
      usable = h[k] == 0 || h[k] == 1;
      s += w[k] * h[k];
    }
    if (usable) per_run.push_back(s);
  }
  const size_t n = per_run.size();
  if (n < 2) return 0.0;
  // Deviations from the first repetition (shifted data): identical repetitions give exactly 0.
  double sum = 0.0, sum2 = 0.0;
  for (double s : per_run) {
    sum += s - per_run[0];
    sum2 += (s - per_run[0]) * (s - per_run[0]);
  }
  const double ss = std::max(0.0, sum2 - sum * sum / static_cast<double>(n));
  return std::sqrt(ss / static_cast<double>(n - 1) / static_cast<double>(n));
}

// [SECTION] The correction factor of eq. 27

CorrectionFactorFit fit_correction_factor(const std::vector<double>& speeds, const std::vector<double>& sigma,
                                          const std::vector<double>& sigma_error, double alpha, double reduced_mass) {
  CorrectionFactorFit f;
  std::vector<double> q, e, v_used, s_used;
  bool weighted = sigma_error.size() == speeds.size();
  for (size_t k = 0; k < std::min(speeds.size(), sigma.size()); ++k) {
    const double sigma_m = capture_cross_section(alpha, reduced_mass, speeds[k]);
    if (!(sigma_m > 0.0) || !std::isfinite(sigma_m)) continue;
    q.push_back(sigma[k] / sigma_m);
    e.push_back(weighted ? sigma_error[k] / sigma_m : 0.0);
    if (!(e.back() > 0.0)) weighted = false;
    v_used.push_back(speeds[k]);
    s_used.push_back(sigma[k]);
  }
  const size_t n = q.size();
  if (n == 0) return f;
  f.ok = true;
  f.points = static_cast<int>(n);
  f.c_min = *std::min_element(q.begin(), q.end());
  f.c_max = *std::max_element(q.begin(), q.end());
  if (weighted) {
    double sw = 0.0, swq = 0.0;
    for (size_t k = 0; k < n; ++k) {
      const double w = 1.0 / (e[k] * e[k]);
      sw += w;
      swq += w * q[k];
    }
    f.c = swq / sw;
    double chi2 = 0.0;
    for (size_t k = 0; k < n; ++k) chi2 += (q[k] - f.c) * (q[k] - f.c) / (e[k] * e[k]);
    f.chi2_per_dof = n > 1 ? chi2 / static_cast<double>(n - 1) : 0.0;
    f.c_error = std::sqrt(1.0 / sw) * std::max(1.0, std::sqrt(f.chi2_per_dof));
  } else {
    for (double x : q) f.c += x / static_cast<double>(n);
    double ss = 0.0;
    for (double x : q) ss += (x - f.c) * (x - f.c);
    f.c_error = n > 1 ? std::sqrt(ss / static_cast<double>(n - 1) / static_cast<double>(n)) : 0.0;
  }
  const PowerLawFit p = fit_power_law(v_used, s_used);
  if (p.ok) {
    f.exponent = p.exponent;
    f.exponent_error = p.exponent_error;
  }
  return f;
}

}  // namespace lodestone
