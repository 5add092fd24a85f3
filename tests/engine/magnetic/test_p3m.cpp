// Dipolar P3M (engine/magnetic/p3m.hpp; docs/physics.md, "Dipolar P3M"): forces, torques and energy against the
// converged Ewald sum (engine/magnetic/ewald.hpp) at the default accuracy for several sizes and densities, the
// a-priori error estimate against the measured error, the Lorentz energy of a simple cubic lattice, the total
// force, determinism across thread counts, and the engine's pass, field view and refusals.

#include "engine/magnetic/dlc.hpp"
#include "engine/magnetic/ewald.hpp"
#include "engine/magnetic/p3m.hpp"
#include "engine/magnetic/periodic_systems.hpp"
#include "engine/scene/document.hpp"
#include "tests/engine/dipole_scenes.hpp"

#include <cmath>
#include <cstdint>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// The reference: the Ewald sum with every dropped term below double rounding.
DipoleSums ewald_reference(const Dipoles& d, EwaldSurroundings s = EwaldSurroundings::Conducting) {
  return ewald_sums(d, choose_ewald_splitting(1e-13, d.box, d.position.size()), s);
}

double rms_difference(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]).squaredNorm();
  return std::sqrt(s / static_cast<double>(a.size()));
}

}  // namespace

TEST_CASE("p3m: forces, torques and energy against the Ewald sum at the default accuracy", "[p3m]") {
  // Spheres of 1 mm at volume fractions 0.03 (dilute), 0.1 and 0.3 (random placement), 300 and 1000 of them, one box
  // not a cube, one case in vacuum surroundings, and 500 on a jittered face-centred cubic lattice at 0.55 (a dense
  // packing, where P3M is cheapest against the cutoff pass: docs/performance.md). The default accuracy bounds the
  // estimated RMS force error by 5e-4 F0; typical forces are 10 to 100 F0 (nearest neighbours are closer than the mean
  // spacing), so the relative error is expected near 5e-5 or below; the issue asks < 1e-4. The energy is a sum of pair
  // terms of both signs that largely cancel (more so when dense), so its relative error is larger: measured 8e-6
  // to 1.5e-4; checked < 3e-4.
  //
  // The a-priori estimate (the real-space and mesh formulas of the header) is an RMS over random positions and
  // orientations. Measured against it: 0.9 to 1.0 on these scenes. Both parts are averages of many terms (a few
  // hundred pairs near the cutoff per particle, the mesh's aliasing terms), so the RMS of N >= 300 particles
  // scatters by a few per cent; the approximations behind the formulas (uncorrelated particles, the sampled k sum
  // of the mesh part) are good to tens of per cent. The check asks the ratio to lie in [0.5, 2]: an error in a
  // formula (a missing factor 2 or 3, a wrong power) falls outside.
  const double d_sphere = 1e-3, m0 = 1e-4;
  const double accuracy = MagneticParameters{}.p3m_accuracy;
  struct Case {
    size_t n;
    double fraction;
    Vec3 shape;
    EwaldSurroundings surroundings;
    bool lattice = false;
  };
  const Case cases[] = {
      {300, 0.1, Vec3(1, 1, 1), EwaldSurroundings::Conducting},
      {300, 0.03, Vec3(1, 1, 1), EwaldSurroundings::Conducting},
      {300, 0.3, Vec3(1, 1, 1), EwaldSurroundings::Conducting},
      {1000, 0.1, Vec3(1, 1, 1), EwaldSurroundings::Conducting},
      {1000, 0.3, Vec3(1.0, 0.8, 1.25), EwaldSurroundings::Conducting},
      {300, 0.1, Vec3(1, 1, 1), EwaldSurroundings::Vacuum},
      {500, 0.55, Vec3(1, 1, 1), EwaldSurroundings::Conducting, true},
  };
  std::uint64_t seed = 41;
  for (const Case& c : cases) {
    const double volume = static_cast<double>(c.n) * sphere_volume(0.5 * d_sphere) / c.fraction;
    const Vec3 box = c.lattice ? Vec3::Constant(std::cbrt(volume))
                               : Vec3(std::cbrt(volume / (c.shape.x() * c.shape.y() * c.shape.z())) * c.shape);
    const Dipoles d = c.lattice ? jittered_fcc_dipoles(static_cast<int>(std::lround(std::cbrt(c.n / 4.0))), d_sphere,
                                                       c.fraction, m0, seed++)
                                : random_dipoles(c.n, box, d_sphere, m0, seed++);
    const P3MTuning tuning = choose_p3m_tuning(accuracy, box, c.n);
    const DipoleSums r = p3m_sums(d, tuning, c.surroundings);
    const DipoleSums reference = ewald_reference(d, c.surroundings);
    const double force_error = rms_relative(r.force, reference.force);
    const double torque_error = rms_relative(r.torque, reference.torque);
    const double energy_error = std::abs(r.energy / reference.energy - 1.0);
    const P3MErrorEstimate estimate = p3m_error_estimate(tuning, box, c.n, d.sum_m2());
    const double ratio = rms_difference(r.force, reference.force) / estimate.total();
    INFO("N " << c.n << ", fraction " << c.fraction << ", box " << box.transpose() / d_sphere << " d"
              << (c.surroundings == EwaldSurroundings::Vacuum ? ", vacuum" : "") << ": mesh " << tuning.mesh[0] << "x"
              << tuning.mesh[1] << "x" << tuning.mesh[2] << ", order " << tuning.order << ", alpha d "
              << tuning.alpha * d_sphere << ", rc/d " << tuning.real_cutoff / d_sphere << "; force " << force_error
              << ", torque " << torque_error << ", energy " << energy_error << ", measured/estimated " << ratio);
    CHECK(tuning.estimated_error <= accuracy * 1.0001);
    CHECK(force_error < 1e-4);
    CHECK(torque_error < 1e-4);
    CHECK(energy_error < 3e-4);
    CHECK(ratio > 0.5);
    CHECK(ratio < 2.0);
  }
}

TEST_CASE("p3m: the error estimate follows the measured error as the accuracy changes", "[p3m]") {
  // Tighter accuracies pick other meshes, orders and cutoffs; the estimate must follow the measured error over two
  // decades, and the measured error must fall with it.
  const double d_sphere = 1e-3;
  const double side = std::cbrt(400 * sphere_volume(0.5 * d_sphere) / 0.1);
  const Dipoles d = random_dipoles(400, Vec3::Constant(side), d_sphere, 1e-4, 7);
  const DipoleSums reference = ewald_reference(d);
  double previous = INFINITY;
  for (const double accuracy : {1e-2, 1e-3, 1e-4}) {
    const P3MTuning tuning = choose_p3m_tuning(accuracy, d.box, 400);
    const DipoleSums r = p3m_sums(d, tuning);
    const double measured = rms_difference(r.force, reference.force);
    const double ratio = measured / p3m_error_estimate(tuning, d.box, 400, d.sum_m2()).total();
    INFO("accuracy " << accuracy << ": mesh " << tuning.mesh[0] << ", order " << tuning.order << ", rc/d "
                     << tuning.real_cutoff / d_sphere << ", relative force error "
                     << rms_relative(r.force, reference.force) << ", measured/estimated " << ratio);
    CHECK(ratio > 0.5);
    CHECK(ratio < 2.0);
    CHECK(measured < previous);
    previous = measured;
  }
}

TEST_CASE("p3m: a simple cubic lattice of aligned dipoles has the Lorentz energy", "[p3m]") {
  // The closed form of the Ewald test: U/N = -2 pi c m^2 / (3 a^3) with tin foil, 0 in vacuum (a sphere of boxes);
  // the field at every site is the Lorentz field 4 pi c m / (3 a^3) along the moments. 5^3 sites, shifted off the
  // mesh so that the assignment is not at its most symmetric. The energy holds the mesh self-energy correction
  // (CBLH Sec. IV): without it the mean mesh self-interaction of every site would stay in U.
  const double a = 2e-3, m = 3e-4;
  const int cells = 5;
  const Dipoles d = aligned_cubic_lattice(cells, a, m, Vec3(0.31, 0.27, 0.35));
  const double n = static_cast<double>(d.position.size());
  const double lorentz = lorentz_energy_per_dipole(a, m);
  const P3MTuning tuning = choose_p3m_tuning(1e-5, d.box, d.position.size());
  const DipoleSums tin = p3m_sums(d, tuning, EwaldSurroundings::Conducting);
  const DipoleSums vacuum = p3m_sums(d, tuning, EwaldSurroundings::Vacuum);
  INFO("mesh " << tuning.mesh[0] << ", order " << tuning.order << ": U/N " << tin.energy / n << " J against " << lorentz
               << " J; vacuum " << vacuum.energy / n << " J");
  CHECK(tin.energy / n == Approx(lorentz).epsilon(1e-5));
  CHECK(std::abs(vacuum.energy) < 1e-5 * std::abs(tin.energy));
  const Vec3 field = lorentz_field(a, m);
  for (const Vec3& b : tin.field) CHECK((b - field).norm() < 1e-5 * field.norm());
}

// Also under the thread sanitizer (threading_tests): the mesh arrays each thread recycles between passes.
TEST_CASE("p3m: total force vanishes, results repeat bit for bit, and thread counts agree", "[p3m][threading]") {
  // The real-space part meets each pair from both ends with opposite separations; the mesh part's total force is
  // sum_k i D_a G_F |D.M^|^2, odd in k (D odd, G_F even, the Nyquist slots' D set to 0): only rounding remains.
  const double d_sphere = 1e-3;
  const double side = std::cbrt(600 * sphere_volume(0.5 * d_sphere) / 0.2);
  const Dipoles d = random_dipoles(600, Vec3::Constant(side), d_sphere, 1e-4, 23);
  const P3MTuning tuning = choose_p3m_tuning(1e-3, d.box, 600);
  const DipoleSums one = p3m_sums(d, tuning, EwaldSurroundings::Vacuum);
  const DipoleSums again = p3m_sums(d, tuning, EwaldSurroundings::Vacuum);
  ThreadTeam team(3);
  const DipoleSums three = p3m_sums(d, tuning, EwaldSurroundings::Vacuum, team);
  const ForceBalance balance = force_balance(one.force);
  CHECK(balance.total.norm() < 1e-12 * balance.sum_norm);
  // The same thread count: the same bits. Three threads split the real-space pairs into three parts whose sums
  // are added in another grouping: round-off only (1e-12 of each vector, far above 1e-16 x a few hundred terms).
  CHECK(again.energy == one.energy);
  for (size_t i = 0; i < d.position.size(); ++i) {
    CHECK(again.force[i] == one.force[i]);
    CHECK(again.field[i] == one.field[i]);
  }
  const DipoleSums three_again = p3m_sums(d, tuning, EwaldSurroundings::Vacuum, team);
  CHECK(three_again.energy == three.energy);
  CHECK(std::abs(three.energy - one.energy) < 1e-12 * std::abs(one.energy));
  for (size_t i = 0; i < d.position.size(); ++i) {
    CHECK(three_again.force[i] == three.force[i]);
    CHECK((three.force[i] - one.force[i]).norm() < 1e-12 * one.force[i].norm());
    CHECK((three.field[i] - one.field[i]).norm() < 1e-12 * one.field[i].norm());
  }
  // The mesh part is split between the threads by blocks of x planes and by FFTs, each adding its terms in a fixed
  // order: the field at a free point (mesh values plus the point's own real-space walk) is the same bits.
  // A mesh of three blocks of planes (mesh / 2 order of them; the tuner's 18^3 at order 5 makes one).
  P3MTuning blocked = tuning;
  for (int a = 0; a < 3; ++a) blocked.mesh[a] = 6 * tuning.order;
  P3MSum serial_sum, team_sum;
  serial_sum.build(p3m_system_of(d, blocked, EwaldSurroundings::Vacuum));
  team_sum.build(p3m_system_of(d, blocked, EwaldSurroundings::Vacuum), &team);
  for (const Vec3& u : {Vec3(0.1, 0.2, 0.3), Vec3(0.55, 0.9, 0.05), Vec3(0.97, 0.4, 0.66)}) {
    const Vec3 x = u.cwiseProduct(d.box);
    CHECK(team_sum.field_at(x) == serial_sum.field_at(x));
  }
}

TEST_CASE("p3m: the field at a point is the field the particles feel", "[p3m]") {
  const Vec3 box = 1e-2 * Vec3(1.0, 1.1, 0.9);
  const Dipoles d = random_dipoles(40, box, 1.5e-3, 1e-3, 29);
  P3MSum sum;
  sum.build(p3m_system_of(d, choose_p3m_tuning(1e-4, box, d.position.size()), EwaldSurroundings::Vacuum));
  std::vector<Vec3> field(d.position.size(), Vec3::Zero());
  sum.add_particle_terms(nullptr, field.data(), ThreadTeam::serial());
  const DipoleSums reference = ewald_reference(d, EwaldSurroundings::Vacuum);
  check_field_at(sum, d, field);
  CHECK(rms_relative(field, reference.field) < 1e-4);
}

TEST_CASE("p3m: the engine's dipole pass, field view and refusals", "[p3m]") {
  Preset p = three_magnets(DipoleMethod::P3M);
  SECTION("open and partly periodic boxes are refused by name") {
    check_refuses_boxes_not_periodic_along_xyz(p, Catch::Contains("\"p3m\" needs a box periodic along x, y and z"));
  }
  make_periodic_along_xyz(p);
  SECTION("a cap or an activity distance is refused by name") {
    Preset q = p;
    q.magnetics.dipole_cap = 1e-4;
    CHECK_THROWS_WITH(Session(q), Catch::Contains("\"p3m\""));
    q = p;
    q.magnetics.activity_distance = 0.0;
    CHECK_THROWS_WITH(Session(q), Catch::Contains("\"p3m\""));
  }
  SECTION("a periodic box runs P3M with the tuned parameters") {
    Simulation sim = simulation_of(p);
    const Model& model = sim.model();
    CHECK(model.p3m.order >= 2);
    CHECK(model.p3m.mesh[0] >= 8);
    CHECK(model.p3m.alpha > 0.0);
    CHECK(model.p3m.real_cutoff > 0.0);
    CHECK(model.p3m.estimated_error <= model.magnetics.p3m_accuracy * 1.0001);
    const State state = dipole_pass(model, sim.state());
    const Dipoles d = dipoles_of(state, model.periodic_length);
    const DipoleSums r = p3m_sums(d, model.p3m);
    check_same_bits(state, r);
    // Three spheres against the converged Ewald sum (the estimate is for many random dipoles; here just close).
    const DipoleSums reference = ewald_reference(d);
    CHECK(rms_relative(r.force, reference.force) < 1e-3);
    // The field view sums the same way: outside the spheres, FieldEvaluator is P3MSum::field_at.
    P3MSum sum;
    sum.build(p3m_system_of(d, model.p3m));
    check_field_view_is(sum, model, state);
  }
  SECTION("preset text: method and accuracy") {
    const Preset q = parse_preset(R"({"version": 1, "magnetics": {"method": "p3m", "p3m_accuracy": 1e-4}})");
    CHECK(q.magnetics.method == DipoleMethod::P3M);
    CHECK(q.magnetics.p3m_accuracy == 1e-4);
    CHECK_THROWS_AS(parse_preset(R"({"version": 1, "magnetics": {"p3m_accuracy": 0}})"), PresetError);
  }
}

TEST_CASE("p3m: real-space pairs from the Verlet list give the cell walk's sum as the particles move", "[p3m]") {
  // 600 magnetized spheres of 1 mm moving in a periodic box (fully periodic; and 1000 in a slab with walls along z)
  // large enough that the real-space cutoff plus the skin is within half of every period: the engine's pass takes the
  // real-space pairs from the dipole Verlet list. After 300 steps of motion (the list rebuilt along the way and
  // used between rebuilds) the pass must equal the P3M sum with the same tuning whose real-space pairs come from
  // its own cell walk over all images, to round-off (the same terms, added in another order): a pair missing from
  // the list, or taken at the wrong image, would be off by far more.
  for (const bool slab : {false, true}) {
    INFO((slab ? "slab" : "fully periodic"));
    Preset p = parse_preset(R"({"version": 1,
      "materials": [{"name": "magnet", "magnetization": "5e4 A/m"}],
      "magnetics": {"method": "p3m"},
      "box": {"min": [0, 0, 0], "max": ["16 mm", "16 mm", "16 mm"],
              "x_min": "periodic", "x_max": "periodic", "y_min": "periodic", "y_max": "periodic",
              "z_min": "periodic", "z_max": "periodic"},
      "particles": {"kind": "random", "count": 600, "seed": 5, "diameter": "1 mm", "orientation": "random",
                    "velocity_spread": "0.5 m/s"},
      "integrator": {"time_step": "2 us"}})");
    if (slab) {  // the sums run in a box twice the height, so more particles keep the cutoff short enough
      p.box.z_min = p.box.z_max = SideKind::Wall;
      p.box.max = Vec3(20e-3, 20e-3, 10e-3);
      p.particles.count = 1000;
    }
    Simulation sim = simulation_of(p);
    const Model& model = sim.model();
    INFO("real-space cutoff " << model.p3m.real_cutoff << " m, skin " << model.skin << " m");
    REQUIRE(p3m_pairs_from_list(model));
    run_checked(sim, 100);
    CHECK(sim.state().neighbors.builds >= 3);  // the particles moved: the list was rebuilt and reused
    const State listed = dipole_pass(model, sim.state());
    const Dipoles d = dipoles_of(listed, ewald_box(model));
    P3MSum walk;
    walk.build(p3m_system_of(d, model.p3m));
    DipoleSums r = with_torques(d.moment, particle_terms(walk, d.position.size()));
    if (slab) {  // the layer correction, added by the pass in a slab
      std::vector<Vec3> force(d.position.size(), Vec3::Zero()), field(d.position.size(), Vec3::Zero());
      r.energy += add_dlc_correction(layer_correction_system_of(model, listed.particles), force.data(), field.data());
      for (size_t i = 0; i < force.size(); ++i) {
        r.force[i] += force[i];
        r.torque[i] += d.moment[i].cross(field[i]);
      }
    }
    CHECK(rms_relative(listed.particles.force, r.force) < 1e-12);
    CHECK(rms_relative(listed.particles.torque, r.torque) < 1e-12);
    CHECK(listed.energy.dipole == Approx(r.energy).epsilon(1e-12));
  }
}
