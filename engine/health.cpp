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

}  // namespace

void check_health(const Model& model, State& state) {
  if (!state.health.ok) return;
  const Particles& p = state.particles;
  for (size_t i = 0; i < p.size(); ++i) {
    if (!finite(p.position[i]) || !finite(p.velocity[i]) || !finite(p.angular_velocity[i]) || !finite(p.force[i]) ||
        !finite(p.torque[i])) {
      fail(state, p.id[i], "has a NaN or infinite position, velocity or force", time_step_hint(model));
      return;
    }
  }
  const double dt = state.last_time_step > 0.0 ? state.last_time_step : model.time_step;  // overdamped steps may be shorter
  for (size_t i = 0; i < p.size(); ++i) {
    const double travel = p.velocity[i].norm() * dt;
    if (travel > kRunawayOverlapFraction * p.radius[i]) {
      std::ostringstream what;
      what << "moves " << travel / p.radius[i] * 100.0 << " % of its radius per step (speed " << p.velocity[i].norm()
           << " m/s), too far to resolve its collisions";
      fail(state, p.id[i], what.str(), time_step_hint(model));
      return;
    }
  }
  // Runaway overlap between particles (every listed pair: coincident centres never become active);
  // not while a protocol stage is removing the overlaps of a random placement.
  const NeighborLists& lists = state.neighbors;
  for (size_t k = 0; k < lists.contact_pairs.size() && !state.overlaps_expected; ++k) {
    const auto i = static_cast<size_t>(lists.contact_pairs[k].i), j = static_cast<size_t>(lists.contact_pairs[k].j);
    const double distance = minimum_image(model, p.position[i] - p.position[j]).norm();
    const double overlap = p.radius[i] + p.radius[j] - distance;
    if (overlap > kRunawayOverlapFraction * std::min(p.radius[i], p.radius[j])) {
      std::ostringstream what;
      what << "overlaps particle " << p.id[j] << " by " << overlap / std::min(p.radius[i], p.radius[j]) * 100.0
           << " % of the smaller radius";
      fail(state, p.id[i], what.str(),
           "contacts too soft for the forces pressing them (raise kn or E, or lower the magnetisation), or a time "
           "step too large for the impact (" + std::to_string(model.time_step) + " s)");
      return;
    }
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
