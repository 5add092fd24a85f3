#include "engine/core/state.hpp"

#include "engine/core/thread_team.hpp"

#include <utility>

namespace lodestone {

void Particles::resize(size_t n) {
  position.resize(n, Vec3::Zero());
  velocity.resize(n, Vec3::Zero());
  orientation.resize(n, Quat::Identity());
  angular_velocity.resize(n, Vec3::Zero());
  force.resize(n, Vec3::Zero());
  torque.resize(n, Vec3::Zero());
  radius.resize(n, 0.0);
  mass.resize(n, 0.0);
  inertia.resize(n, 0.0);
  material.resize(n, 0);
  easy_axis_body.resize(n, Vec3::UnitZ());
  moment_body.resize(n, Vec3::Zero());
  moment.resize(n, Vec3::Zero());
  id.resize(n, 0);
  clump.resize(n, -1);
  clump_offset.resize(n, Vec3::Zero());
  hold.resize(n, 0);
  image.resize(n, ImageFlags{});
}

size_t Particles::add(std::uint64_t particle_id, const Vec3& x, double r, double m, int material_index) {
  const size_t i = size();
  resize(i + 1);
  id[i] = particle_id;
  position[i] = x;
  radius[i] = r;
  mass[i] = m;
  inertia[i] = 0.4 * m * r * r;
  material[i] = material_index;
  return i;
}

namespace {
// Particles per part of a permutation's moves.
constexpr size_t kPermuteGrain = 16384;

template <class T>
void apply_order(std::vector<T>& v, const std::vector<int>& order, ThreadTeam& team) {
  std::vector<T> out(order.size());
  for_each_range(team, order.size(), kPermuteGrain, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) out[k] = v[static_cast<size_t>(order[k])];
  });
  v.swap(out);
}
}  // namespace

void Particles::permute(const std::vector<int>& order) {
  permute(order, ThreadTeam::serial());
}

void Particles::permute(const std::vector<int>& order, ThreadTeam& team) {
  apply_order(position, order, team);
  apply_order(velocity, order, team);
  apply_order(orientation, order, team);
  apply_order(angular_velocity, order, team);
  apply_order(force, order, team);
  apply_order(torque, order, team);
  apply_order(radius, order, team);
  apply_order(mass, order, team);
  apply_order(inertia, order, team);
  apply_order(material, order, team);
  apply_order(easy_axis_body, order, team);
  apply_order(moment_body, order, team);
  apply_order(moment, order, team);
  apply_order(id, order, team);
  apply_order(clump, order, team);
  apply_order(clump_offset, order, team);
  apply_order(hold, order, team);
  apply_order(image, order, team);
}

void EventLog::record(const Event& e) {
  ++count[static_cast<int>(e.kind)];
  if (recent.size() < kRecentCapacity) {
    recent.push_back(e);
  } else {
    recent[next_slot] = e;
  }
  next_slot = (next_slot + 1) % kRecentCapacity;
}

std::vector<Event> EventLog::recent_in_order() const {
  if (recent.size() < kRecentCapacity) return recent;
  std::vector<Event> out(recent.begin() + static_cast<long>(next_slot), recent.end());
  out.insert(out.end(), recent.begin(), recent.begin() + static_cast<long>(next_slot));
  return out;
}

void swap_bodies(ContactHistory& h) {
  h.shear = -h.shear;
  h.dashpot_force = -h.dashpot_force;
}

void swap_bodies(LawState& law) {
  // The relative rotation of the first body flips; the twist about the normal does not (both the
  // relative rotation and the normal, which points towards the first body, change sign).
  if (RollingHistory* r = std::get_if<RollingHistory>(&law)) {
    r->rolling = -r->rolling;
    r->dashpot_couple = -r->dashpot_couple;
  }
  if (SandPointers* s = std::get_if<SandPointers>(&law)) {
    std::swap(s->p1, s->p2);
    std::swap(s->q1, s->q2);
  }
}

void fit_law_states(std::vector<LawState>& law, size_t records, bool kept) {
  if (!kept)
    law.clear();
  else if (law.size() != records)
    law.assign(records, LawState{});
}

void mark_active_contacts(NeighborLists& lists) {
  lists.contact_active.resize(lists.contact_history.size());
  for (size_t k = 0; k < lists.contact_history.size(); ++k) lists.contact_active[k] = lists.contact_history[k].active;
}

void mark_active_walls(State& state) {
  const size_t n = state.wall_history.size() / 6;
  state.wall_active.assign(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t side = 0; side < 6; ++side)
      if (state.wall_history[6 * i + side].active) state.wall_active[i] |= static_cast<std::uint8_t>(1u << side);
}

void mark_dipole_bands(NeighborLists& lists, size_t particles) {
  lists.dipole_bands.reset(lists.builds, particles, lists.dipole_pairs.size());
  summarise_pair_bands(lists.dipole_pairs.data(), 0, lists.dipole_bands.chunks.size(), lists.dipole_bands);
}

const PairListBands* current_dipole_bands(const NeighborLists& lists, size_t particles) {
  const bool current = lists.valid && lists.dipole_bands.describes(lists.builds, particles, lists.dipole_pairs.size());
  return current ? &lists.dipole_bands : nullptr;
}

namespace {
template <class T>
size_t bytes_of(const std::vector<T>& v) {
  return v.size() * sizeof(T);
}
}  // namespace

size_t memory_bytes(const State& state) {
  const Particles& p = state.particles;
  size_t bytes = sizeof(State);
  bytes += bytes_of(p.position) + bytes_of(p.velocity) + bytes_of(p.orientation) + bytes_of(p.angular_velocity) +
           bytes_of(p.force) + bytes_of(p.torque) + bytes_of(p.radius) + bytes_of(p.mass) + bytes_of(p.inertia) +
           bytes_of(p.material) + bytes_of(p.easy_axis_body) + bytes_of(p.moment_body) + bytes_of(p.moment) +
           bytes_of(p.id) + bytes_of(p.clump) + bytes_of(p.clump_offset) + bytes_of(p.hold) + bytes_of(p.image);
  const NeighborLists& n = state.neighbors;
  bytes += bytes_of(n.contact_pairs) + bytes_of(n.contact_history) + bytes_of(n.contact_law) +
           bytes_of(n.contact_active) + bytes_of(n.dipole_pairs) + bytes_of(n.dipole_bands.chunks) +
           bytes_of(n.reference_position);
  bytes += bytes_of(state.wall_history) + bytes_of(state.wall_law) + bytes_of(state.wall_active) +
           bytes_of(state.damping_force) + bytes_of(state.damping_torque);
  bytes += bytes_of(state.events.recent) + bytes_of(state.bonds);
  const DipoleHistory& d = state.dipole_history;
  bytes += bytes_of(d.force_previous) + bytes_of(d.force_last) + bytes_of(d.torque_previous) + bytes_of(d.torque_last);
  const Clumps& c = state.clumps;
  bytes += bytes_of(c.position) + bytes_of(c.velocity) + bytes_of(c.orientation) + bytes_of(c.angular_momentum) +
           bytes_of(c.force) + bytes_of(c.torque) + bytes_of(c.mass) + bytes_of(c.inertia) + bytes_of(c.id) +
           bytes_of(c.image);
  return bytes;
}

}  // namespace lodestone
