// Dipolar layer correction for slabs (engine/magnetic/dlc.hpp; docs/physics.md, "Layer correction for slabs"): the
// Ewald sum (and P3M) in a box with a gap above the slab plus the correction against a direct sum over the images
// in x and y, the truncation bound, and the engine's slab boxes.

#include "engine/magnetic/dipole.hpp"
#include "engine/magnetic/dlc.hpp"
#include "engine/magnetic/ewald.hpp"
#include "engine/magnetic/p3m.hpp"
#include "tests/engine/dipole_scenes.hpp"

#include <cmath>
#include <cstdint>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

struct Slab {
  std::vector<Vec3> position, moment;
  double side = 0.0;  // Lx = Ly
};

// n dipoles at least `gap` apart in a square cell of side L (periodic in x and y), z in [z0, z0 + h].
// Moments of size 0.5 to 1.5 mA m^2.
Slab random_slab(size_t n, double side, double z0, double h, double gap, std::uint64_t seed) {
  Dipoles d = scatter_dipoles(n, Vec3(0.0, 0.0, z0), Vec3(side, side, h), 2, gap, 1e-3, seed);
  return Slab{std::move(d.position), std::move(d.moment), side};
}

// The independent reference: the bare pair sum over the image cells (nx, ny) with |n| L <= R within a disk, plus
// the rest of the plane as a continuum: beyond R the images of j form a sheet of density 1/A, whose pair energy
// averaged over directions in the plane is c [mi_z mj_z - mi_par.mj_par / 2] / rho^3, integrated: 2 pi / R. Its
// field is c (mj_par / 2 - mj_z z) 2 pi / (A R). The next terms fall as (dz / R)^2 and with the lattice's
// discreteness at the disk's edge: measured, the reference moves by 2e-6 (energy) between R = 50 and 100 cells
// and by 1e-7 between 100 and 200.
DipoleSums direct_plane_sum(const Slab& s, int cells) {
  const size_t n = s.position.size();
  const double area = s.side * s.side, radius = cells * s.side;
  DipoleSums r;
  r.force.assign(n, Vec3::Zero());
  r.field.assign(n, Vec3::Zero());
  for (int ix = -cells; ix <= cells; ++ix)
    for (int iy = -cells; iy <= cells; ++iy) {
      if (ix * ix + iy * iy > cells * cells) continue;
      const Vec3 shift(ix * s.side, iy * s.side, 0.0);
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
          if (i == j && ix == 0 && iy == 0) continue;
          const Vec3 d = s.position[i] - s.position[j] + shift;
          const DipolePair p = dipole_pair(d, s.moment[i], s.moment[j], 0.0);
          r.energy += 0.5 * p.energy;
          r.force[i] += p.force_i;
          r.field[i] += dipole_field(d, s.moment[j]);
        }
    }
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      const Vec3& mi = s.moment[i];
      const Vec3& mj = s.moment[j];
      const double tail = mu0_over_4pi * 2.0 * pi / (area * radius);
      r.energy += 0.5 * tail * (mi.z() * mj.z() - 0.5 * (mi.x() * mj.x() + mi.y() * mj.y()));
      r.field[i] += tail * Vec3(0.5 * mj.x(), 0.5 * mj.y(), -mj.z());
    }
  return with_torques(s.moment, std::move(r));
}

// The 3-D sum (Ewald converged, or P3M at an accuracy) in the box (L, L, Lz) plus the layer correction.
DipoleSums corrected_sum(const Slab& s, double lz, double p3m_accuracy, double dlc_accuracy) {
  const size_t n = s.position.size();
  Dipoles d;
  d.position = s.position;
  d.moment = s.moment;
  d.box = Vec3(s.side, s.side, lz);
  DipoleSums r;
  if (p3m_accuracy > 0.0) {
    P3MSum sum;
    sum.build(p3m_system_of(d, choose_p3m_tuning(p3m_accuracy, d.box, n)));
    r = particle_terms(sum, n);
  } else {
    EwaldSum sum;
    sum.build(ewald_system_of(d, choose_ewald_splitting(1e-14, d.box, n)));
    r = particle_terms(sum, n);
  }
  DlcSystem dlc;
  dlc.position = s.position;
  dlc.moment = s.moment;
  dlc.box_length = d.box;
  dlc.accuracy = dlc_accuracy;
  r.energy += add_dlc_correction(dlc, r.force.data(), r.field.data());
  return with_torques(s.moment, std::move(r));
}

}  // namespace

TEST_CASE("dlc: the Ewald sum with the layer correction is the sum over the plane's images", "[dlc]") {
  // Five dipoles in a slab 4 mm thick under a 1 cm square cell, the 3-D box 1.0 and 0.3 cm higher than the slab.
  // The correction is large (the 3-D sum alone is 7 % off in energy with the larger gap, 46 % with the smaller);
  // with it the sums agree to the reference's own accuracy (measured 2e-9 energy, 1e-8 force, 2e-8 torque at 100
  // cells).
  const Slab s = random_slab(5, 1e-2, 3e-3, 4e-3, 1e-3, 3);
  const DipoleSums reference = direct_plane_sum(s, 100);
  for (const double gap : {1e-2, 3e-3}) {
    const DipoleSums r = corrected_sum(s, 4e-3 + gap + 1e-9, 0.0, 1e-12);
    INFO("gap " << gap << " m: energy " << r.energy << " J against " << reference.energy << " J");
    CHECK(r.energy == Approx(reference.energy).epsilon(1e-6));
    CHECK(rms_relative(r.force, reference.force) < 1e-6);
    CHECK(rms_relative(r.torque, reference.torque) < 1e-6);
  }
  // Without the correction the 3-D sum is off by several per cent (7 % here, the larger gap): the test can tell.
  EwaldSystem system;
  system.position = s.position;
  system.moment = s.moment;
  system.box_length = Vec3(1e-2, 1e-2, 1.4e-2 + 1e-9);
  system.split = choose_ewald_splitting(1e-14, system.box_length, 5);
  EwaldSum sum;
  sum.build(system);
  CHECK(std::abs(sum.add_particle_terms(nullptr, nullptr, ThreadTeam::serial()) / reference.energy - 1.0) > 0.03);
}

TEST_CASE("dlc: P3M with the layer correction, and the truncation bound", "[dlc]") {
  // 60 spheres of 1 mm in a 1 cm cell, a slab 3 mm thick (a few layers on a floor), the 3-D box twice as high. P3M at
  // its default accuracy: the RMS relative errors stay below the 1e-4.
  const Slab s = random_slab(60, 1e-2, 0.5e-3, 2e-3, 1e-3, 9);
  const DipoleSums reference = direct_plane_sum(s, 60);
  const double accuracy = MagneticParameters{}.p3m_accuracy;
  const DipoleSums r = corrected_sum(s, 6e-3, accuracy, layer_correction_accuracy(accuracy));
  INFO("force " << rms_relative(r.force, reference.force) << ", torque " << rms_relative(r.torque, reference.torque)
                << ", energy " << std::abs(r.energy / reference.energy - 1.0));
  CHECK(rms_relative(r.force, reference.force) < 1e-4);
  CHECK(rms_relative(r.torque, reference.torque) < 1e-4);
  CHECK(std::abs(r.energy / reference.energy - 1.0) < 3e-4);  // a sum of terms of both signs (test_p3m.cpp)
  // The bound: the modes dropped are `accuracy` times the first mode's size; the correction truncated at 1e-3
  // differs from a converged one by less than that fraction of the correction itself (measured 3e-5).
  DlcSystem dlc;
  dlc.position = s.position;
  dlc.moment = s.moment;
  dlc.box_length = Vec3(1e-2, 1e-2, 6e-3);
  std::vector<Vec3> coarse(60, Vec3::Zero()), fine(60, Vec3::Zero());
  dlc.accuracy = 1e-3;
  const size_t coarse_modes = [&] {
    LayerCorrection lc;
    lc.build(dlc);
    lc.add_particle_terms(coarse.data(), nullptr);
    return lc.mode_count();
  }();
  dlc.accuracy = 1e-14;
  add_dlc_correction(dlc, fine.data(), nullptr);
  INFO(coarse_modes << " modes at 1e-3; difference " << rms_relative(coarse, fine));
  CHECK(rms_relative(coarse, fine) < 1e-3);
  CHECK(dlc_mode_cutoff(dlc) > 0.0);
}

TEST_CASE("dlc: the engine sums slab boxes with the layer correction", "[dlc]") {
  Preset p = bare_preset();
  p.materials[0].magnetization = 8e5;
  p.box.min = Vec3::Zero();
  p.box.max = Vec3(1e-2, 1e-2, 5e-3);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = SideKind::Periodic;
  p.box.z_min = p.box.z_max = SideKind::Wall;
  p.particles.particles = {sphere(Vec3(2e-3, 3e-3, 1e-3), 5e-4), sphere(Vec3(5e-3, 6e-3, 2e-3), 5e-4),
                           sphere(Vec3(8e-3, 1e-3, 3.5e-3), 5e-4), sphere(Vec3(3e-3, 8e-3, 1.2e-3), 5e-4)};
  p.particles.particles[1].axis = Vec3(1, 0, 0);
  p.particles.particles[2].axis = Vec3(0, 1, 1).normalized();
  for (const DipoleMethod method : {DipoleMethod::Ewald, DipoleMethod::P3M}) {
    INFO((method == DipoleMethod::P3M ? "p3m" : "ewald"));
    p.magnetics.method = method;
    p.magnetics.ewald_accuracy = 1e-8;
    Simulation sim = simulation_of(p);
    const Model& model = sim.model();
    CHECK(ewald_box(model).z() == Approx(1e-2));
    const State state = dipole_pass(model, sim.state());
    Slab s;
    s.side = 1e-2;
    s.position = state.particles.position;
    s.moment = state.particles.moment;
    const DipoleSums reference = direct_plane_sum(s, 100);
    // Four particles: the P3M estimate is for many random ones, so the P3M bound here is loose.
    const double tolerance = method == DipoleMethod::P3M ? 1e-3 : 1e-6;
    CHECK(state.energy.dipole == Approx(reference.energy).epsilon(tolerance));
    CHECK(rms_relative(state.particles.force, reference.force) < tolerance);
    CHECK(rms_relative(state.particles.torque, reference.torque) < tolerance);
    // The field view adds the same correction: at a point between the particles it is the plane sum's field.
    const FieldEvaluator field = particle_field_view(model, state);
    const Vec3 x(5e-3, 5e-3, 4.2e-3);
    Vec3 b = Vec3::Zero();
    for (int ix = -100; ix <= 100; ++ix)
      for (int iy = -100; iy <= 100; ++iy) {
        if (ix * ix + iy * iy > 100 * 100) continue;
        for (size_t j = 0; j < s.position.size(); ++j)
          b += dipole_field(x - s.position[j] + Vec3(ix * 1e-2, iy * 1e-2, 0.0), s.moment[j]);
      }
    for (const Vec3& m : s.moment) b += mu0_over_4pi * 2.0 * pi / (1e-4 * 1.0) * Vec3(0.5 * m.x(), 0.5 * m.y(), -m.z());
    CHECK((field.at(x) - b).norm() < (method == DipoleMethod::P3M ? 1e-3 : 1e-6) * b.norm());
  }
  SECTION("vacuum surroundings are refused in a slab") {
    p.magnetics.method = DipoleMethod::Ewald;
    p.magnetics.ewald_surroundings = EwaldSurroundings::Vacuum;
    const PresetError e = session_refusal(p, "vacuum surroundings in a slab");
    CHECK(e.path() == "$.magnetics.ewald_surroundings");
    CHECK_THAT(e.message(), Catch::Contains("\"conducting\""));
  }
}
