#include "engine/bodies/bonds.hpp"

#include "engine/core/model.hpp"
#include "engine/core/preset.hpp"
#include "engine/core/state.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_map>

namespace lodestone {

Vec3 rotation_vector(const Quat& q_in) {
  Quat q = q_in;
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();  // the same rotation, angle <= pi
  const Vec3 v = q.vec();
  const double s = v.norm();
  if (s < 1e-12) return 2.0 * v;  // small angle: angle/sin(angle/2) -> 2
  return v * (2.0 * std::atan2(s, q.w()) / s);
}

BondStiffness bond_stiffness(const BondParameters& params, const Bond& bond) {
  BondStiffness k;
  const double r = bond.radius;
  k.area = pi * r * r;
  k.second_moment = 0.25 * pi * r * r * r * r;
  const double length = bond.rest_length;
  const double e = params.youngs_modulus;
  const double g = params.shear_modulus.value_or(e / (2.0 * (1.0 + 0.3)));
  k.axial = params.axial_stiffness.value_or(e * k.area / length);
  k.bending = params.bending_stiffness.value_or(e * k.second_moment / length);
  k.torsion = params.torsion_stiffness.value_or(g * 2.0 * k.second_moment / length);
  return k;
}

Bond make_bond(const Particles& p, size_t a, size_t b, const BondParameters& params) {
  Bond bond;
  bond.id_a = p.id[a];
  bond.id_b = p.id[b];
  bond.a = static_cast<int>(a);
  bond.b = static_cast<int>(b);
  const Vec3 d = p.position[b] - p.position[a];
  bond.rest_length = d.norm();
  bond.radius = params.radius_ratio * std::min(p.radius[a], p.radius[b]);
  // Any frame with x along the bond; stored in each body's frame so that it turns with the body.
  const Quat rest = rotation_between(Vec3::UnitX(), d / bond.rest_length);
  bond.frame_a = p.orientation[a].conjugate() * rest;
  bond.frame_b = p.orientation[b].conjugate() * rest;
  return bond;
}

std::vector<Bond> create_bonds(const Preset& preset, const Particles& p) {
  const BondParameters& params = preset.bonds;
  std::vector<Bond> bonds;
  const size_t n = p.size();
  auto coincident = [&](size_t a, size_t b) { return !((p.position[b] - p.position[a]).norm() > 0.0); };
  if (params.create == BondCreation::Touching) {
    // A hash grid of cells one largest reach wide: each particle looks at the 27 cells around its own,
    // and a pair is taken once (a < b), in index order, so the bonds come out the same on every machine.
    double r_max = 0.0;
    for (double r : p.radius) r_max = std::max(r_max, r);
    const double cell = 2.0 * r_max * (1.0 + params.touch_tolerance);
    auto key = [&](const Vec3& x, int dx, int dy, int dz) {
      // Unsigned arithmetic: wraps instead of overflowing for far-away cells. The cell index is clamped in
      // double before the cast (a sphere 1e80 m away, found by fuzzing, docs/reliability.md); cells merged
      // by the clamp only add candidates, which the distance test below sorts out.
      const auto c = [&](double v, int d) {
        const double k = std::clamp(std::floor(v / cell), -4.0e18, 4.0e18);
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(k) + d);
      };
      return (c(x.x(), dx) * 73856093u) ^ (c(x.y(), dy) * 19349663u) ^ (c(x.z(), dz) * 83492791u);
    };
    std::unordered_map<std::uint64_t, std::vector<size_t>> grid;
    for (size_t a = 0; a < n; ++a) grid[key(p.position[a], 0, 0, 0)].push_back(a);
    for (size_t a = 0; a < n; ++a) {
      std::vector<size_t> near;
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dz = -1; dz <= 1; ++dz)
            if (const auto it = grid.find(key(p.position[a], dx, dy, dz)); it != grid.end())
              for (size_t b : it->second)
                if (b > a) near.push_back(b);
      std::sort(near.begin(), near.end());
      near.erase(std::unique(near.begin(), near.end()), near.end());  // hash collisions may repeat a cell
      for (size_t b : near) {
        const double reach = (p.radius[a] + p.radius[b]) * (1.0 + params.touch_tolerance);
        const double dist = (p.position[b] - p.position[a]).norm();
        if (dist <= reach && dist > 0.0) bonds.push_back(make_bond(p, a, b, params));
      }
    }
  } else if (params.create == BondCreation::List) {
    for (size_t k = 0; k < params.list.size(); ++k) {
      const BondEntry& e = params.list[k];
      const std::string path = "$.bonds.list[" + std::to_string(k) + "]";
      for (const auto& [index, key] : {std::pair{e.a, ".a"}, std::pair{e.b, ".b"}})
        if (index < 0 || static_cast<size_t>(index) >= n)
          throw PresetError(path + key, "particle index " + std::to_string(index) + " does not exist: the scene has " +
                                            std::to_string(n) + " particles (indices 0 to " +
                                            std::to_string(n == 0 ? 0 : n - 1) + ")");
      if (e.a == e.b) throw PresetError(path + ".b", "a particle cannot be bonded to itself");
      const auto a = static_cast<size_t>(e.a), b = static_cast<size_t>(e.b);
      if (coincident(a, b)) throw PresetError(path, "the two particles are at the same position");
      bonds.push_back(make_bond(p, a, b, params));
    }
  }
  return bonds;
}

namespace {

// Bonds per part: a bond costs about as much as a contact with history (a slerp, two rotation vectors).
constexpr size_t kBondGrain = 512;
// Particles per part of adding the bonds' pushes (each part scans every bond, 12 bytes each, for its particles').
constexpr size_t kParticlesPerPushPart = 4096;

// Dense indices follow the stable ids when large scenes are reordered (engine/step/neighbor.cpp).
void refresh_bond_indices(const Particles& p, std::vector<Bond>& bonds, ThreadTeam& team) {
  const size_t n = p.size();
  // Whether they still do, checked on the team as the bonds are worked out.
  const std::vector<char> current =
      results_of_parts<char>(team, bonds.size(), kBondGrain, [&](size_t begin, size_t end) {
        for (size_t k = begin; k < end; ++k) {
          const Bond& b = bonds[k];
          if (static_cast<size_t>(b.a) >= n || static_cast<size_t>(b.b) >= n ||
              p.id[static_cast<size_t>(b.a)] != b.id_a || p.id[static_cast<size_t>(b.b)] != b.id_b)
            return char{0};
        }
        return char{1};
      });
  if (std::find(current.begin(), current.end(), char{0}) == current.end()) return;
  std::unordered_map<std::uint64_t, int> index;
  for (size_t i = 0; i < n; ++i) index[p.id[i]] = static_cast<int>(i);
  for (Bond& b : bonds) {
    const auto ia = index.find(b.id_a), ib = index.find(b.id_b);
    if (ia == index.end() || ib == index.end()) {
      b.broken = true;  // a particle is gone
      continue;
    }
    b.a = ia->second;
    b.b = ib->second;
  }
}

// What one bond does in a step, worked out on any thread: which particles and what happened (kept, and scanned by every
// part that adds the pushes), the energies (summed at once into the books), the pushes (kept, added to the particles in
// bond order).
enum class BondKind : std::uint8_t { Skipped, Acts, Breaks };
struct BondLink {
  std::uint32_t a = 0, b = 0;  // the bond's particles (so that adding the pushes reads no Bond)
  BondKind kind = BondKind::Skipped;
};
struct BondBooks {
  double energy = 0.0;        // [J] stored in the beam (acts) or released by the break (breaks)
  double dashpot_work = 0.0;  // [J] the dashpot's work this step (subtracted from the loss's book)
};
struct BondPush {
  Vec3 force_b = Vec3::Zero();  // on b; a takes its opposite
  Vec3 torque_a = Vec3::Zero(), torque_b = Vec3::Zero();
};
struct BondOutcome {
  BondLink link;
  BondBooks books;
  BondPush push;
};

// One intact bond's forces, moments and energy, or its break; updates the bond's own state (its dashpot, broken).
BondOutcome evaluate_bond(const Model& model, const Particles& p, Bond& bond, double dt) {
  const BondParameters& params = model.bonds;
  const double zeta = params.damping_ratio;
  BondOutcome out;
  const auto i = static_cast<size_t>(bond.a), j = static_cast<size_t>(bond.b);
  const Vec3 d = minimum_image(model, p.position[j] - p.position[i]);
  const double length = d.norm();
  if (!(length > 0.0)) return out;  // coincident centres: the checks stage reports it
  const Vec3 x = d / length;
  const BondStiffness k = bond_stiffness(params, bond);

  // [SECTION] Co-rotating frame and end rotations relative to the chord.
  const Quat end_a = p.orientation[i] * bond.frame_a;
  const Quat end_b = p.orientation[j] * bond.frame_b;
  const Quat mean = end_a.slerp(0.5, end_b);
  const Quat frame = (rotation_between(mean * Vec3::UnitX(), x) * mean).normalized();
  const Vec3 theta_a = rotation_vector(frame.conjugate() * end_a);  // bond frame
  const Vec3 theta_b = rotation_vector(frame.conjugate() * end_b);

  // [SECTION] Elastic end moments and forces in the bond frame (see the header).
  const double stretch = length - bond.rest_length;
  const double twist = theta_b.x() - theta_a.x();
  Vec3 moment_a(k.torsion * twist, 0.0, 0.0), moment_b(-k.torsion * twist, 0.0, 0.0);
  for (int c = 1; c < 3; ++c) {
    moment_a[c] = -k.bending * (4.0 * theta_a[c] + 2.0 * theta_b[c]);
    moment_b[c] = -k.bending * (2.0 * theta_a[c] + 4.0 * theta_b[c]);
  }
  const Vec3 bending_sum(0.0, moment_a.y() + moment_b.y(), moment_a.z() + moment_b.z());
  const Vec3 force_b_local = Vec3(-k.axial * stretch, 0.0, 0.0) + Vec3::UnitX().cross(bending_sum) / length;
  const Mat3 rot = frame.toRotationMatrix();
  const Vec3 force_b = rot * force_b_local;

  double energy = 0.5 * k.axial * stretch * stretch + 0.5 * k.torsion * twist * twist;
  for (int c = 1; c < 3; ++c)
    energy += k.bending * 2.0 * (theta_a[c] * theta_a[c] + theta_a[c] * theta_b[c] + theta_b[c] * theta_b[c]);

  // [SECTION] Breaking: normal stress of tension plus bending, shear stress of shear plus torsion.
  const double r = bond.radius;
  const double bend =
      std::max(Vec3(0.0, moment_a.y(), moment_a.z()).norm(), Vec3(0.0, moment_b.y(), moment_b.z()).norm());
  const double sigma = std::max(0.0, k.axial * stretch) / k.area + bend * r / k.second_moment;
  const double tau = Vec3(0.0, force_b_local.y(), force_b_local.z()).norm() / k.area +
                     std::abs(k.torsion * twist) * r / (2.0 * k.second_moment);
  if ((params.tensile_strength && sigma > *params.tensile_strength) ||
      (params.shear_strength && tau > *params.shear_strength)) {
    bond.broken = true;
    out.link.kind = BondKind::Breaks;
    out.books.energy = energy;  // what the beam stored is lost when it breaks
    out.books.dashpot_work = 0.5 * dt * (bond.damping_force.dot(p.velocity[j] - p.velocity[i]));
    return out;
  }

  // [SECTION] Local damping of the relative motion ([Voxel-beams]).
  const Vec3 omega_mean = 0.5 * (p.angular_velocity[i] + p.angular_velocity[j]);
  const Vec3 v_rel = p.velocity[j] - p.velocity[i] - omega_mean.cross(d);
  const Vec3 omega_rel = p.angular_velocity[j] - p.angular_velocity[i];
  Vec3 damping_force = Vec3::Zero(), damping_couple = Vec3::Zero();
  if (zeta > 0.0) {
    const double mu = p.mass[i] * p.mass[j] / (p.mass[i] + p.mass[j]);
    const double inertia = p.inertia[i] * p.inertia[j] / (p.inertia[i] + p.inertia[j]);
    const double shear = 12.0 * k.bending / (bond.rest_length * bond.rest_length);
    const Vec3 v_axial = v_rel.dot(x) * x;
    damping_force = -2.0 * zeta * (std::sqrt(mu * k.axial) * v_axial + std::sqrt(mu * shear) * (v_rel - v_axial));
    const Vec3 w_axial = omega_rel.dot(x) * x;
    damping_couple =
        -2.0 * zeta *
        (std::sqrt(inertia * k.torsion) * w_axial + std::sqrt(inertia * k.bending) * (omega_rel - w_axial));
  }
  // Trapezoid of the old and new dashpot forces over the step, as for contacts (engine/contact/contacts.cpp).
  out.books.dashpot_work =
      0.5 * dt *
      ((bond.damping_force + damping_force).dot(v_rel) + (bond.damping_couple + damping_couple).dot(omega_rel));
  bond.damping_force = damping_force;
  bond.damping_couple = damping_couple;

  const Vec3 shared_couple = -0.5 * d.cross(damping_force);
  out.link = {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j), BondKind::Acts};
  out.books.energy = energy;
  out.push = {force_b + damping_force, rot * moment_a - damping_couple + shared_couple,
              rot * moment_b + damping_couple + shared_couple};
  return out;
}

}  // namespace

void compute_bond_forces(const Model& model, State& state, double dt, ThreadTeam& team) {
  std::vector<Bond>& bonds = state.bonds;
  if (bonds.empty()) return;
  Particles& p = state.particles;
  refresh_bond_indices(p, bonds, team);
  // The bonds' outcomes, kept between steps (one set per simulation thread: allocating and clearing them every step
  // took a serial millisecond at 57 700 bonds, as long as the parallel part gained on two threads). The workers reach
  // them through the references: inside the parts' lambdas the names would be each worker's own.
  thread_local std::vector<BondLink> kept_links;
  thread_local std::vector<BondPush> kept_pushes;
  std::vector<BondLink>& links = kept_links;
  std::vector<BondPush>& pushes = kept_pushes;
  links.resize(bonds.size());
  pushes.resize(bonds.size());
  // The energy books summed in chunks of kBondGrain bonds as they are worked out, each chunk in bond order, and the
  // chunks' sums added in chunk order: grouped the same way at any number of threads. (Summed after the sweep by one
  // part beside those adding the pushes, they left the other thread waiting past its poll: it blocked, and the next
  // stage paid its wake-up; docs/performance.md "Why (e)'s field stage gains 1.28x".)
  struct ChunkBooks {
    double elastic = 0.0, dashpot_loss = 0.0, break_loss = 0.0;
    std::uint64_t broken = 0;
  };
  const size_t chunks = (bonds.size() + kBondGrain - 1) / kBondGrain;
  thread_local std::vector<ChunkBooks> kept_chunk_books;
  std::vector<ChunkBooks>& chunk_books = kept_chunk_books;
  chunk_books.assign(chunks, ChunkBooks{});
  for_each_range(team, chunks, 1, [&](size_t first_chunk, size_t end_chunk) {
    for (size_t chunk = first_chunk; chunk < end_chunk; ++chunk) {
      ChunkBooks& sums = chunk_books[chunk];
      for (size_t k = chunk * kBondGrain; k < std::min(bonds.size(), (chunk + 1) * kBondGrain); ++k) {
        const BondOutcome o = bonds[k].broken ? BondOutcome{} : evaluate_bond(model, p, bonds[k], dt);
        links[k] = o.link;
        pushes[k] = o.push;
        if (o.link.kind == BondKind::Skipped) continue;
        sums.dashpot_loss -= o.books.dashpot_work;
        if (o.link.kind == BondKind::Breaks) {
          ++sums.broken;
          sums.break_loss += o.books.energy;
        } else {
          sums.elastic += o.books.energy;
        }
      }
    }
  });
  double elastic = 0.0, dashpot_loss = 0.0, break_loss = 0.0;
  std::uint64_t broken = 0;
  for (const ChunkBooks& sums : chunk_books) {
    elastic += sums.elastic;
    dashpot_loss += sums.dashpot_loss;
    break_loss += sums.break_loss;
    broken += sums.broken;
  }
  // The pushes added in bond order, a range of particles to each part (each scans every bond for its particles'):
  // each particle gets its terms in the order of one thread, so the forces do not depend on the number of threads.
  const int parts = std::min(parts_for(team, p.size(), kParticlesPerPushPart), ThreadTeam::kMaxParts);
  const std::vector<size_t> rows = split_evenly(p.size(), parts);
  const auto add_pushes = [&](size_t lo, size_t width) {
    for (size_t k = 0; k < bonds.size(); ++k) {
      const BondLink link = links[k];
      if (link.kind != BondKind::Acts) continue;
      if (link.b - lo < width) {  // unsigned: lo <= b < lo + width
        p.force[link.b] += pushes[k].force_b;
        p.torque[link.b] += pushes[k].torque_b;
      }
      if (link.a - lo < width) {
        p.force[link.a] -= pushes[k].force_b;
        p.torque[link.a] += pushes[k].torque_a;
      }
    }
  };
  team.run(parts, [&](int part) {
    add_pushes(rows[static_cast<size_t>(part)], rows[static_cast<size_t>(part) + 1] - rows[static_cast<size_t>(part)]);
  });
  state.broken_bonds += broken;
  state.energy.elastic += elastic;
  state.energy.dissipated_dashpot += dashpot_loss;
  state.energy.dissipated_friction += break_loss;
}

std::int64_t intact_bond_count(const std::vector<Bond>& bonds) {
  return std::count_if(bonds.begin(), bonds.end(), [](const Bond& b) { return !b.broken; });
}

void advise_bonds_and_floor(Model& model, const Particles& p, const std::vector<Bond>& bonds) {
  const FloorParameters& floor = model.floor;
  if (floor.side != FloorSide::None) {
    const int side = static_cast<int>(floor.side) - 1;
    static const char* names[6] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
    if (model.box.side(side / 2, side % 2) != SideKind::Wall)
      throw PresetError("$.floor.side", std::string("box.") + names[side] + " must be a wall to be the floor");
    if (floor.dynamic_friction > floor.static_friction)
      throw PresetError("$.floor.dynamic_friction", "mu_d must not exceed mu_s (static_friction)");
    if (model.integrator.scheme != IntegratorScheme::VelocityVerlet)
      throw PresetError("$.floor.side", "the floor's stick flag works on velocities: use velocity_verlet");
  }
  const bool overdamped = model.integrator.scheme == IntegratorScheme::OverdampedHeun;
  TimeStepAdvice& advice = model.advice;
  auto consider = [&](double omega, const char* what) {
    if (std::isfinite(omega) && omega > advice.omega_max) {
      advice.omega_max = omega;
      advice.limited_by = what;
    }
  };
  for (const Bond& bond : bonds) {
    if (bond.broken) continue;
    const auto a = static_cast<size_t>(bond.a), b = static_cast<size_t>(bond.b);
    if (a >= p.size() || b >= p.size()) continue;
    const BondStiffness k = bond_stiffness(model.bonds, bond);
    const double shear = 12.0 * k.bending / (bond.rest_length * bond.rest_length);
    if (overdamped) {
      const double gamma = model.environment.translational_damping;
      const double drag =
          std::min(p.radius[a] * p.radius[a], p.radius[b] * p.radius[b]) * model.environment.rotational_damping;
      consider(std::max(k.axial, shear) / gamma, "bond stiffness");
      consider(std::max(4.0 * k.bending, k.torsion) / drag, "bond stiffness");
      continue;
    }
    // [Voxel-beams]: omega_0max = sqrt(k_b / m_min), for the axial and shear springs, and for the end rotations
    // (4 EI/L is the moment per radian at one end with the other held).
    const double m_min = std::min(p.mass[a], p.mass[b]);
    const double i_min = std::min(p.inertia[a], p.inertia[b]);
    consider(std::sqrt(std::max(k.axial, shear) / m_min), "bond stiffness");
    consider(std::sqrt(std::max(4.0 * k.bending, k.torsion) / i_min), "bond stiffness");
  }
  if (floor.side != FloorSide::None && !overdamped)
    for (size_t i = 0; i < p.size(); ++i) {
      const double k = floor.stiffness.value_or(model.pair(p.material[i], model.wall_material).kn);
      consider(std::sqrt(k / p.mass[i]), "floor stiffness");
    }
  if (advice.omega_max > 0.0) advice.suggested = 1.0 / (2.0 * pi * advice.omega_max);
  model.time_step = model.integrator.time_step.value_or(advice.suggested);
}

}  // namespace lodestone
