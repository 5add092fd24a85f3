#include "engine/bodies/clumps.hpp"

#include <algorithm>
#include <cassert>
#include <sstream>

namespace lodestone {

void free_rotation(Quat& q, const Vec3& angular_momentum, const Vec3& inertia, double dt) {
  // The exact flow of L_k^2 / (2 I_k): the body turns about its own axis k at the rate L_k / I_k, where
  // L_k (the body-frame component) stays constant.
  auto turn = [&](int k, double h) {
    const double body_component = (q.conjugate() * angular_momentum)[k];
    const double angle = h * body_component / inertia[k];
    q = q * Quat(Eigen::AngleAxisd(angle, Vec3::Unit(k)));
  };
  const double half = 0.5 * dt;
  turn(0, half);
  turn(1, half);
  turn(2, dt);
  turn(1, half);
  turn(0, half);
  q.normalize();
}

size_t make_clump(const std::vector<Material>& materials, State& state, const std::vector<size_t>& pebbles,
                  const Vec3& velocity, const Vec3& angular_velocity) {
  assert(!pebbles.empty());
  Particles& p = state.particles;
  Clumps& c = state.clumps;
  SphereUnion shape;
  for (size_t i : pebbles) {
    shape.centre.push_back(p.position[i]);
    shape.radius.push_back(p.radius[i]);
    shape.density.push_back(materials[static_cast<size_t>(p.material[i])].density);
  }
  const MassProperties mp = sphere_union_mass_properties(shape);
  const PrincipalAxes axes = principal_axes(mp.inertia);
  const size_t k = c.size();
  c.position.push_back(mp.centre);
  c.velocity.push_back(velocity);
  c.orientation.push_back(axes.rotation);
  c.angular_momentum.push_back(mp.inertia * angular_velocity);
  c.force.push_back(Vec3::Zero());
  c.torque.push_back(Vec3::Zero());
  c.mass.push_back(mp.mass);
  c.inertia.push_back(axes.moments);
  c.id.push_back(k == 0 ? 0 : c.id.back() + 1);
  c.image.push_back(ImageFlags{});
  const Quat to_body = axes.rotation.conjugate();
  const double share = mp.mass / static_cast<double>(pebbles.size());
  for (size_t i : pebbles) {
    p.clump[i] = static_cast<int>(k);
    p.clump_offset[i] = to_body * (p.position[i] - mp.centre);
    // Easy axis and moment re-expressed in the clump's frame, so that the pebble's orientation is the clump's.
    p.easy_axis_body[i] = to_body * (p.orientation[i] * p.easy_axis_body[i]);
    p.moment_body[i] = to_body * (p.orientation[i] * p.moment_body[i]);
    p.orientation[i] = axes.rotation;
    p.moment[i] = axes.rotation * p.moment_body[i];
    p.mass[i] = share;
    p.inertia[i] = 0.4 * share * p.radius[i] * p.radius[i];
  }
  // Velocities of the pebbles from the rigid motion (positions are where they were given).
  const Vec3 w = c.angular_velocity(k);
  for (size_t i : pebbles) {
    p.angular_velocity[i] = w;
    p.velocity[i] = velocity + w.cross(p.position[i] - mp.centre);
  }
  return k;
}

void refresh_clump_mass_properties(const std::vector<Material>& before, const std::vector<Material>& materials,
                                   Particles& p, Clumps& c) {
  std::vector<std::vector<size_t>> members(c.size());
  for (size_t i = 0; i < p.size(); ++i)
    if (p.clump[i] >= 0) members[static_cast<size_t>(p.clump[i])].push_back(i);
  for (size_t k = 0; k < c.size(); ++k) {
    if (members[k].empty()) continue;
    const Vec3 w = c.angular_velocity(k);
    // One factor for the whole clump: an exact scaling (the column integration is not rotation invariant,
    // so recomputing would move the clump by its discretisation error).
    const auto density_ratio = [&](size_t i) {
      const auto m = static_cast<size_t>(p.material[i]);
      return materials[m].density / before[m].density;
    };
    const double ratio = density_ratio(members[k].front());
    bool uniform = true;
    for (size_t i : members[k]) uniform = uniform && density_ratio(i) == ratio;
    if (uniform) {
      c.mass[k] *= ratio;
      c.inertia[k] *= ratio;
      c.angular_momentum[k] *= ratio;
      for (size_t i : members[k]) {
        p.mass[i] = c.mass[k] / static_cast<double>(members[k].size());
        p.inertia[i] = 0.4 * p.mass[i] * p.radius[i] * p.radius[i];
      }
      continue;
    }
    SphereUnion shape;
    for (size_t i : members[k]) {
      shape.centre.push_back(c.position[k] + c.orientation[k] * p.clump_offset[i]);  // unwrapped
      shape.radius.push_back(p.radius[i]);
      shape.density.push_back(materials[static_cast<size_t>(p.material[i])].density);
    }
    const MassProperties mp = sphere_union_mass_properties(shape);
    const PrincipalAxes axes = principal_axes(mp.inertia);
    const Quat to_new_body = axes.rotation.conjugate() * c.orientation[k];  // old body frame -> new body frame
    const double share = mp.mass / static_cast<double>(members[k].size());
    for (size_t n = 0; n < members[k].size(); ++n) {
      const size_t i = members[k][n];
      p.clump_offset[i] = axes.rotation.conjugate() * (shape.centre[n] - mp.centre);
      p.easy_axis_body[i] = to_new_body * p.easy_axis_body[i];
      p.moment_body[i] = to_new_body * p.moment_body[i];
      p.orientation[i] = axes.rotation;
      p.mass[i] = share;
      p.inertia[i] = 0.4 * share * p.radius[i] * p.radius[i];
    }
    c.velocity[k] += w.cross(mp.centre - c.position[k]);  // the material point now at the centre of mass
    c.position[k] = mp.centre;
    c.orientation[k] = axes.rotation;
    c.mass[k] = mp.mass;
    c.inertia[k] = axes.moments;
    c.angular_momentum[k] = mp.inertia * w;
  }
}

std::vector<Vec3> clump_shape_offsets(const ClumpEntry& e) {
  const double s = e.spacing.value_or(2.0 * e.pebble_radius);
  const int n = e.count;
  const double mid = 0.5 * (n - 1);
  std::vector<Vec3> out;
  if (e.shape == ClumpShape::Bar) {
    for (int k = 0; k < n; ++k) out.emplace_back(0.0, 0.0, s * (k - mid));
  } else if (e.shape == ClumpShape::Cube) {
    for (int z = 0; z < n; ++z)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) out.emplace_back(s * (x - mid), s * (y - mid), s * (z - mid));
  }
  return out;
}

namespace {

struct PebbleSpec {
  Vec3 position;  // world
  double radius;
  Quat orientation;
  int material;
  double moment;
};

// The pebbles of entry e in the world (material indices resolved; validate_clumps checked the names).
std::vector<PebbleSpec> pebble_specs(const Preset& preset, const ClumpEntry& e) {
  const Quat frame = rotation_between(Vec3::UnitZ(), e.axis);
  const std::string& clump_material = e.material.empty() ? preset.particles.material : e.material;
  std::vector<PebbleSpec> out;
  if (e.shape == ClumpShape::List) {
    for (const ClumpPebble& b : e.pebbles) {
      const int m = material_index(preset.materials, b.material.empty() ? clump_material : b.material);
      const double moment = b.moment.value_or(
          m >= 0 ? preset.materials[static_cast<size_t>(m)].magnetization * sphere_volume(b.radius) : 0.0);
      out.push_back(
          {e.position + frame * b.offset, b.radius, frame * rotation_between(Vec3::UnitZ(), b.axis), m, moment});
    }
  } else {
    const int m = material_index(preset.materials, clump_material);
    const double s = e.spacing.value_or(2.0 * e.pebble_radius);
    // Each pebble stands for its lattice cell: moment M s^3, so the clump carries M times its cell volume.
    const double moment =
        e.moment.value_or(m >= 0 ? preset.materials[static_cast<size_t>(m)].magnetization * s * s * s : 0.0);
    for (const Vec3& offset : clump_shape_offsets(e))
      out.push_back({e.position + frame * offset, e.pebble_radius, frame, m, moment});
  }
  return out;
}

}  // namespace

void validate_clumps(const Preset& preset) {
  if (preset.clumps.empty()) return;
  if (preset.integrator.scheme == IntegratorScheme::OverdampedHeun)
    throw PresetError("$.clumps",
                      "clumps move with the velocity_verlet integrator only (integrator.scheme is "
                      "overdamped_heun, which has no rigid-body motion)");
  for (size_t k = 0; k < preset.clumps.size(); ++k) {
    const ClumpEntry& e = preset.clumps[k];
    const std::string path = "$.clumps[" + std::to_string(k) + "]";
    const std::string& clump_material = e.material.empty() ? preset.particles.material : e.material;
    if (material_index(preset.materials, clump_material) < 0)
      throw PresetError(path + ".material", "no material named '" + clump_material + "'");
    if (e.shape == ClumpShape::List) {
      if (e.pebbles.empty()) throw PresetError(path + ".pebbles", "a list clump needs at least one pebble");
      for (size_t j = 0; j < e.pebbles.size(); ++j)
        if (!e.pebbles[j].material.empty() && material_index(preset.materials, e.pebbles[j].material) < 0)
          throw PresetError(path + ".pebbles[" + std::to_string(j) + "].material",
                            "no material named '" + e.pebbles[j].material + "'");
    } else {
      if (e.spacing && *e.spacing > 2.0 * e.pebble_radius * (1.0 + 1e-12)) {
        std::ostringstream os;
        os << "spacing " << *e.spacing << " m leaves gaps between pebbles of radius " << e.pebble_radius
           << " m; a clump's pebbles touch or overlap: at most " << 2.0 * e.pebble_radius << " m";
        throw PresetError(path + ".spacing", os.str());
      }
      if (e.shape == ClumpShape::Cube && e.count > 40)
        throw PresetError(path + ".count", "a cube of more than 40 x 40 x 40 pebbles is not supported");
    }
    // Every pebble between the walls (open sides bound nothing; periodic sides: the centre in the box).
    for (const PebbleSpec& b : pebble_specs(preset, e))
      if (const int a = preset.box.axis_outside(b.position, b.radius); a >= 0) {
        std::ostringstream os;
        os << "a pebble (centre " << b.position[a] << " m, radius " << b.radius << " m) is not inside the box along "
           << axis_name(a) << " (" << preset.box.min[a] << " to " << preset.box.max[a] << " m)";
        throw PresetError(path + ".position", os.str());
      }
  }
}

size_t add_clump(const Preset& preset, const ClumpEntry& e, std::uint64_t first_id, State& state) {
  Particles& p = state.particles;
  std::vector<size_t> members;
  std::uint64_t next_id = first_id;
  for (const PebbleSpec& b : pebble_specs(preset, e)) {
    const double mass = preset.materials[static_cast<size_t>(b.material)].density * sphere_volume(b.radius);
    const size_t i = p.add(next_id++, b.position, b.radius, mass, b.material);
    p.orientation[i] = b.orientation;
    p.easy_axis_body[i] = Vec3::UnitZ();
    p.moment_body[i] = b.moment * Vec3::UnitZ();
    p.moment[i] = b.orientation * p.moment_body[i];
    members.push_back(i);
  }
  return make_clump(preset.materials, state, members, e.velocity, e.angular_velocity);
}

std::vector<std::pair<Vec3, double>> clump_spheres(const Preset& preset, const ClumpEntry& entry) {
  std::vector<std::pair<Vec3, double>> out;
  for (const PebbleSpec& b : pebble_specs(preset, entry)) out.emplace_back(b.position, b.radius);
  return out;
}

void add_preset_clumps(const Preset& preset, State& state) {
  for (const ClumpEntry& e : preset.clumps) {
    std::uint64_t next_id = 0;
    for (std::uint64_t id : state.particles.id) next_id = std::max(next_id, id + 1);
    add_clump(preset, e, next_id, state);
  }
}

namespace {
// Clumps and particles per part of the loops below (each item costs a rotation or two; a clump's half step, a free
// rotation with sines and cosines, some 0.1 µs). Parts of 2048 clumps gave 5 000 clumps two parts, work for two
// threads only.
constexpr size_t kClumpGrain = 512;
constexpr size_t kPebbleGrain = 4096;
// Particles per part of the clumps' force sums (about 10 ns a pebble).
constexpr size_t kPebbleSumGrain = 2048;
}  // namespace

void place_pebbles(const Model& model, State& state, bool positions, ThreadTeam& team) {
  Particles& p = state.particles;
  Clumps& c = state.clumps;
  if (c.size() == 0) return;
  std::vector<Vec3> w(c.size());
  for_each_range(team, c.size(), kClumpGrain, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) w[k] = c.angular_velocity(k);
  });
  for_each_range(team, p.size(), kPebbleGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const int k = p.clump[i];
      if (k < 0) continue;
      const auto ck = static_cast<size_t>(k);
      const Vec3 r = c.orientation[ck] * p.clump_offset[i];
      if (positions) {
        p.position[i] = c.position[ck] + r;
        p.image[i] = c.image[ck];  // the clump's images, then the boxes the offset crosses (the wrap below)
        p.orientation[i] = c.orientation[ck];
      }
      p.angular_velocity[i] = w[ck];
      p.velocity[i] = c.velocity[ck] + w[ck].cross(r);
    }
    if (positions) wrap_periodic(model, p, begin, end);
  });
}

void ClumpPebbles::refresh(const std::vector<int>& clump_of_particle, size_t clumps) {
  if (span_.size() == clumps && clump_of_ == clump_of_particle) return;
  clump_of_ = clump_of_particle;
  span_.assign(clumps, Span{-1, -1});
  placed_.clear();
  for (size_t i = 0; i < clump_of_.size(); ++i) {
    const int k = clump_of_[i];
    if (k < 0) continue;
    Span& s = span_[static_cast<size_t>(k)];
    if (s.first < 0) {
      s = {static_cast<int>(i), static_cast<int>(placed_.size())};
      placed_.push_back({k, s.first, s.first});
    }
    placed_[static_cast<size_t>(s.place)].last = static_cast<int>(i);
  }
  sums.resize(placed_.size());
  without_pebbles_.clear();
  for (size_t k = 0; k < clumps; ++k)
    if (span_[k].first < 0) without_pebbles_.push_back(k);
}

std::pair<size_t, size_t> ClumpPebbles::places_starting_in(size_t begin, size_t end) const {
  const auto starts_before = [](const Placed& c, size_t i) { return static_cast<size_t>(c.first) < i; };
  const auto lo = std::lower_bound(placed_.begin(), placed_.end(), begin, starts_before);
  const auto hi = std::lower_bound(lo, placed_.end(), end, starts_before);
  return {static_cast<size_t>(lo - placed_.begin()), static_cast<size_t>(hi - placed_.begin())};
}

// Each clump adds its pebbles in particle order, from sums begun at zero, as one loop over all the particles would:
// the same bits whatever the split. The particles are split into parts, and a clump belongs to the part that holds
// its first pebble: a part goes through its particles in order, adding those whose clumps it owns, then on past its
// end to the last pebble of its clumps (large scenes are reordered by cell, so a clump's pebbles lie a few cell rows
// apart), and finally works out its clumps' forces and torques. Every part reads the particles in order, as the single
// loop did: each clump summing its own pebbles from a list of them (the same bits too) took twice as long on one
// thread, its reads no longer streaming; and sums kept by clump index, which follows no particle order, had two
// threads writing the same cache lines (docs/performance.md "The clumps' sums on the team").
void sum_clump_forces(const Model& model, State& state, ClumpPebbles& pebbles, ThreadTeam& team) {
  const Particles& p = state.particles;
  Clumps& c = state.clumps;
  if (c.size() == 0) return;
  pebbles.refresh(p.clump, c.size());
  const Vec3& g = model.environment.gravity;
  const std::vector<ClumpPebbles::Placed>& placed = pebbles.placed();
  const auto add_pebble = [&](size_t i, size_t k, size_t place) {
    ClumpPebbles::Sums& s = pebbles.sums[place];
    const Vec3 r = c.orientation[k] * p.clump_offset[i];  // not the wrapped position: periodic boxes
    s.force += p.force[i];
    s.torque += r.cross(p.force[i]) + p.torque[i];
    s.pebble_mass += p.mass[i];
    s.first_moment += p.mass[i] * r;
  };
  for_each_range(team, p.size(), kPebbleSumGrain, [&](size_t begin, size_t end) {
    const auto [lo, hi] = pebbles.places_starting_in(begin, end);
    int last_owned = -1;
    for (size_t n = lo; n < hi; ++n) {
      pebbles.sums[n] = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), 0.0};
      last_owned = std::max(last_owned, placed[n].last);
    }
    for (size_t i = begin; i < end; ++i) {
      const int k = p.clump[i];
      if (k < 0) continue;
      const ClumpPebbles::Span& span = pebbles.span(static_cast<size_t>(k));
      if (static_cast<size_t>(span.first) < begin) continue;  // an earlier part's clump
      add_pebble(i, static_cast<size_t>(k), static_cast<size_t>(span.place));
    }
    for (size_t i = end; static_cast<int>(i) <= last_owned; ++i) {
      const int k = p.clump[i];
      if (k < 0) continue;
      const ClumpPebbles::Span& span = pebbles.span(static_cast<size_t>(k));
      if (static_cast<size_t>(span.first) >= begin && static_cast<size_t>(span.first) < end)
        add_pebble(i, static_cast<size_t>(k), static_cast<size_t>(span.place));
    }
    // Gravity acts on the clump's mass at its centre of mass: take out what the pebbles' masses received.
    for (size_t n = lo; n < hi; ++n) {
      const auto k = static_cast<size_t>(placed[n].clump);
      const ClumpPebbles::Sums& s = pebbles.sums[n];
      c.force[k] = s.force + (c.mass[k] - s.pebble_mass) * g;
      c.torque[k] = s.torque - s.first_moment.cross(g);
    }
  });
  for (size_t k : pebbles.without_pebbles()) {  // the same sums, of no pebbles
    c.force[k] = Vec3::Zero() + (c.mass[k] - 0.0) * g;
    c.torque[k] = Vec3::Zero() - Vec3::Zero().cross(g);
  }
}

void integrate_clumps_first_half(const Model& model, State& state, double dt, ThreadTeam& team) {
  Clumps& c = state.clumps;
  if (c.size() == 0) return;
  const double half = 0.5 * dt;
  for_each_range(team, c.size(), kClumpGrain, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      c.velocity[k] += (half / c.mass[k]) * c.force[k];
      c.position[k] += dt * c.velocity[k];
      c.angular_momentum[k] += half * c.torque[k];
      free_rotation(c.orientation[k], c.angular_momentum[k], c.inertia[k], dt);
      // The centre of mass stays in a periodic box like a particle centre.
      for (int a = 0; a < 3; ++a) {
        const double length = model.periodic_length[a];
        if (length <= 0.0) continue;
        double& x = c.position[k][a];
        const double boxes = std::floor((x - model.box.min[a]) / length);
        x -= length * boxes;
        if (std::abs(boxes) < 1e9) c.image[k][static_cast<size_t>(a)] += static_cast<int>(boxes);
      }
    }
  });
  place_pebbles(model, state, true, team);
}

void integrate_clumps_second_half(const Model& model, State& state, double dt, ThreadTeam& team) {
  Clumps& c = state.clumps;
  if (c.size() == 0) return;
  const double half = 0.5 * dt;
  for_each_range(team, c.size(), kClumpGrain, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      c.velocity[k] += (half / c.mass[k]) * c.force[k];
      c.angular_momentum[k] += half * c.torque[k];
    }
  });
  place_pebbles(model, state, false, team);
}

double clump_translational_energy(const Clumps& c, size_t k) {
  return 0.5 * c.mass[k] * c.velocity[k].squaredNorm();
}
double clump_rotational_energy(const Clumps& c, size_t k) {
  return 0.5 * c.angular_velocity(k).dot(c.angular_momentum[k]);
}

}  // namespace lodestone
