// The dipolar Ewald sum (engine/magnetic/ewald.hpp; docs/physics.md, "Dipolar Ewald sum"): independence of the
// splitting parameter, forces and torques as derivatives of the energy, closed forms (a simple cubic lattice, a
// pair in a huge box), the vacuum sum against growing spheres of images, the error at the default accuracy,
// determinism, and the refusal of boxes that are not periodic along all three axes.

#include "engine/magnetic/dipole.hpp"
#include "engine/magnetic/ewald.hpp"
#include "engine/scene/document.hpp"
#include "tests/engine/dipole_scenes.hpp"

#include <cmath>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// The energy alone (no forces or fields): the finite differences call it many times.
double energy_of(const Dipoles& d, const EwaldSplitting& split, EwaldSurroundings s) {
  EwaldSum sum;
  sum.build(ewald_system_of(d, split, s));
  return sum.add_particle_terms(nullptr, nullptr, ThreadTeam::serial());
}

double max_norm(const std::vector<Vec3>& v) {
  double m = 0.0;
  for (const Vec3& x : v) m = std::max(m, x.norm());
  return m;
}

// A cutoff pair tight enough that both dropped parts are below double rounding for this alpha.
EwaldSplitting converged(double alpha) {
  return ewald_splitting_for_alpha(1e-16, alpha);
}

}  // namespace

TEST_CASE("ewald: the energy and forces do not depend on the splitting parameter", "[ewald]") {
  // 12 dipoles in a box that is not a cube, so that no symmetry hides a wrong term. With both cutoffs converged the
  // sum is exact; what differs between alphas is only rounding in sums whose terms are up to ~(alpha L)^3 / N times
  // larger than the result (the self term): 1e-10 leaves a wide margin over 1e-16 x 1e3.
  const Vec3 box = 1e-2 * Vec3(1.0, 1.2, 0.9);
  const Dipoles d = random_dipoles(12, box, 1.5e-3, 1e-3, 11);
  for (const EwaldSurroundings s : {EwaldSurroundings::Conducting, EwaldSurroundings::Vacuum}) {
    const DipoleSums reference = ewald_sums(d, converged(6.0 / box.x()), s);
    for (const double alpha_l : {3.0, 4.5, 9.0}) {
      INFO("alpha L = " << alpha_l << (s == EwaldSurroundings::Vacuum ? ", vacuum" : ", conducting"));
      const DipoleSums r = ewald_sums(d, converged(alpha_l / box.x()), s);
      CHECK(std::abs(r.energy - reference.energy) < 1e-10 * std::abs(reference.energy));
      CHECK(rms_relative(r.force, reference.force) < 1e-9);
      CHECK(rms_relative(r.torque, reference.torque) < 1e-9);
    }
  }
}

TEST_CASE("ewald: forces are minus the energy gradient and torques its derivative under rotation", "[ewald]") {
  const Vec3 box = 1e-2 * Vec3(1.0, 0.8, 1.1);
  const Dipoles d = random_dipoles(8, box, 1.5e-3, 1e-3, 5);
  const EwaldSplitting split = converged(5.0 / box.x());
  for (const EwaldSurroundings s : {EwaldSurroundings::Conducting, EwaldSurroundings::Vacuum}) {
    INFO((s == EwaldSurroundings::Vacuum ? "vacuum" : "conducting"));
    const DipoleSums r = ewald_sums(d, split, s);
    const double f_scale = max_norm(r.force), t_scale = max_norm(r.torque);
    // Central differences: truncation (h/L)^2 ~ 1e-10 of the scale, rounding 1e-16 |U| / h ~ 1e-9 of it.
    const double h = 1e-6 * box.x(), angle = 1e-6;
    for (size_t i = 0; i < d.position.size(); ++i)
      for (int a = 0; a < 3; ++a) {
        Dipoles plus = d, minus = d;
        plus.position[i][a] += h;
        minus.position[i][a] -= h;
        const double fd = -(energy_of(plus, split, s) - energy_of(minus, split, s)) / (2 * h);
        CHECK(std::abs(fd - r.force[i][a]) < 1e-6 * f_scale);
        // Turning m_i by a small angle about axis a changes U by -T_i.e_a x angle.
        const Vec3 axis = Vec3::Unit(a);
        plus = d;
        minus = d;
        plus.moment[i] = Eigen::AngleAxisd(angle, axis) * d.moment[i];
        minus.moment[i] = Eigen::AngleAxisd(-angle, axis) * d.moment[i];
        const double dt = -(energy_of(plus, split, s) - energy_of(minus, split, s)) / (2 * angle);
        CHECK(std::abs(dt - r.torque[i][a]) < 1e-6 * t_scale);
      }
  }
}

TEST_CASE("ewald: a simple cubic lattice of aligned dipoles has the Lorentz energy", "[ewald]") {
  // A simple cubic lattice (spacing a) of equal moments along z, summed over growing spheres, has zero energy:
  // each shell of lattice points sums x^2, y^2, z^2 alike, so sum (r^2 - 3 z^2) / r^5 = 0 shell by shell. Vacuum
  // surroundings are that spherical limit (de Leeuw, Perram & Smith 1980), so U_vacuum = 0; tin foil removes the
  // surface term: U / N = -2 pi c m^2 / (3 a^3) (the Lorentz field 4 pi c M / 3 acting on each moment).
  // One dipole per box, and a 2 x 2 x 2 supercell of it.
  const double a = 2e-3, m = 3e-4;
  for (const int cells : {1, 2}) {
    INFO(cells << " cells per side");
    const Dipoles d = aligned_cubic_lattice(cells, a, m, Vec3::Constant(0.3));
    const double n = static_cast<double>(d.position.size());
    const double lorentz = lorentz_energy_per_dipole(a, m);
    const EwaldSplitting split = choose_ewald_splitting(1e-12, d.box, d.position.size());
    const DipoleSums tin = ewald_sums(d, split, EwaldSurroundings::Conducting);
    const DipoleSums vacuum = ewald_sums(d, split, EwaldSurroundings::Vacuum);
    CHECK(tin.energy / n == Approx(lorentz).epsilon(1e-10));
    CHECK(std::abs(vacuum.energy) < 1e-10 * std::abs(tin.energy));
    // By symmetry no force and no torque; the field at each site is the Lorentz field.
    CHECK(max_norm(tin.force) < 1e-10 * 6 * mu0_over_4pi * m * m / std::pow(a, 4));
    for (const Vec3& b : tin.field)
      CHECK((b - lorentz_field(a, m)).norm() < 1e-9 * mu0_over_4pi * m / std::pow(a, 3));  // 2e-10 relative
  }
}

TEST_CASE("ewald: vacuum surroundings are the limit of growing spheres of images", "[ewald]") {
  // Three dipoles at general positions: the bare pair sum over the cells n with |n| <= R (the central cell's
  // energy with all images in the sphere) against the Ewald sum with the vacuum surface term. The spherical sum
  // converges as the sphere's surface is smoothed out: measured relative differences 7e-5, 4e-6, 3e-7, 2.5e-8 at
  // R = 10, 20, 40, 60. The check asks R = 40 to be nearer than R = 20 was, and within 1e-5.
  const Vec3 box = Vec3::Constant(5e-3);
  const Dipoles d = random_dipoles(3, box, 1e-3, 1e-4, 3);
  const double ewald_energy = energy_of(d, converged(6.0 / box.x()), EwaldSurroundings::Vacuum);
  auto sphere_sum = [&](int radius) {
    double u = 0.0;
    for (int nx = -radius; nx <= radius; ++nx)
      for (int ny = -radius; ny <= radius; ++ny)
        for (int nz = -radius; nz <= radius; ++nz) {
          if (nx * nx + ny * ny + nz * nz > radius * radius) continue;
          const Vec3 shift = box.cwiseProduct(Vec3(nx, ny, nz));
          for (size_t i = 0; i < d.position.size(); ++i)
            for (size_t j = 0; j < d.position.size(); ++j) {
              if (i == j && nx == 0 && ny == 0 && nz == 0) continue;
              const Vec3 r = d.position[i] - d.position[j] + shift;
              u += 0.5 * dipole_pair(r, d.moment[i], d.moment[j], 0.0).energy;
            }
        }
    return u;
  };
  const double half = sphere_sum(20), full = sphere_sum(40);
  INFO("Ewald " << ewald_energy << " J, sphere R=20 " << half << " J, R=40 " << full << " J");
  CHECK(std::abs(full - ewald_energy) < std::abs(half - ewald_energy));
  CHECK(std::abs(full - ewald_energy) < 1e-5 * std::abs(ewald_energy));
}

TEST_CASE("ewald: a pair in a huge box has the bare pair energy", "[ewald]") {
  // Head to tail at distance r: U = -2 c m^2 / r^3. The images add terms of relative size (r/L)^3 = 1e-6.
  const double r = 1e-3, m = 2e-4;
  Dipoles d;
  d.box = Vec3::Constant(100 * r);
  d.position = {Vec3::Constant(50 * r), Vec3(50 * r, 50 * r, 51 * r)};
  d.moment = {Vec3(0, 0, m), Vec3(0, 0, m)};
  const DipoleSums e = ewald_sums(d, choose_ewald_splitting(1e-10, d.box, 2));
  const double bare = -2.0 * mu0_over_4pi * m * m / (r * r * r);
  CHECK(e.energy == Approx(bare).epsilon(1e-5));
  // The force on the lower one points up: 6 c m^2 / r^4.
  CHECK(e.force[0].z() == Approx(6.0 * mu0_over_4pi * m * m / std::pow(r, 4)).epsilon(1e-5));
}

TEST_CASE("ewald: RMS force and torque errors at the default accuracy", "[ewald]") {
  // 200 spheres of diameter 1 mm (volume fraction 0.1) against a run with every dropped term below rounding.
  // The accuracy bounds the dropped terms relative to one pair's strongest term; the forces are dominated by near
  // neighbours, so the RMS error is far below it. The issue asks < 1e-4 at the default.
  const double d_sphere = 1e-3;
  const double side = std::cbrt(200 * sphere_volume(0.5 * d_sphere) / 0.1);
  const Dipoles d = random_dipoles(200, Vec3::Constant(side), d_sphere, 1e-4, 17);
  const double accuracy = MagneticParameters{}.ewald_accuracy;
  const EwaldSplitting split = choose_ewald_splitting(accuracy, d.box, 200);
  const DipoleSums r = ewald_sums(d, split);
  const DipoleSums tight = ewald_sums(d, converged(split.alpha * 1.3));
  const double force_error = rms_relative(r.force, tight.force);
  const double torque_error = rms_relative(r.torque, tight.torque);
  INFO("alpha L " << split.alpha * side << ", rc/L " << split.real_cutoff / side << ", kc L/2pi "
                  << split.k_cutoff * side / (2 * pi) << ": force " << force_error << ", torque " << torque_error
                  << ", energy " << std::abs(r.energy / tight.energy - 1));
  CHECK(force_error < 1e-4);
  CHECK(torque_error < 1e-4);
  CHECK(std::abs(r.energy / tight.energy - 1) < 1e-4);
}

TEST_CASE("ewald: total force vanishes and results repeat bit for bit on any number of threads", "[ewald]") {
  const Vec3 box = Vec3::Constant(8e-3);
  const Dipoles d = random_dipoles(150, box, 1e-3, 1e-4, 23);
  const EwaldSplitting split = choose_ewald_splitting(1e-5, box, 150);
  const DipoleSums one = ewald_sums(d, split, EwaldSurroundings::Vacuum);
  const DipoleSums again = ewald_sums(d, split, EwaldSurroundings::Vacuum);
  ThreadTeam team(3);
  const DipoleSums three = ewald_sums(d, split, EwaldSurroundings::Vacuum, team);
  const ForceBalance balance = force_balance(one.force);
  // Newton's third law holds term by term in the real-space part (each pair is met from both ends with opposite
  // separations) and in the k part (sum_i of the i-th force is Im(S* S) = 0): only rounding remains.
  CHECK(balance.total.norm() < 1e-12 * balance.sum_norm);
  for (const DipoleSums* other : {&again, &three}) {
    CHECK(other->energy == one.energy);
    for (size_t i = 0; i < d.position.size(); ++i) {
      CHECK(other->force[i] == one.force[i]);
      CHECK(other->field[i] == one.field[i]);
    }
  }
}

TEST_CASE("ewald: the field at a point is the field the particles feel", "[ewald]") {
  const Vec3 box = 1e-2 * Vec3(1.0, 1.1, 0.9);
  const Dipoles d = random_dipoles(10, box, 1.5e-3, 1e-3, 29);
  EwaldSum sum;
  sum.build(ewald_system_of(d, choose_ewald_splitting(1e-8, box, 10), EwaldSurroundings::Vacuum));
  std::vector<Vec3> field(d.position.size(), Vec3::Zero());
  sum.add_particle_terms(nullptr, field.data(), ThreadTeam::serial());
  check_field_at(sum, d, field);
}

TEST_CASE("ewald: the engine's dipole pass, and boxes not periodic along x, y and z refused by name", "[ewald]") {
  Preset p = three_magnets(DipoleMethod::Ewald);
  SECTION("open and partly periodic boxes are refused") {
    check_refuses_boxes_not_periodic_along_xyz(
        p, Catch::Contains("periodic along x, y and z") && Catch::Contains("\"direct\""));
  }
  make_periodic_along_xyz(p);
  SECTION("a periodic box runs the Ewald sum with the automatic cutoffs") {
    Simulation sim = simulation_of(p);
    const Model& model = sim.model();
    CHECK(model.ewald.alpha > 0.0);
    CHECK(model.ewald.real_cutoff > 0.0);
    CHECK(model.ewald.k_cutoff > 0.0);
    const State state = dipole_pass(model, sim.state());
    const Dipoles d = dipoles_of(state, model.periodic_length);
    check_same_bits(state, ewald_sums(d, model.ewald));
    // The field view sums the same way: outside the spheres, FieldEvaluator is EwaldSum::field_at.
    EwaldSum sum;
    sum.build(ewald_system_of(d, model.ewald));
    check_field_view_is(sum, model, state);
  }
  SECTION("preset text: method, accuracy and surroundings") {
    const Preset q = parse_preset(
        R"({"version": 1, "magnetics": {"method": "ewald", "ewald_accuracy": 1e-7, "ewald_surroundings": "vacuum"}})");
    CHECK(q.magnetics.method == DipoleMethod::Ewald);
    CHECK(q.magnetics.ewald_accuracy == 1e-7);
    CHECK(q.magnetics.ewald_surroundings == EwaldSurroundings::Vacuum);
    CHECK_THROWS_AS(parse_preset(R"({"version": 1, "magnetics": {"ewald_accuracy": 0}})"), PresetError);
  }
}
