#pragma once
// What the tests of the periodic dipole sums share (test_ewald.cpp, test_p3m.cpp, test_dlc.cpp): random dipoles in
// a periodic box or slab, the Ewald and P3M sums of such a scene as plain vectors, the engine's own pass and field
// view on a preset's scene, and the boxes a fully periodic method must refuse.

#include "engine/magnetic/dipole.hpp"
#include "engine/magnetic/ewald.hpp"
#include "engine/magnetic/field_evaluation.hpp"
#include "engine/magnetic/magnetics.hpp"
#include "engine/magnetic/p3m.hpp"
#include "tests/engine/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <utility>
#include <vector>

namespace lodestone::testing {

// Uniform in [0, 1) from the raw generator output, so the numbers do not depend on the standard library.
inline double uniform(std::mt19937_64& g) {
  return static_cast<double>(g() >> 11) * 0x1.0p-53;
}

// Point dipoles and the periodic box they are summed in.
struct Dipoles {
  std::vector<Vec3> position, moment;
  Vec3 box = Vec3::Zero();
  double sum_m2() const {
    double s = 0.0;
    for (const Vec3& m : moment) s += m.squaredNorm();
    return s;
  }
};

// n dipoles at uniform random points corner + u extent (u in [0, 1)^3), each drawn again until it is at least `gap`
// from those placed before (minimum image along the first `periodic_axes` axes, of period extent); moments of random
// direction and size in [0.5, 1.5] m0. The box is left for the caller.
inline Dipoles scatter_dipoles(size_t n, const Vec3& corner, const Vec3& extent, int periodic_axes, double gap,
                               double m0, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  Dipoles d;
  while (d.position.size() < n) {
    const Vec3 x(corner.x() + uniform(g) * extent.x(), corner.y() + uniform(g) * extent.y(),
                 corner.z() + uniform(g) * extent.z());
    bool free = true;
    for (const Vec3& y : d.position) {
      Vec3 r = x - y;
      for (int a = 0; a < periodic_axes; ++a) r[a] -= extent[a] * std::round(r[a] / extent[a]);
      if (r.norm() < gap) {
        free = false;
        break;
      }
    }
    if (!free) continue;
    d.position.push_back(x);
    Vec3 dir;
    do dir = Vec3(2 * uniform(g) - 1, 2 * uniform(g) - 1, 2 * uniform(g) - 1);
    while (dir.squaredNorm() > 1.0 || dir.squaredNorm() < 1e-3);
    d.moment.push_back(m0 * (0.5 + uniform(g)) * dir.normalized());
  }
  return d;
}

// n dipoles at least `gap` apart (minimum image) in a box periodic along x, y and z.
inline Dipoles random_dipoles(size_t n, const Vec3& box, double gap, double m0, std::uint64_t seed) {
  Dipoles d = scatter_dipoles(n, Vec3::Zero(), box, 3, gap, m0, seed);
  d.box = box;
  return d;
}

// 4 k^3 dipoles of spheres of diameter `diameter` on a face-centred cubic lattice at volume fraction `fraction` (dense
// packings, which random placement cannot reach), each site moved by a random offset that keeps the spheres apart,
// moments as scatter_dipoles; the periodic cube of k lattice cells.
inline Dipoles jittered_fcc_dipoles(int k, double diameter, double fraction, double m0, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  const double cell = std::cbrt(4.0 * (M_PI / 6.0) * diameter * diameter * diameter / fraction);
  // Each sphere may move (gap / 2) / sqrt(3) per axis: nearest neighbours, cell / sqrt(2) apart, then stay apart.
  const double reach = 0.5 * (cell / std::sqrt(2.0) - diameter) / std::sqrt(3.0);
  const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  Dipoles d;
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b)
      for (int c = 0; c < k; ++c)
        for (const auto& o : basis) {
          const Vec3 offset(reach * (2 * uniform(g) - 1), reach * (2 * uniform(g) - 1), reach * (2 * uniform(g) - 1));
          d.position.push_back(cell * Vec3(a + o[0] + 0.25, b + o[1] + 0.25, c + o[2] + 0.25) + offset);
          Vec3 dir;
          do dir = Vec3(2 * uniform(g) - 1, 2 * uniform(g) - 1, 2 * uniform(g) - 1);
          while (dir.squaredNorm() > 1.0 || dir.squaredNorm() < 1e-3);
          d.moment.push_back(m0 * (0.5 + uniform(g)) * dir.normalized());
        }
  d.box = Vec3::Constant(cell * k);
  return d;
}

// A simple cubic lattice of cells^3 sites of spacing a, the site (x, y, z) at a ((x, y, z) + offset), every moment m
// along z, in the periodic box of side cells a.
inline Dipoles aligned_cubic_lattice(int cells, double a, double m, const Vec3& offset) {
  Dipoles d;
  d.box = Vec3::Constant(cells * a);
  for (int x = 0; x < cells; ++x)
    for (int y = 0; y < cells; ++y)
      for (int z = 0; z < cells; ++z) {
        d.position.push_back(a * Vec3(x + offset.x(), y + offset.y(), z + offset.z()));
        d.moment.push_back(Vec3(0, 0, m));
      }
  return d;
}

// That lattice's energy per dipole with tin-foil surroundings, -2 pi c m^2 / (3 a^3), and the field at every site,
// the Lorentz field 4 pi c m / (3 a^3) along the moments (the closed form: test_ewald.cpp).
inline double lorentz_energy_per_dipole(double a, double m) {
  return -2.0 * pi * mu0_over_4pi * m * m / (3.0 * a * a * a);
}
inline Vec3 lorentz_field(double a, double m) {
  return Vec3(0, 0, 4.0 * pi * mu0_over_4pi * m / (3.0 * a * a * a));
}

// The dipoles of a state, in the box `box`.
inline Dipoles dipoles_of(const State& state, const Vec3& box) {
  Dipoles d;
  d.position = state.particles.position;
  d.moment = state.particles.moment;
  d.box = box;
  return d;
}

// Per particle: force, field (without the particle's own) and torque m x B; and the energy.
struct DipoleSums {
  std::vector<Vec3> force, field, torque;
  double energy = 0.0;
};

// The pair formula of engine/magnetic/dipole.hpp (with its force cap `cap`) summed over the pairs (i, j > i) of the
// moments for which separation(i, j) gives a separation x_i - x_j (a std::optional<Vec3>; empty: the pair does not
// interact): the independent reference of the engine's pair passes and of the tree. Forces, torques and energy; the
// field is left empty.
template <class Separation>
DipoleSums pair_formula_sum(const std::vector<Vec3>& moment, Separation separation, double cap = 0.0) {
  const size_t n = moment.size();
  DipoleSums r;
  r.force.assign(n, Vec3::Zero());
  r.torque.assign(n, Vec3::Zero());
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      const std::optional<Vec3> x = separation(i, j);
      if (!x) continue;
      const DipolePair d = dipole_pair(*x, moment[i], moment[j], cap);
      r.force[i] += d.force_i;
      r.force[j] -= d.force_i;
      r.torque[i] += d.torque_i;
      r.torque[j] += d.torque_j;
      r.energy += d.energy;
    }
  return r;
}
template <class Separation>
DipoleSums pair_formula_sum(const Particles& s, Separation separation) {
  return pair_formula_sum(s.moment, separation);
}

inline double largest_norm(const std::vector<Vec3>& v) {
  double largest = 0.0;
  for (const Vec3& x : v) largest = std::max(largest, x.norm());
  return largest;
}

// The force, field and energy of a built sum (EwaldSum, P3MSum); the torques are left to with_torques, so that a
// correction (the layer correction of a slab) can add to the field first.
template <class Sum>
DipoleSums particle_terms(const Sum& sum, size_t n, ThreadTeam& team = ThreadTeam::serial()) {
  DipoleSums r;
  r.force.assign(n, Vec3::Zero());
  r.field.assign(n, Vec3::Zero());
  r.energy = sum.add_particle_terms(r.force.data(), r.field.data(), team);
  return r;
}

inline DipoleSums with_torques(const std::vector<Vec3>& moment, DipoleSums r) {
  for (size_t i = 0; i < moment.size(); ++i) r.torque.push_back(moment[i].cross(r.field[i]));
  return r;
}

inline EwaldSystem ewald_system_of(const Dipoles& d, const EwaldSplitting& split,
                                   EwaldSurroundings surroundings = EwaldSurroundings::Conducting) {
  return {
      .position = d.position, .moment = d.moment, .box_length = d.box, .split = split, .surroundings = surroundings};
}

inline P3MSystem p3m_system_of(const Dipoles& d, const P3MTuning& tuning,
                               EwaldSurroundings surroundings = EwaldSurroundings::Conducting) {
  return {
      .position = d.position, .moment = d.moment, .box_length = d.box, .tuning = tuning, .surroundings = surroundings};
}

// The forces, fields, torques and energy of the dipoles d by a sum of type Sum (EwaldSum, P3MSum) built on `system`.
template <class Sum, class System>
DipoleSums built_sums(const Dipoles& d, const System& system, ThreadTeam& team) {
  Sum sum;
  sum.build(system, &team);
  return with_torques(d.moment, particle_terms(sum, d.position.size(), team));
}

inline DipoleSums ewald_sums(const Dipoles& d, const EwaldSplitting& split,
                             EwaldSurroundings surroundings = EwaldSurroundings::Conducting,
                             ThreadTeam& team = ThreadTeam::serial()) {
  return built_sums<EwaldSum>(d, ewald_system_of(d, split, surroundings), team);
}

inline DipoleSums p3m_sums(const Dipoles& d, const P3MTuning& tuning,
                           EwaldSurroundings surroundings = EwaldSurroundings::Conducting,
                           ThreadTeam& team = ThreadTeam::serial()) {
  return built_sums<P3MSum>(d, p3m_system_of(d, tuning, surroundings), team);
}

// The sum of the forces and the sum of their sizes, the scale a vanishing total is measured on.
struct ForceBalance {
  Vec3 total = Vec3::Zero();
  double sum_norm = 0.0;
};
inline ForceBalance force_balance(const std::vector<Vec3>& force) {
  ForceBalance b;
  for (const Vec3& f : force) {
    b.total += f;
    b.sum_norm += f.norm();
  }
  return b;
}

// A built sum's field_at (EwaldSum, P3MSum) against the fields the particles feel: at each centre, where the
// particle's own term is left out as for the particle (the same terms, summed in another order), and at a periodic
// copy of the point between two centres (rounding of the shifted coordinates only).
template <class Sum>
void check_field_at(const Sum& sum, const Dipoles& d, const std::vector<Vec3>& field) {
  for (size_t i = 0; i < d.position.size(); ++i) {
    CHECK((sum.field_at(d.position[i]) - field[i]).norm() < 1e-12 * field[i].norm());
    const Vec3 x = 0.5 * (d.position[i] + d.position[(i + 1) % d.position.size()]);
    const Vec3 b = sum.field_at(x);
    CHECK((sum.field_at(x + d.box.cwiseProduct(Vec3(1, -2, 1))) - b).norm() < 1e-9 * b.norm());
  }
}

// Three magnetized spheres of 1 mm at general positions, their axes along z, x and (y + z) / sqrt 2, in an open
// 1 cm box, summed with `method`: the engine's pass and its refusals.
inline Preset three_magnets(DipoleMethod method) {
  Preset p = bare_preset();
  p.materials[0].magnetization = 8e5;
  p.magnetics.method = method;
  p.box.min = Vec3::Zero();
  p.box.max = Vec3::Constant(1e-2);
  p.particles.particles = {sphere(Vec3(2e-3, 3e-3, 4e-3), 5e-4), sphere(Vec3(5e-3, 6e-3, 2e-3), 5e-4),
                           sphere(Vec3(8e-3, 1e-3, 7e-3), 5e-4)};
  p.particles.particles[1].axis = Vec3(1, 0, 0);
  p.particles.particles[2].axis = Vec3(0, 1, 1).normalized();
  return p;
}

// The engine's dipole pass (compute_dipole_forces) on a state, forces and torques started from zero.
inline State dipole_pass(const Model& model, State state) {
  for (Vec3& f : state.particles.force) f.setZero();
  for (Vec3& t : state.particles.torque) t.setZero();
  compute_dipole_forces(model, state);
  return state;
}

// The engine's pass gives the standalone sum's bits: energy, and each particle's force and torque.
inline void check_same_bits(const State& state, const DipoleSums& r) {
  CHECK(state.energy.dipole == r.energy);
  for (size_t i = 0; i < state.particles.size(); ++i) {
    CHECK(state.particles.force[i] == r.force[i]);
    CHECK(state.particles.torque[i] == r.torque[i]);
  }
}

// The field view of the particles alone (no applied field).
inline FieldEvaluator particle_field_view(const Model& model, const State& state) {
  FieldEvaluationSettings settings;
  settings.applied = false;
  return FieldEvaluator(model, state, settings);
}

// The field view sums as the force pass does: at a point of the three_magnets box outside the spheres, the view's
// field is the built sum's field_at (EwaldSum, P3MSum), bit for bit.
template <class Sum>
void check_field_view_is(const Sum& sum, const Model& model, const State& state) {
  const FieldEvaluator field = particle_field_view(model, state);
  const Vec3 x(5e-3, 5e-3, 8e-3);
  CHECK(field.at(x) == sum.field_at(x));
}

// A method that sums a box periodic along x, y and z refuses the open box and one periodic along x and z only (two
// periodic axes other than x and y: periodic x and y with walls along z is a slab, summed with the layer correction,
// test_dlc.cpp). The error names $.magnetics.method and the axes that are not periodic; `says` checks the rest of it.
template <class Matcher>
void check_refuses_boxes_not_periodic_along_xyz(const Preset& p, const Matcher& says) {
  for (const int periodic_axes : {0, 2}) {
    Preset q = p;
    if (periodic_axes == 2) q.box.x_min = q.box.x_max = q.box.z_min = q.box.z_max = SideKind::Periodic;
    const PresetError e = session_refusal(q, "a box with " + std::to_string(periodic_axes) + " periodic axes");
    CHECK(e.path() == "$.magnetics.method");
    CHECK_THAT(e.message(), says);
    CHECK_THAT(e.message(), Catch::Contains(periodic_axes == 2 ? "along y " : "along xyz "));
  }
}

inline void make_periodic_along_xyz(Preset& p) {
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Periodic;
}

}  // namespace lodestone::testing
