#include "engine/step/health.hpp"

#include "engine/bodies/mechanical_energy.hpp"
#include "engine/core/simd.hpp"
#include "engine/magnetic/field.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

namespace lodestone {
namespace {

bool finite(const Vec3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

std::string time_step_hint(const Model& model) {
  std::ostringstream os;
  os << "time step " << model.time_step << " s";
  if (model.time_step > model.advice.suggested)
    os << " is larger than the suggested " << model.advice.suggested << " s (limited by " << model.advice.limited_by
       << "); reduce it";
  else
    os << "; the " << model.advice.limited_by << " may be too stiff for it, try a smaller time step";
  return os.str();
}

void fail(State& state, std::uint64_t id, const std::string& what, const std::string& hint) {
  std::ostringstream os;
  os << "step " << state.step << " (t = " << state.time << " s): particle " << id << " " << what
     << ". Likely cause: " << hint << ".";
  state.health.ok = false;
  state.health.particle_id = id;
  state.health.message = os.str();
}

// The smallest k in [0, n) with bad(k), or n: each thread scans its range, the first range with a hit
// wins, so the particle named is the one a single thread would name.
template <class Bad>
size_t first_bad(ThreadTeam& team, size_t n, Bad&& bad) {
  const int parts = parts_for(team, n, 1024);
  const std::vector<size_t> bounds = split_evenly(n, parts);
  std::vector<size_t> found(static_cast<size_t>(parts), n);
  team.run(parts, [&](int part) {
    for (size_t k = bounds[static_cast<size_t>(part)]; k < bounds[static_cast<size_t>(part) + 1]; ++k)
      if (bad(k)) {
        found[static_cast<size_t>(part)] = k;
        return;
      }
  });
  for (size_t k : found)
    if (k < n) return k;
  return n;
}

// Whether particles [begin, end) all lie on the inner side of every wall: lo[a] <= x[a] <= hi[a] on each axis, with
// -infinity and +infinity where a side is not a wall (a NaN coordinate passes: the first check rules them out). Every
// coordinate is tested without a branch, so that the loop vectorises: the scan that stops at the first particle
// beyond a wall, wall after wall, did not, and on one thread was a third of the checks of a walled powder step.
LODESTONE_SIMD_CLONES bool inside_walls(const Vec3* position, size_t begin, size_t end, const double lo[3],
                                        const double hi[3]) {
  static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 is three packed doubles");
  const double* x = position->data();
  const double lo0 = lo[0], lo1 = lo[1], lo2 = lo[2], hi0 = hi[0], hi1 = hi[1], hi2 = hi[2];
  unsigned beyond = 0;
#pragma omp simd reduction(| : beyond)
  for (size_t i = begin; i < end; ++i) {
    const double cx = x[3 * i], cy = x[3 * i + 1], cz = x[3 * i + 2];
    beyond |= static_cast<unsigned>(cx < lo0) | static_cast<unsigned>(cx > hi0) | static_cast<unsigned>(cy < lo1) |
              static_cast<unsigned>(cy > hi1) | static_cast<unsigned>(cz < lo2) | static_cast<unsigned>(cz > hi2);
  }
  return beyond == 0;
}

// The ledger's exchange terms: dissipation by kind and work put in.
std::array<double, 7> exchanges(const EnergyLedger& e) {
  return {e.dissipated_friction, e.dissipated_dashpot, e.dissipated_viscous, e.field_work,
          e.stiffness_work,      e.drag_work,          e.hold_work};
}

double balance_of(const EnergyLedger& e, const MechanicalEnergy& m) {
  return m.translational + m.rotational + m.gravitational + e.elastic + e.dipole + e.zeeman + e.dissipated_friction +
         e.dissipated_dashpot + e.dissipated_viscous - e.field_work - e.stiffness_work - e.drag_work - e.hold_work;
}

double scale_of(const EnergyLedger& e, const MechanicalEnergy& m) {
  return m.translational + m.rotational + std::abs(m.gravitational) + std::abs(e.elastic) + std::abs(e.dipole) +
         std::abs(e.zeeman);
}

// The particle with the most kinetic energy, the one the growth shows in, and why it may grow.
void fail_energy_growth(const Model& model, State& state, double growth, double allowed) {
  const Particles& p = state.particles;
  size_t top = 0;
  double top_energy = -1.0;
  for (size_t i = 0; i < p.size(); ++i) {
    const double e =
        0.5 * p.mass[i] * p.velocity[i].squaredNorm() + 0.5 * p.inertia[i] * p.angular_velocity[i].squaredNorm();
    if (e > top_energy) {
      top_energy = e;
      top = i;
    }
  }
  const double rotational = 0.5 * p.inertia[top] * p.angular_velocity[top].squaredNorm();
  std::ostringstream what;
  what << "carries the most kinetic energy (" << top_energy << " J, "
       << (top_energy > 0.0 ? 100.0 * rotational / top_energy : 0.0)
       << " % rotational) while the energy grows without a source: the balance (kinetic + potential + dissipated - "
          "work put in) rose by "
       << growth << " J since step " << state.energy_watch.step << ", more than the " << allowed
       << " J the system held and exchanged";
  std::string hint;
  const double torque_scale = p.moment[top].norm() * field_at(model.field, state.time, p.position[top]).norm();
  if (rotational > 0.5 * top_energy && torque_scale > 0.0) {
    // A moment in a field librates like a pendulum, omega0^2 = m B / I; velocity Verlet is unstable
    // for dt omega0 > 2, i.e. dt > T / pi.
    const double period = 2.0 * pi * std::sqrt(p.inertia[top] / torque_scale);
    std::ostringstream os;
    os << "time step " << model.time_step << " s too large for the magnetic torque: the particle's libration period in "
       << "the field is " << period << " s (2 pi sqrt(I / m B)); Verlet is unstable above T / pi = " << period / pi
       << " s, use T / 20 = " << period / 20.0 << " s or less";
    hint = os.str();
  } else {
    hint = time_step_hint(model);
  }
  fail(state, p.id[top], what.str(), hint);
}

// See kEnergyCheckInterval. The sums over particles split over the team (every tenth step they were a serial tenth of
// a millisecond a step at 100 000 particles, the checks' largest serial part: docs/performance.md).
void check_energy_growth(const Model& model, State& state, ThreadTeam& team) {
  if (model.integrator.scheme == IntegratorScheme::OverdampedHeun || model.pressure.method != PressureMethod::None ||
      state.overlaps_expected)
    return;
  EnergyWatch& watch = state.energy_watch;
  if (watch.valid && state.step - watch.step < kEnergyCheckInterval) return;
  if (watch.valid && state.step % kEnergyCheckInterval != 0) return;
  const MechanicalEnergy mechanical = mechanical_energy(model, state, team);
  const double balance = balance_of(state.energy, mechanical);
  const std::array<double, 7> exchanged = exchanges(state.energy);
  if (!watch.valid) {
    watch = EnergyWatch{true, state.step, balance, scale_of(state.energy, mechanical), exchanged};
    return;
  }
  double flowed = 0.0;
  for (size_t k = 0; k < exchanged.size(); ++k) flowed += std::abs(exchanged[k] - watch.exchanged[k]);
  const Particles& p = state.particles;
  const double dt = model.time_step;
  double floor = 0.0;
  for (double part : results_of_parts<double>(team, p.size(), 4096, [&](size_t begin, size_t end) {
         double sum = 0.0;
         for (size_t i = begin; i < end; ++i) {
           const double v = kFloorTravelFraction * p.radius[i] / dt;
           sum += 0.5 * p.mass[i] * v * v;
         }
         return sum;
       }))
    floor += part;
  const double allowed = watch.scale + flowed + floor;
  const double growth = balance - watch.balance;
  if (growth > allowed) fail_energy_growth(model, state, growth, allowed);
}

}  // namespace

void check_health(const Model& model, State& state, ThreadTeam& team, std::optional<size_t> first_too_deep_pair) {
  if (!state.health.ok) return;
  const Particles& p = state.particles;
  const size_t n = p.size();
  const size_t broken = first_bad(team, n, [&](size_t i) {
    // The orientation too: a huge angular velocity makes it NaN while everything else stays finite (found
    // by fuzzing a checkpoint, docs/reliability.md); its moment would then be NaN for every neighbour.
    return !finite(p.position[i]) || !finite(p.velocity[i]) || !finite(p.angular_velocity[i]) || !finite(p.force[i]) ||
           !finite(p.torque[i]) || !std::isfinite(p.orientation[i].squaredNorm());
  });
  if (broken < n) {
    fail(state, p.id[broken], "has a NaN or infinite position, velocity, orientation or force", time_step_hint(model));
    return;
  }
  const double dt =
      state.last_time_step > 0.0 ? state.last_time_step : model.time_step;  // overdamped steps may be shorter
  const size_t fast = first_bad(team, n, [&](size_t i) {
    return p.velocity[i].squaredNorm() * dt * dt >
           kRunawayOverlapFraction * kRunawayOverlapFraction * p.radius[i] * p.radius[i];
  });
  if (fast < n) {
    const size_t i = fast;
    const double travel = p.velocity[i].norm() * dt;
    std::ostringstream what;
    what << "moves " << travel / p.radius[i] * 100.0 << " % of its radius per step (speed " << p.velocity[i].norm()
         << " m/s), too far to resolve its collisions";
    fail(state, p.id[i], what.str(), time_step_hint(model));
    return;
  }
  // Runaway overlap between particles (every listed pair: coincident centres never become active);
  // not while a protocol phase is removing the overlaps of a random placement.
  const NeighborLists& lists = state.neighbors;
  auto overlap_of = [&](size_t k) {
    const auto i = static_cast<size_t>(lists.contact_pairs[k].i), j = static_cast<size_t>(lists.contact_pairs[k].j);
    return p.radius[i] + p.radius[j] - minimum_image(model, p.position[i] - p.position[j]).norm();
  };
  auto too_deep = [&](size_t k) {
    // overlap > f min(Ri, Rj) is |d| < Ri + Rj - f min(Ri, Rj) (positive, f < 1): compared squared, no square root
    // for the many listed pairs that do not touch.
    const auto i = static_cast<size_t>(lists.contact_pairs[k].i), j = static_cast<size_t>(lists.contact_pairs[k].j);
    const double reach = p.radius[i] + p.radius[j] - kRunawayOverlapFraction * std::min(p.radius[i], p.radius[j]);
    return minimum_image(model, p.position[i] - p.position[j]).squaredNorm() < reach * reach;
  };
  const size_t pairs = state.overlaps_expected ? 0 : lists.contact_pairs.size();
  const size_t deep = first_too_deep_pair ? std::min(*first_too_deep_pair, pairs) : first_bad(team, pairs, too_deep);
  if (deep < pairs) {
    const auto i = static_cast<size_t>(lists.contact_pairs[deep].i),
               j = static_cast<size_t>(lists.contact_pairs[deep].j);
    const double overlap = overlap_of(deep);
    std::ostringstream what;
    what << "overlaps particle " << p.id[j] << " by " << overlap / std::min(p.radius[i], p.radius[j]) * 100.0
         << " % of the smaller radius";
    fail(state, p.id[i], what.str(),
         "contacts too soft for the forces pressing them (raise kn or E, or lower the magnetisation), or a time "
         "step too large for the impact (" +
             std::to_string(model.time_step) + " s)");
    return;
  }
  // Through a wall: one sweep over the team first; only when a particle did is it looked for, wall after wall.
  double lo[3], hi[3];
  for (int axis = 0; axis < 3; ++axis) {
    lo[axis] = model.box.side(axis, 0) == SideKind::Wall ? model.box.min[axis] : -INFINITY;
    hi[axis] = model.box.side(axis, 1) == SideKind::Wall ? model.box.max[axis] : INFINITY;
  }
  std::vector<char> inside;  // per part; none without walls
  if (model.box.any_wall())
    inside = results_of_parts<char>(
        team, n, 4096, [&](size_t begin, size_t end) { return inside_walls(p.position.data(), begin, end, lo, hi); });
  const bool all_inside = std::all_of(inside.begin(), inside.end(), [](char c) { return c != 0; });
  for (int axis = 0; axis < 3 && !all_inside; ++axis)
    for (int upper = 0; upper < 2; ++upper) {
      if (model.box.side(axis, upper) != SideKind::Wall) continue;
      const double plane = upper ? model.box.max[axis] : model.box.min[axis];
      for (size_t i = 0; i < p.size(); ++i) {
        const double depth = upper ? p.position[i][axis] - plane : plane - p.position[i][axis];
        if (depth > 0.0) {
          std::ostringstream what;
          what << "passed through the "
               << "xyz"[axis] << (upper ? "_max" : "_min") << " wall";
          fail(state, p.id[i], what.str(), time_step_hint(model));
          return;
        }
      }
    }
  check_energy_growth(model, state, team);
}

}  // namespace lodestone
