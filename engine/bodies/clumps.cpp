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
// Clumps and particles per part of the loops below (each item costs a rotation or two).
constexpr size_t kClumpGrain = 2048;
constexpr size_t kPebbleGrain = 4096;
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

// One thread, in particle order. Two ways of putting it on the team kept its bits and lost at 20 000 pebbles
// (bench/workloads/f-clumps-20k.json, docs/performance.md "Bonds and clumps on the team"): each clump summing its own
// pebbles from a list of them (2.6 times as long on one thread: large scenes reorder their particles at list rebuilds,
// and a clump's pebbles then lie far apart in the arrays), and the pebbles' rotations on the team with the sums after
// them in a second pass (slower on one thread and no faster on two: the sums cost about what the single loop does).
void sum_clump_forces(const Model& model, State& state) {
  Particles& p = state.particles;
  Clumps& c = state.clumps;
  if (c.size() == 0) return;
  std::vector<double> pebble_mass(c.size(), 0.0);
  std::vector<Vec3> first_moment(c.size(), Vec3::Zero());
  for (size_t k = 0; k < c.size(); ++k) {
    c.force[k].setZero();
    c.torque[k].setZero();
  }
  for (size_t i = 0; i < p.size(); ++i) {
    const int k = p.clump[i];
    if (k < 0) continue;
    const auto ck = static_cast<size_t>(k);
    const Vec3 r = c.orientation[ck] * p.clump_offset[i];  // not the wrapped position: periodic boxes
    c.force[ck] += p.force[i];
    c.torque[ck] += r.cross(p.force[i]) + p.torque[i];
    pebble_mass[ck] += p.mass[i];
    first_moment[ck] += p.mass[i] * r;
  }
  // Gravity acts on the clump's mass at its centre of mass: take out what the pebbles' masses received.
  const Vec3& g = model.environment.gravity;
  for (size_t k = 0; k < c.size(); ++k) {
    c.force[k] += (c.mass[k] - pebble_mass[k]) * g;
    c.torque[k] -= first_moment[k].cross(g);
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
