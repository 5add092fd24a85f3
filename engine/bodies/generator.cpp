#include "engine/bodies/generator.hpp"

#include "engine/bodies/bonds.hpp"
#include "engine/bodies/clumps.hpp"
#include "engine/core/random.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <unordered_map>

namespace lodestone {
namespace {

Region fill_region(const Preset& preset) {
  if (preset.particles.region) return *preset.particles.region;
  return Region{preset.box.min, preset.box.max};
}

double draw_diameter(const GeneratorParameters& g, Random& rng) {
  switch (g.size_distribution) {
    case SizeDistribution::Monodisperse: return g.diameter;
    case SizeDistribution::Uniform: return g.diameter * (1.0 + g.size_spread * (2.0 * rng.uniform() - 1.0));
    case SizeDistribution::LogNormal: {
      // ln d ~ N(ln D - sigma^2/2, sigma^2): the mean diameter stays D.
      const double s = g.size_spread;
      return g.diameter * std::exp(s * rng.normal() - 0.5 * s * s);
    }
  }
  return g.diameter;
}

// Sets mass, inertia, orientation, moment of particle i from its material and easy-axis direction.
void finish_particle(Particles& p, size_t i, const Preset& preset, const Quat& orientation,
                     std::optional<double> moment_override) {
  const Material& mat = preset.materials[static_cast<size_t>(p.material[i])];
  const double volume = sphere_volume(p.radius[i]);
  p.mass[i] = mat.density * volume;
  p.inertia[i] = 0.4 * p.mass[i] * p.radius[i] * p.radius[i];
  p.orientation[i] = orientation;
  p.easy_axis_body[i] = Vec3::UnitZ();
  const double moment = moment_override.value_or(mat.magnetization * volume);
  p.moment_body[i] = moment * Vec3::UnitZ();
  p.moment[i] = orientation * p.moment_body[i];
}

Quat draw_orientation(const GeneratorParameters& g, Random& rng) {
  switch (g.orientation) {
    case OrientationKind::Aligned: return rotation_between(Vec3::UnitZ(), g.axis);
    case OrientationKind::Random: return rng.orientation();
    case OrientationKind::RandomHemisphere: {
      // Turning a body by pi about its own x axis maps its z axis to -z: folds the sphere onto the
      // half around `axis` and keeps the distribution uniform there.
      const Quat q = rng.orientation();
      return (q * Vec3::UnitZ()).dot(g.axis) >= 0.0 ? q : Quat(q * Quat(0.0, 1.0, 0.0, 0.0));
    }
  }
  return Quat::Identity();
}

void generate_lattice(const Preset& preset, Particles& p, Random& rng) {
  const GeneratorParameters& g = preset.particles;
  const Region region = fill_region(preset);
  std::vector<double> diameters(static_cast<size_t>(g.count));
  for (double& d : diameters) d = draw_diameter(g, rng);
  const double d_max = diameters.empty() ? g.diameter : *std::max_element(diameters.begin(), diameters.end());
  const bool bcc = g.lattice == LatticeKind::BodyCentredCubic;
  // Nearest sites: the cell edge apart (simple cubic), half the cell diagonal (bcc).
  const double nearest_per_spacing = bcc ? 0.5 * std::sqrt(3.0) : 1.0;
  const double spacing = g.spacing.value_or(d_max / nearest_per_spacing);
  // Two sites jittered towards each other close in by at most 2 jitter sqrt(3).
  const double nearest = nearest_per_spacing * spacing - 2.0 * std::sqrt(3.0) * g.jitter;
  if (nearest < d_max * (1.0 - 1e-12)) {
    std::ostringstream os;
    os << "nearest sites " << nearest_per_spacing * spacing << " m apart (spacing " << spacing << " m), jitter "
       << g.jitter << " m: neighbours could come closer than the largest diameter " << d_max
       << " m and overlap; increase the spacing or reduce the jitter";
    throw PresetError(g.jitter > 0.0 ? "$.particles.jitter" : "$.particles.spacing", os.str());
  }
  const Vec3 extent = region.max - region.min;
  const int per_cell = bcc ? 2 : 1;
  // Cells per axis, capped at `count` (more along one axis are never used), so nothing overflows.
  long long cells[3];
  for (int a = 0; a < 3; ++a)
    cells[a] = static_cast<long long>(std::min<double>(std::floor(extent[a] / spacing + 1e-9), g.count));
  const double capacity =
      per_cell * static_cast<double>(cells[0]) * static_cast<double>(cells[1]) * static_cast<double>(cells[2]);
  if (capacity < g.count) {
    std::ostringstream os;
    os << "the region holds " << capacity << " lattice sites at spacing " << spacing << " m (" << cells[0] << " x "
       << cells[1] << " x " << cells[2] << (bcc ? " bcc cells" : "") << "), fewer than count = " << g.count
       << "; enlarge the region or reduce count or spacing";
    throw PresetError("$.particles.count", os.str());
  }
  // Sites inside a cell (fractions of the spacing): the centre, or a quarter and three quarters along the
  // diagonal, so that every site keeps a quarter cell from the region's faces.
  const std::vector<Vec3> basis =
      bcc ? std::vector<Vec3>{Vec3::Constant(0.25), Vec3::Constant(0.75)} : std::vector<Vec3>{Vec3::Constant(0.5)};
  const int material = material_index(preset.materials, g.material);
  for (int k = 0; k < g.count; ++k) {
    const long long cell = k / per_cell;
    const long long ix = cell % cells[0], iy = (cell / cells[0]) % cells[1], iz = cell / (cells[0] * cells[1]);
    Vec3 x = region.min + spacing * (Vec3(static_cast<double>(ix), static_cast<double>(iy), static_cast<double>(iz)) +
                                     basis[static_cast<size_t>(k % per_cell)]);
    if (g.jitter > 0.0)
      for (int a = 0; a < 3; ++a) x[a] += rng.uniform(-g.jitter, g.jitter);
    const size_t i = p.add(static_cast<std::uint64_t>(k), x, 0.5 * diameters[static_cast<size_t>(k)], 0.0, material);
    finish_particle(p, i, preset, draw_orientation(g, rng), std::nullopt);
    for (int a = 0; a < 3; ++a) p.velocity[i][a] = g.velocity_spread * rng.normal();
  }
}

// Random sequential addition with a hash grid for the overlap test (linear in N).
void generate_random(const Preset& preset, Particles& p, Random& rng) {
  const GeneratorParameters& g = preset.particles;
  const Region region = fill_region(preset);
  std::vector<double> diameters(static_cast<size_t>(g.count));
  for (double& d : diameters) d = draw_diameter(g, rng);
  // Large spheres first: they are the hardest to place.
  std::sort(diameters.begin(), diameters.end(), std::greater<>());
  const double d_max = diameters.empty() ? g.diameter : diameters.front();
  const double cell = d_max;
  std::unordered_map<std::uint64_t, std::vector<int>> grid;
  auto cell_key = [&](int cx, int cy, int cz) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(cx) & 0x1FFFFF) << 42) |
           (static_cast<std::uint64_t>(static_cast<std::uint32_t>(cy) & 0x1FFFFF) << 21) |
           (static_cast<std::uint64_t>(static_cast<std::uint32_t>(cz) & 0x1FFFFF));
  };
  auto cell_of = [&](double x, int a) { return static_cast<int>(std::floor((x - region.min[a]) / cell)); };
  const int material = material_index(preset.materials, g.material);

  for (int k = 0; k < g.count; ++k) {
    const double r = 0.5 * diameters[static_cast<size_t>(k)];
    bool placed = false;
    Vec3 x;
    for (int attempt = 0; attempt < g.max_attempts && !placed; ++attempt) {
      for (int a = 0; a < 3; ++a) {
        const double lo = region.min[a] + r, hi = region.max[a] - r;
        if (hi < lo) {
          throw PresetError("$.particles.region", "a particle of diameter " + std::to_string(2 * r) +
                                                      " m does not fit into the region along " + "xyz"[a]);
        }
        x[a] = rng.uniform(lo, hi);
      }
      const int cx = cell_of(x[0], 0), cy = cell_of(x[1], 1), cz = cell_of(x[2], 2);
      bool overlaps = false;
      for (int dz = -1; dz <= 1 && !overlaps; ++dz)
        for (int dy = -1; dy <= 1 && !overlaps; ++dy)
          for (int dx = -1; dx <= 1 && !overlaps; ++dx) {
            auto it = grid.find(cell_key(cx + dx, cy + dy, cz + dz));
            if (it == grid.end()) continue;
            for (int j : it->second) {
              const double reach = r + p.radius[static_cast<size_t>(j)];
              if ((x - p.position[static_cast<size_t>(j)]).squaredNorm() < reach * reach) {
                overlaps = true;
                break;
              }
            }
          }
      placed = g.allow_overlap || !overlaps;
    }
    if (!placed) {
      double volume = 0.0;
      for (size_t i = 0; i < p.size(); ++i) volume += sphere_volume(p.radius[i]);
      const Vec3 extent = region.max - region.min;
      std::ostringstream os;
      os << "random placement stopped after " << k << " of " << g.count << " particles (volume fraction "
         << volume / (extent[0] * extent[1] * extent[2]) << " reached; " << g.max_attempts
         << " attempts each); enlarge the region, reduce count, or use the lattice generator";
      throw PresetError("$.particles.count", os.str());
    }
    const size_t i = p.add(static_cast<std::uint64_t>(k), x, r, 0.0, material);
    grid[cell_key(cell_of(x[0], 0), cell_of(x[1], 1), cell_of(x[2], 2))].push_back(static_cast<int>(i));
    finish_particle(p, i, preset, draw_orientation(g, rng), std::nullopt);
    for (int a = 0; a < 3; ++a) p.velocity[i][a] = g.velocity_spread * rng.normal();
  }
}

void generate_list(const Preset& preset, Particles& p) {
  const GeneratorParameters& g = preset.particles;
  for (size_t k = 0; k < g.particles.size(); ++k)
    add_particle_entry(preset, g.particles[k], static_cast<std::uint64_t>(k), p);
}

}  // namespace

size_t add_particle_entry(const Preset& preset, const ParticleEntry& e, std::uint64_t particle_id, Particles& p) {
  const int material = material_index(preset.materials, e.material.empty() ? preset.particles.material : e.material);
  const size_t i = p.add(particle_id, e.position, e.radius, 0.0, material);
  p.velocity[i] = e.velocity;
  p.angular_velocity[i] = e.angular_velocity;
  finish_particle(p, i, preset, rotation_between(Vec3::UnitZ(), e.axis), e.moment);
  p.hold[i] = static_cast<std::uint8_t>(e.fixed);
  if (p.holds_position(i)) p.velocity[i].setZero();
  if (p.holds_orientation(i)) p.angular_velocity[i].setZero();
  return i;
}

Particles generate_particles(const Preset& preset) {
  Particles p;
  Random rng(preset.particles.seed);
  switch (preset.particles.kind) {
    case GeneratorKind::Lattice: generate_lattice(preset, p, rng); break;
    case GeneratorKind::Random: generate_random(preset, p, rng); break;
    case GeneratorKind::List: generate_list(preset, p); break;
    case GeneratorKind::Checkpoint:
      // The saved state as a whole, contacts and clumps included, is restored by the Session.
      throw PresetError("$.particles.kind", "checkpoint: the particles come from the saved state, not a generator");
  }
  return p;
}

State generate_state(const Preset& preset) {
  State state;
  state.particles = generate_particles(preset);
  state.bonds = create_bonds(preset, state.particles);
  add_preset_clumps(preset, state);
  return state;
}

}  // namespace lodestone
