#include "engine/health.hpp"

#include <cmath>
#include <sstream>

namespace lodestone {
namespace {

bool finite(const Vec3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

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
  os << "step " << state.step << " (t = " << state.time << " s): particle " << id << " " << what << ". Likely cause: "
     << hint << ".";
  state.health.ok = false;
  state.health.particle_id = id;
  state.health.message = os.str();
}

// The smallest k in [0, n) with bad(k), or n: each thread scans its range, the first range with a hit
// wins, so the particle named is the one a single thread would name.
template <class Bad>
size_t first_bad(ThreadTeam& team, size_t n, Bad&& bad) {
  const int parts = parts_for(team, n, 4000);
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

}  // namespace

void check_health(const Model& model, State& state, ThreadTeam& team) {
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
  const double dt = state.last_time_step > 0.0 ? state.last_time_step : model.time_step;  // overdamped steps may be shorter
  const size_t fast = first_bad(team, n, [&](size_t i) {
    return p.velocity[i].squaredNorm() * dt * dt > kRunawayOverlapFraction * kRunawayOverlapFraction * p.radius[i] * p.radius[i];
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
  // not while a protocol stage is removing the overlaps of a random placement.
  const NeighborLists& lists = state.neighbors;
  auto overlap_of = [&](size_t k) {
    const auto i = static_cast<size_t>(lists.contact_pairs[k].i), j = static_cast<size_t>(lists.contact_pairs[k].j);
    return p.radius[i] + p.radius[j] - minimum_image(model, p.position[i] - p.position[j]).norm();
  };
  auto too_deep = [&](size_t k) {
    const auto i = static_cast<size_t>(lists.contact_pairs[k].i), j = static_cast<size_t>(lists.contact_pairs[k].j);
    return overlap_of(k) > kRunawayOverlapFraction * std::min(p.radius[i], p.radius[j]);
  };
  const size_t pairs = state.overlaps_expected ? 0 : lists.contact_pairs.size();
  const size_t deep = first_bad(team, pairs, too_deep);
  if (deep < pairs) {
    const auto i = static_cast<size_t>(lists.contact_pairs[deep].i), j = static_cast<size_t>(lists.contact_pairs[deep].j);
    const double overlap = overlap_of(deep);
    std::ostringstream what;
    what << "overlaps particle " << p.id[j] << " by " << overlap / std::min(p.radius[i], p.radius[j]) * 100.0
         << " % of the smaller radius";
    fail(state, p.id[i], what.str(),
         "contacts too soft for the forces pressing them (raise kn or E, or lower the magnetisation), or a time "
         "step too large for the impact (" + std::to_string(model.time_step) + " s)");
    return;
  }
  // Through a wall.
  for (int axis = 0; axis < 3; ++axis)
    for (int upper = 0; upper < 2; ++upper) {
      if (model.box.side(axis, upper) != SideKind::Wall) continue;
      const double plane = upper ? model.box.max[axis] : model.box.min[axis];
      for (size_t i = 0; i < p.size(); ++i) {
        const double depth = upper ? p.position[i][axis] - plane : plane - p.position[i][axis];
        if (depth > 0.0) {
          std::ostringstream what;
          what << "passed through the " << "xyz"[axis] << (upper ? "_max" : "_min") << " wall";
          fail(state, p.id[i], what.str(), time_step_hint(model));
          return;
        }
      }
    }
}

}  // namespace lodestone
