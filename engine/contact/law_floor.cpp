#include "engine/contact/law_floor.hpp"

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

double floor_stiffness(const Model& model, int material) {
  if (model.floor.stiffness) return *model.floor.stiffness;
  return model.pair(material, model.wall_material).kn;
}

namespace {

// Friction with a stick flag ([Voxel-beams]) on particle i pressed on the floor by f_n, its normal velocity v_n: the
// friction force; a stop or a stuck particle loses its lateral velocity (its kinetic energy into friction_loss), and
// h.slipping follows the stick-slip rule of law_floor.hpp.
Vec3 floor_friction(const FloorParameters& floor, Particles& p, size_t i, const Vec3& normal, double v_n, double f_n,
                    double dt, ContactHistory& h, double& friction_loss) {
  const Vec3 f_other = p.force[i];
  const Vec3 f_lateral = f_other - f_other.dot(normal) * normal;
  Vec3 v_lateral = p.velocity[i] - v_n * normal;
  const double static_limit = floor.static_friction * f_n;
  const double dynamic = floor.dynamic_friction * f_n;
  Vec3 friction = Vec3::Zero();
  if (h.slipping && v_lateral.norm() <= dynamic * dt / p.mass[i] && f_lateral.norm() <= static_limit) {
    // Stopped (friction would reverse it within a step) where static friction can hold it.
    friction_loss += 0.5 * p.mass[i] * v_lateral.squaredNorm();
    p.velocity[i] -= v_lateral;
    v_lateral.setZero();
    h.slipping = false;
  } else if (!h.slipping && f_lateral.norm() > static_limit) {
    h.slipping = true;  // the static threshold is exceeded: it starts to slide
  }
  if (!h.slipping) {
    friction = -f_lateral;
    friction_loss += 0.5 * p.mass[i] * v_lateral.squaredNorm();  // the round-off a stuck foot's kick left
    p.velocity[i] -= v_lateral;                                  // stuck: no lateral motion
  } else {
    const double speed = v_lateral.norm();
    const Vec3 direction = speed > 0.0              ? Vec3(v_lateral / speed)
                           : f_lateral.norm() > 0.0 ? Vec3(f_lateral.normalized())
                                                    : Vec3::Zero();
    friction = -dynamic * direction;
  }
  return friction;
}

// The floor keeps no law state: a record it clears loses the one a wall's law left there before the side became the
// floor, as it did when the state was part of the record (State::wall_law). Not in a trial pass, which changes no
// history.
void forget_law_state(State& state, size_t record, bool trial) {
  if (!trial && !state.wall_law.empty()) state.wall_law[record] = LawState{};
}

}  // namespace

void apply_floor(const Model& model, State& state, double dt, const PredictedVelocities* predicted, bool trial) {
  const FloorParameters& floor = model.floor;
  if (floor.side == FloorSide::None) return;
  const int side = static_cast<int>(floor.side) - 1;
  const int axis = side / 2;
  const bool upper = side % 2 == 1;
  const double plane = upper ? model.box.max[axis] : model.box.min[axis];
  Vec3 normal = Vec3::Zero();  // into the box
  normal[axis] = upper ? -1.0 : 1.0;
  Particles& p = state.particles;
  const size_t n = p.size();
  if (state.wall_history.size() != 6 * n) {
    state.wall_history.assign(6 * n, ContactHistory{});
    state.wall_law.clear();
  }
  if (state.wall_active.size() != n) mark_active_walls(state);
  const auto bit = static_cast<std::uint8_t>(1u << side);
  double elastic = 0.0, dashpot_loss = 0.0, friction_loss = 0.0;
  Vec3 on_floor = Vec3::Zero();

  ContactHistory copy;  // a trial pass's history of the particle in hand (it leaves the record as it was)
  for (size_t i = 0; i < n; ++i) {
    const size_t record = 6 * i + static_cast<size_t>(side);
    if (trial) copy = state.wall_history[record];
    ContactHistory& h = trial ? copy : state.wall_history[record];
    const double distance = upper ? plane - p.position[i][axis] : p.position[i][axis] - plane;
    const double overlap = p.radius[i] - distance;
    const double v_n = p.velocity[i].dot(normal);
    if (overlap <= 0.0) {
      if (h.active) {  // the last dashpot and friction forces act for a half step more (velocity Verlet)
        dashpot_loss -= 0.5 * dt * h.dashpot_force.dot(p.velocity[i]);
        friction_loss -= 0.5 * dt * h.shear.dot(p.velocity[i]);
      }
      h = ContactHistory{};
      forget_law_state(state, record, trial);
      if (!trial) state.wall_active[i] &= static_cast<std::uint8_t>(~bit);
      continue;
    }
    if (!trial) state.wall_active[i] |= bit;  // h.active from here on (set just below when it was not)
    const std::uint64_t wall_id = kWallIdBase + static_cast<std::uint64_t>(side);
    if (!h.active) {
      h = ContactHistory{};
      forget_law_state(state, record, trial);
      h.active = true;
      h.slipping = true;  // arrives moving; the stop test below decides whether it sticks
      state.events.record({state.step, EventKind::ContactActivated, p.id[i], wall_id});
    }
    const bool was_slipping = h.slipping;
    const Vec3 v_half = p.velocity[i];  // the half-step velocity the last forces acted with (before a stop below)
    // [SECTION] Normal: spring and dashpot, never pulling.
    const double k = floor_stiffness(model, p.material[i]);
    const double c = 2.0 * floor.damping_ratio * std::sqrt(p.mass[i] * k);
    const double v_n_dashpot = predicted ? predicted->velocity[i].dot(normal) : v_n;
    double f_n = k * overlap - c * v_n_dashpot;
    Vec3 dashpot = -c * v_n_dashpot * normal;
    if (f_n < 0.0) {
      f_n = 0.0;
      dashpot = -k * overlap * normal;  // the dashpot part that acts
    }
    elastic += 0.5 * k * overlap * overlap;
    dashpot_loss -= 0.5 * dt * (h.dashpot_force + dashpot).dot(p.velocity[i]);
    h.dashpot_force = dashpot;
    h.normal_force = f_n;

    const Vec3 friction = floor_friction(floor, p, i, normal, v_n, f_n, dt, h, friction_loss);
    // The friction's work, as velocity Verlet applies it: the last and the new force each for a half step against
    // the half-step velocity (the trapezoid, second order, as Hertz-Coulomb's friction; issue 40: booking the new
    // force over the whole step was first order where friction starts, stops or turns). The last force acted with
    // the half-step velocity the first half kick gave, the new one acts with what a stop leaves of it: with a stop's
    // kinetic energy booked above, the kinetic energy's change over the step is booked exactly. h.shear keeps the
    // floor's last friction force (the floor's side has no shear spring: contacts.cpp leaves it to this law).
    friction_loss -= 0.5 * dt * (h.shear.dot(v_half) + friction.dot(p.velocity[i]));
    h.shear = friction;
    if (h.slipping != was_slipping)
      state.events.record({state.step, h.slipping ? EventKind::SlipStarted : EventKind::SlipEnded, p.id[i], wall_id});
    const Vec3 force = f_n * normal + friction;
    p.force[i] += force;
    on_floor -= force;
  }
  state.wall_force[static_cast<size_t>(side)] += on_floor;
  state.energy.elastic += elastic;
  state.energy.dissipated_dashpot += dashpot_loss;
  state.energy.dissipated_friction += friction_loss;
}

}  // namespace lodestone
