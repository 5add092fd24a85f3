#include "engine/bodies/touch.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

long index_of_id(const Particles& particles, std::uint64_t particle_id) {
  const auto it = std::find(particles.id.begin(), particles.id.end(), particle_id);
  return it == particles.id.end() ? -1 : static_cast<long>(it - particles.id.begin());
}

// [SECTION] Drag

double dragged_mass(const State& state, size_t i) {
  const int c = state.particles.clump[i];
  return c >= 0 ? state.clumps.mass[static_cast<size_t>(c)] : state.particles.mass[i];
}

DragConstants drag_constants(const Model& model, const State& state, size_t i, double scale) {
  const double omega = 2.0 * pi / (kDragPeriodSteps * model.time_step);
  DragConstants out;
  if (model.integrator.scheme == IntegratorScheme::OverdampedHeun) {
    out.stiffness = scale * model.environment.translational_damping * omega;
    return out;  // the medium's damping is the dashpot
  }
  const double m = dragged_mass(state, i);
  out.stiffness = scale * m * omega * omega;
  out.damping = 2.0 * std::sqrt(out.stiffness * m);
  return out;
}

void apply_drag_spring(const Model& model, State& state, double dt) {
  DragSpring& d = state.drag;
  Particles& p = state.particles;
  if (!d.active) {
    // Just released: the spring's last force still took part in this step's first half kick.
    if (d.force != Vec3::Zero()) {
      if (const long i = index_of_id(p, d.particle_id); i >= 0 && dt > 0.0)
        state.energy.drag_work += 0.5 * dt * d.force.dot(p.velocity[static_cast<size_t>(i)]);
      d.force.setZero();
    }
    return;
  }
  const long found = index_of_id(p, d.particle_id);
  if (found < 0) return;  // remove_body releases a drag on what it removes
  const auto i = static_cast<size_t>(found);
  const Vec3 stretch = minimum_image(model, p.position[i] - d.target);
  const Vec3 f = -d.stiffness * stretch - d.damping * p.velocity[i];
  p.force[i] += f;
  // The velocity here is the one the step moves the particle with (Verlet: v at the half step), so
  // dt v is the step's displacement.
  if (dt > 0.0) state.energy.drag_work += 0.5 * dt * (d.force + f).dot(p.velocity[i]);
  d.force = f;
  d.anchor = p.position[i];
}

// [SECTION] Add and remove

long first_overlap(const Model& model, const Particles& particles, const Vec3& x, double r, double tolerance) {
  for (size_t j = 0; j < particles.size(); ++j) {
    const double reach = (r + particles.radius[j]) * (1.0 - tolerance);
    if (minimum_image(model, x - particles.position[j]).squaredNorm() < reach * reach) return static_cast<long>(j);
  }
  return -1;
}

namespace {

// Keeps the `per` records of each kept particle, in the kept particles' order.
template <class T>
void keep_only(std::vector<T>& v, const std::vector<int>& kept, size_t per = 1) {
  std::vector<T> out;
  out.reserve(per * kept.size());
  for (int k : kept)
    for (size_t r = 0; r < per; ++r) out.push_back(v[per * static_cast<size_t>(k) + r]);
  v.swap(out);
}

// Pairs between kept particles, renumbered; the others dropped with their records and law states (if any).
void keep_pairs(std::vector<IndexPair>& pairs, std::vector<ContactHistory>* records, std::vector<LawState>* laws,
                const std::vector<int>& new_index) {
  if (laws && laws->size() != pairs.size()) laws = nullptr;  // none kept
  size_t out = 0;
  for (size_t k = 0; k < pairs.size(); ++k) {
    const int i = new_index[static_cast<size_t>(pairs[k].i)], j = new_index[static_cast<size_t>(pairs[k].j)];
    if (i < 0 || j < 0) continue;
    pairs[out] = IndexPair{i, j};
    if (records) (*records)[out] = std::move((*records)[k]);
    if (laws) (*laws)[out] = std::move((*laws)[k]);
    ++out;
  }
  pairs.resize(out);
  if (records) records->resize(out);
  if (laws) laws->resize(out);
}

}  // namespace

Removal remove_body(State& state, std::uint64_t particle_id) {
  Removal removal;
  Particles& p = state.particles;
  const long found = index_of_id(p, particle_id);
  if (found < 0) return removal;
  const size_t n = p.size();
  const int clump = p.clump[static_cast<size_t>(found)];
  removal.clump = clump >= 0;
  std::vector<int> kept, new_index(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const bool goes = clump >= 0 ? p.clump[i] == clump : i == static_cast<size_t>(found);
    if (goes) {
      removal.ids.push_back(p.id[i]);
    } else {
      new_index[i] = static_cast<int>(kept.size());
      kept.push_back(static_cast<int>(i));
    }
  }

  // Bonds to a removed particle break (and are counted); the rest follow the new indices.
  std::vector<Bond> bonds;
  for (Bond& b : state.bonds) {
    const int a = new_index[static_cast<size_t>(b.a)], c = new_index[static_cast<size_t>(b.b)];
    if (a < 0 || c < 0) {
      if (!b.broken) ++removal.broken_bonds;
      continue;
    }
    b.a = a;
    b.b = c;
    bonds.push_back(b);
  }
  state.bonds.swap(bonds);
  state.broken_bonds += removal.broken_bonds;

  // Everything kept per particle index.
  if (state.wall_history.size() == 6 * n) {
    if (state.wall_law.size() == 6 * n) keep_only(state.wall_law, kept, 6);
    keep_only(state.wall_history, kept, 6);
    mark_active_walls(state);
  }
  for (std::vector<Vec3>* per_particle : {&state.damping_force, &state.damping_torque})
    if (per_particle->size() == n) keep_only(*per_particle, kept);
  NeighborLists& lists = state.neighbors;
  keep_pairs(lists.contact_pairs, &lists.contact_history, &lists.contact_law, new_index);
  mark_active_contacts(lists);
  keep_pairs(lists.dipole_pairs, nullptr, nullptr, new_index);
  if (lists.reference_position.size() == n) keep_only(lists.reference_position, kept);
  lists.valid = false;
  state.dipole_history.clear();
  p.permute(kept);

  // The clump goes; the later clumps move down one place.
  if (clump >= 0) {
    Clumps& c = state.clumps;
    const auto at = static_cast<std::ptrdiff_t>(clump);
    c.position.erase(c.position.begin() + at);
    c.velocity.erase(c.velocity.begin() + at);
    c.orientation.erase(c.orientation.begin() + at);
    c.angular_momentum.erase(c.angular_momentum.begin() + at);
    c.force.erase(c.force.begin() + at);
    c.torque.erase(c.torque.begin() + at);
    c.mass.erase(c.mass.begin() + at);
    c.inertia.erase(c.inertia.begin() + at);
    c.id.erase(c.id.begin() + at);
    c.image.erase(c.image.begin() + at);
    for (int& k : p.clump)
      if (k > clump) --k;
  }
  if (state.drag.active &&
      std::find(removal.ids.begin(), removal.ids.end(), state.drag.particle_id) != removal.ids.end())
    state.drag = DragSpring{};
  state.forces_current = false;
  return removal;
}

}  // namespace lodestone
