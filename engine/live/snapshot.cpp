#include "engine/analysis/clusters.hpp"
#include "engine/live/snapshot_capture.hpp"
#include "engine/magnetic/field.hpp"

#include <algorithm>

namespace lodestone {

long ParticleSnapshot::index_of(std::uint64_t particle_id) const {
  const auto it = std::find(id.begin(), id.end(), particle_id);
  return it == id.end() ? -1 : static_cast<long>(it - id.begin());
}

namespace {
void put(std::vector<float>& out, size_t i, const Vec3& v) {
  out[3 * i] = static_cast<float>(v.x());
  out[3 * i + 1] = static_cast<float>(v.y());
  out[3 * i + 2] = static_cast<float>(v.z());
}
}  // namespace

void capture_snapshot(const Session& session, Snapshot& out) {
  const State& state = session.state();
  const Model& model = session.model();
  const Particles& p = state.particles;
  const size_t n = p.size();
  ParticleSnapshot& s = out.particles;
  s.id = p.id;
  s.hold = p.hold;
  s.position.resize(3 * n);
  s.radius.resize(n);
  s.velocity.resize(3 * n);
  s.angular_velocity.resize(3 * n);
  s.easy_axis.resize(3 * n);
  s.moment.resize(3 * n);
  s.contacts.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    put(s.position, i, p.position[i]);
    s.radius[i] = static_cast<float>(p.radius[i]);
    put(s.velocity, i, p.velocity[i]);
    put(s.angular_velocity, i, p.angular_velocity[i]);
    put(s.easy_axis, i, p.easy_axis(i));
    put(s.moment, i, p.moment[i]);
  }
  const NeighborLists& lists = state.neighbors;
  for (size_t k = 0; k < lists.contact_pairs.size(); ++k) {
    if (!lists.contact_history[k].active) continue;
    ++s.contacts[static_cast<size_t>(lists.contact_pairs[k].i)];
    ++s.contacts[static_cast<size_t>(lists.contact_pairs[k].j)];
  }
  if (state.wall_history.size() == 6 * n)
    for (size_t i = 0; i < n; ++i)
      for (size_t side = 0; side < 6; ++side) s.contacts[i] += state.wall_history[6 * i + side].active ? 1 : 0;

  s.bonds.clear();
  for (const Bond& b : state.bonds)
    if (!b.broken && static_cast<size_t>(b.a) < n && static_cast<size_t>(b.b) < n) {
      s.bonds.push_back(static_cast<std::uint32_t>(b.a));
      s.bonds.push_back(static_cast<std::uint32_t>(b.b));
    }

  // One cluster pass serves the labels and the observables.
  const Clusters clusters = find_clusters(state);
  s.cluster.resize(n);
  s.cluster_size.resize(n);
  for (size_t i = 0; i < n; ++i) {
    s.cluster[i] = clusters.label_of(i);
    s.cluster_size[i] = static_cast<std::uint32_t>(clusters.size_of(i));
  }

  out.step = state.step;
  out.time = state.time;
  out.field = uniform_field(model.field, state.time);
  out.field_direction = field_direction(model.field, state.time);
  out.observables = observe(model, state, clusters);
  out.timings = session.timings();
  out.time_step = model.time_step;
  out.advice = model.advice;
  out.p3m = model.p3m;
  out.health = state.health;
  out.phase_label = session.phase_label();
  // Assigned every time: `out` is a snapshot being reused, which still says what the last one said.
  out.waiting_button =
      session.phase_waits() ? session.document().protocol[static_cast<size_t>(state.phase)].wait : std::string();
  out.drag = state.drag;
}

}  // namespace lodestone
