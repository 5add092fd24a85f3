// Beam bonds (engine/bodies/bonds.hpp, [Voxel-beams]): rigid-body motion gives no force and no damping, a bonded
// cantilever deflects and vibrates as beam theory says, bonds break beyond their strength, presets
// create them, and checkpoints keep them.

#include "engine/bodies/bonds.hpp"
#include "engine/scene/checkpoint.hpp"
#include "engine/scene/document.hpp"
#include "tests/engine/test_support.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

constexpr double kBondedBeadRadius = 1e-3;  // [m] bead radius
constexpr double kSpacing = 2.1e-3;         // [m] bead centres: a small gap, so no contact force interferes
constexpr double kE = 1e7;                  // [Pa] bond Young's modulus
constexpr double kDensity = 1000.0;         // [kg/m^3]

double bead_mass() {
  return kDensity * sphere_volume(kBondedBeadRadius);
}
double bond_ei() {
  return kE * 0.25 * pi * std::pow(kBondedBeadRadius, 4);
}  // bond radius = bead radius

// A straight chain of beads along x, bonded to its touching neighbours; bead 0 is a clamp (density
// 1e15 x larger: the reaction force and moment of the load move it by nothing measurable), the last
// bead carries a moment m_z that a field gradient dB_z/dz = g pulls with F_z = m_z g (engine/magnetic/field.cpp),
// the end load. The field B = G (x - x_tip) vanishes at the tip, so the field torque m x B is of second
// order in the deflection.
Preset cantilever(int beads, double end_load) {
  Preset p = bare_preset();
  Material bead = p.materials[0];
  bead.name = "bead";
  bead.density = kDensity;
  Material clamp = bead;
  clamp.name = "clamp";
  clamp.density = 1e15 * kDensity;
  Material tip = bead;
  tip.name = "tip";
  const double moment = 1e-3;  // [A m^2]
  tip.magnetization = moment / sphere_volume(kBondedBeadRadius);
  p.materials = {bead, clamp, tip};
  for (int k = 0; k < beads; ++k) {
    ParticleEntry e = sphere(Vec3(k * kSpacing, 0.0, 0.0), kBondedBeadRadius);
    e.material = k == 0 ? "clamp" : k == beads - 1 ? "tip" : "bead";
    p.particles.particles.push_back(e);
  }
  p.bonds.create = BondCreation::Touching;
  p.bonds.touch_tolerance = 0.1;  // 2.1 mm <= 2.2 mm: neighbours only
  p.bonds.youngs_modulus = kE;
  p.bonds.damping_ratio = 1.0;
  const double g = end_load / moment;  // [T/m]
  p.field.gradient = Vec3(-0.5 * g, -0.5 * g, g).asDiagonal();
  p.field.gradient_origin = Vec3((beads - 1) * kSpacing, 0.0, 0.0);
  return p;
}

// First angular frequency of the bead chain itself: Hermite cubic beam elements between the beads
// (exactly the bond's stiffness for small rotations), the beads' masses and rotational inertias lumped at
// the nodes, node 0 clamped. Planar bending: per free node a deflection w and a rotation theta.
double chain_first_omega(int beads) {
  const int n = beads - 1;  // free nodes
  const double h = kSpacing, ei = bond_ei();
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(2 * n, 2 * n), M = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  Eigen::Matrix4d ke;
  ke << 12, 6 * h, -12, 6 * h, 6 * h, 4 * h * h, -6 * h, 2 * h * h, -12, -6 * h, 12, -6 * h, 6 * h, 2 * h * h, -6 * h,
      4 * h * h;
  ke *= ei / (h * h * h);
  for (int e = 0; e < n; ++e) {  // element between node e and e + 1; node 0 is the clamp (dofs dropped)
    const int dofs[4] = {2 * (e - 1), 2 * (e - 1) + 1, 2 * e, 2 * e + 1};
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c)
        if (dofs[r] >= 0 && dofs[c] >= 0) K(dofs[r], dofs[c]) += ke(r, c);
  }
  for (int k = 0; k < n; ++k) {
    M(2 * k, 2 * k) = bead_mass();
    M(2 * k + 1, 2 * k + 1) = 0.4 * bead_mass() * kBondedBeadRadius * kBondedBeadRadius;
  }
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> solver(K, M);
  return std::sqrt(solver.eigenvalues().minCoeff());
}

double max_force(const Session& session) {
  double f = 0.0;
  for (const Vec3& v : session.state().particles.force) f = std::max(f, v.norm());
  return f;
}
double max_torque(const Session& session) {
  double t = 0.0;
  for (const Vec3& v : session.state().particles.torque) t = std::max(t, v.norm());
  return t;
}

// Three beads in an L (so that bending, shear and torsion all take part), bonded in a chain.
Preset bonded_l() {
  Preset p = bare_preset();
  p.materials[0].density = kDensity;
  p.particles.particles = {sphere(Vec3(0, 0, 0), kBondedBeadRadius), sphere(Vec3(kSpacing, 0, 0), kBondedBeadRadius),
                           sphere(Vec3(kSpacing, kSpacing, 0), kBondedBeadRadius)};
  p.bonds.create = BondCreation::List;
  p.bonds.list = {{0, 1}, {1, 2}};
  p.bonds.youngs_modulus = kE;
  p.bonds.damping_ratio = 1.0;
  return p;
}

}  // namespace

TEST_CASE("bonds: a rigid rotation and translation of bonded particles gives no bond force and no damping", "[bonds]") {
  Session session(bonded_l());
  REQUIRE(session.state().bonds.size() == 2);
  const double k_axial = kE * pi * kBondedBeadRadius * kBondedBeadRadius / kSpacing;
  const double force_scale = k_axial * kSpacing;  // the force of a strain of 1

  // Move the whole body: a finite rotation about an oblique axis and a translation, then give every bead
  // the velocity field of a rigid motion (v = V + Omega x (x - c), omega = Omega).
  const Quat turn(Eigen::AngleAxisd(1.1, Vec3(0.3, -0.5, 0.8).normalized()));
  const Vec3 shift(0.004, -0.002, 0.001), velocity(0.3, -0.2, 0.1), spin(40.0, -25.0, 60.0);
  State& s = session.edit_state();
  const Vec3 centre = Vec3(kSpacing, 0.5 * kSpacing, 0.0);
  for (size_t i = 0; i < s.particles.size(); ++i) {
    const Vec3 x = centre + turn * (s.particles.position[i] - centre) + shift;
    s.particles.position[i] = x;
    s.particles.orientation[i] = turn * s.particles.orientation[i];
    s.particles.velocity[i] = velocity + spin.cross(x - (centre + shift));
    s.particles.angular_velocity[i] = spin;
  }
  session.reinitialize();  // recomputes the forces at this configuration
  INFO("largest force " << max_force(session) << " N against " << force_scale << " N for unit strain");
  CHECK(max_force(session) < 1e-10 * force_scale);
  CHECK(max_torque(session) < 1e-10 * force_scale * kSpacing);
  CHECK(session.state().energy.elastic < 1e-20);
  for (const Bond& b : session.state().bonds) {
    CHECK(b.damping_force.norm() < 1e-12 * force_scale);
    CHECK(b.damping_couple.norm() < 1e-12 * force_scale * kSpacing);
  }

  // A steady translation for many steps: nothing changes, nothing is dissipated.
  Session moving(bonded_l());
  for (size_t i = 0; i < 3; ++i) moving.edit_state().particles.velocity[i] = velocity;
  moving.reinitialize();
  run_checked(moving, 2000);
  CHECK(max_force(moving) < 1e-10 * force_scale);
  CHECK(moving.state().energy.dissipated_dashpot == Approx(0.0).margin(1e-18));
}

TEST_CASE("bonds: a bonded cantilever under an end load deflects as Euler-Bernoulli beam theory says", "[bonds]") {
  // 11 beads, 10 bonds, L = 10 h = 21 mm, EI = E pi r^4 / 4. An end load P gives delta = P L^3 / (3 EI).
  // Why the chain can meet this closely: the bond is the cubic (Hermite) beam element, and for loads at
  // the nodes a chain of such elements has the exact Euler-Bernoulli deflection at the nodes, whatever the
  // number of beads. What is left: the geometric nonlinearity (delta / L = 1e-3 here, an error of order
  // (delta / L)^2), the field torque on the tilted tip (of the same order), the axial stretch (none: the
  // load is transverse) and the settling (damped for 30 ms, 15 times the slowest time constant 1/omega_1).
  // 0.5 % is therefore a generous tolerance.
  const int beads = 11;
  const double length = (beads - 1) * kSpacing;
  const double delta_theory = 1e-3 * length;
  const double load = 3.0 * bond_ei() * delta_theory / (length * length * length);
  Preset p = cantilever(beads, load);
  // Global damping near critical for the first mode settles it; bond damping takes the higher ones.
  const double omega1 = chain_first_omega(beads);
  p.environment.translational_damping = 2.0 * bead_mass() * omega1;
  p.environment.rotational_damping = p.environment.translational_damping;
  Session session(p);
  REQUIRE(session.state().bonds.size() == static_cast<size_t>(beads - 1));
  CHECK(session.model().advice.limited_by == "bond stiffness");
  const auto steps = static_cast<std::int64_t>(0.03 / session.model().time_step);
  run_checked(session, steps);
  const double delta = session.state().particles.position.back().z();
  WARN("cantilever: tip deflection " << delta << " m, P L^3 / (3 EI) = " << delta_theory << " m, ratio "
                                     << delta / delta_theory);
  CHECK(delta == Approx(delta_theory).epsilon(0.005));
  // The tip slope of beam theory, P L^2 / (2 EI) = 1.5 delta / L: the rotation of the tip bead about -y.
  const Quat q = session.state().particles.orientation.back();
  const double slope = -rotation_vector(q).y();
  CHECK(slope == Approx(1.5 * delta_theory / length).epsilon(0.01));
}

TEST_CASE("bonds: a bonded cantilever vibrates near its first natural frequency", "[bonds]") {
  // Release the statically loaded cantilever (its shape is almost all first mode), with no damping, and
  // time the tip's oscillation. References:
  //  - the bead chain's own first frequency, from its stiffness and lumped mass matrices
  //    (chain_first_omega): the discretisation is the same, so only the measurement (zero crossings
  //    interpolated within a step of T/7000) and the higher modes mixed into the start differ: 1 %;
  //  - the continuous cantilever, omega_1 = 1.875^2 sqrt(EI / (mu L^4)) with mu = m / h. The chain lumps its
  //    mass at the beads: the tip bead carries a whole bead where the continuous beam has half a segment
  //    beyond the last mid-point, an extra tip mass m/2, and the beads' rotational inertia adds more. With
  //    a tip mass M_t, Rayleigh's estimate is omega = sqrt(3 EI / L^3 / (0.2427 mu L + M_t)), lower by about
  //    1 - sqrt(1 / (1 + 0.5 / (0.2427 x 10))) = 9 % for 10 bonds: the chain is expected 5-12 % low.
  const int beads = 11;
  const double length = (beads - 1) * kSpacing;
  const double load = 3.0 * bond_ei() * 1e-3 * length / (length * length * length);
  Preset p = cantilever(beads, load);
  const double omega_chain = chain_first_omega(beads);
  p.environment.translational_damping = 2.0 * bead_mass() * omega_chain;
  p.environment.rotational_damping = p.environment.translational_damping;
  Session session(p);
  run_checked(session, static_cast<std::int64_t>(0.03 / session.model().time_step));

  Preset free = session.parameters();
  free.field.gradient = Mat3::Zero();
  free.environment.translational_damping = free.environment.rotational_damping = 0.0;
  free.bonds.damping_ratio = 0.0;
  session.edit_parameters(free);
  const double dt = session.model().time_step;
  std::vector<double> upward;  // times of upward zero crossings of the tip deflection
  double previous = session.state().particles.position.back().z();
  const auto steps = static_cast<std::int64_t>(3.2 * 2.0 * pi / omega_chain / dt);
  for (std::int64_t k = 0; k < steps; ++k) {
    run_checked(session, 1);
    const double z = session.state().particles.position.back().z();
    if (previous < 0.0 && z >= 0.0) upward.push_back(session.state().time - dt * z / (z - previous));
    previous = z;
  }
  REQUIRE(upward.size() >= 3);
  const double period = (upward.back() - upward.front()) / static_cast<double>(upward.size() - 1);
  const double omega = 2.0 * pi / period;
  const double mu = bead_mass() / kSpacing;
  const double omega_continuous = 1.875104 * 1.875104 * std::sqrt(bond_ei() / (mu * std::pow(length, 4)));
  WARN("cantilever: omega_1 measured " << omega << " rad/s, bead chain (eigenvalue) " << omega_chain
                                       << ", continuous beam " << omega_continuous << " (ratio measured/continuous "
                                       << omega / omega_continuous << ")");
  CHECK(omega == Approx(omega_chain).epsilon(0.01));
  CHECK(omega / omega_continuous > 0.88);
  CHECK(omega / omega_continuous < 0.95);
}

TEST_CASE("bonds: a bond breaks beyond its tensile strength and is counted", "[bonds]") {
  Preset p = bare_preset();
  p.materials[0].density = kDensity;
  p.particles.particles = {sphere(Vec3(0, 0, 0), kBondedBeadRadius, Vec3(-0.5, 0, 0)),
                           sphere(Vec3(kSpacing, 0, 0), kBondedBeadRadius, Vec3(0.5, 0, 0))};
  p.bonds.create = BondCreation::Touching;
  p.bonds.touch_tolerance = 0.1;
  p.bonds.youngs_modulus = kE;
  p.bonds.damping_ratio = 0.0;
  p.bonds.tensile_strength = 1e4;  // [Pa]: a stretch of 1e-3 L
  Session session(p);
  REQUIRE(session.state().bonds.size() == 1);
  run_checked(session, 2000);
  CHECK(session.state().bonds[0].broken);
  CHECK(session.state().broken_bonds == 1);
  CHECK(session.observe().broken_bonds == 1);
  CHECK(session.observe().bonds == 0);
  // Once broken the beads fly apart freely.
  CHECK(session.state().particles.velocity[1].x() == Approx(0.5).epsilon(0.2));
}

TEST_CASE("bonds: presets create bonds between touching neighbours or from a list, and name the path of a bad entry",
          "[bonds]") {
  Preset p = bare_preset();
  p.particles.kind = GeneratorKind::Lattice;
  p.particles.count = 8;  // 2 x 2 x 2 cube of touching beads: 12 edges
  p.particles.diameter = 2e-3;
  p.particles.region = Region{Vec3::Zero(), Vec3::Constant(4e-3)};
  p.bonds.create = BondCreation::Touching;
  {
    Session session(p);
    CHECK(session.state().particles.size() == 8);
    CHECK(session.state().bonds.size() == 12);
  }
  Preset list = bare_preset();
  list.particles.particles = {sphere(Vec3(0, 0, 0), kBondedBeadRadius), sphere(Vec3(kSpacing, 0, 0), kBondedBeadRadius),
                              sphere(Vec3(2 * kSpacing, 0, 0), kBondedBeadRadius)};
  list.bonds.create = BondCreation::List;
  list.bonds.list = {{0, 2}};
  CHECK(Session(list).state().bonds.size() == 1);
  list.bonds.list = {{0, 1}, {1, 3}};
  CHECK_THROWS_WITH(Session(list), Catch::Contains("$.bonds.list[1].b") && Catch::Contains("does not exist"));
  list.bonds.list = {{1, 1}};
  CHECK_THROWS_WITH(Session(list), Catch::Contains("$.bonds.list[0].b"));
  // Written and read back through JSON.
  list.bonds.list = {{0, 1}, {1, 2}};
  list.bonds.tensile_strength = 2e6;
  const Preset back = parse_preset(preset_to_text(list));
  REQUIRE(back.bonds.list.size() == 2);
  CHECK(back.bonds.list[1].b == 2);
  CHECK(back.bonds.tensile_strength == list.bonds.tensile_strength);
  CHECK_THROWS_WITH(parse_preset(R"({"version": 1, "bonds": {"create": "glue"}})"), Catch::Contains("$.bonds.create"));
}

TEST_CASE("bonds: the time step follows the stiffest bond, dt = 1 / (2 pi sqrt(k / m_min))", "[bonds]") {
  Preset p = bonded_l();
  p.materials[0].kn = 1.0;  // soft contacts: the bonds set the step
  Session session(p);
  const double m = bead_mass(), inertia = 0.4 * m * kBondedBeadRadius * kBondedBeadRadius;
  const double k_axial = kE * pi * kBondedBeadRadius * kBondedBeadRadius / kSpacing;
  const double k_bend = bond_ei() / kSpacing;
  const double omega = std::max(std::sqrt(std::max(k_axial, 12.0 * k_bend / (kSpacing * kSpacing)) / m),
                                std::sqrt(4.0 * k_bend / inertia));
  CHECK(session.model().advice.limited_by == "bond stiffness");
  CHECK(session.model().time_step == Approx(1.0 / (2.0 * pi * omega)));
}

TEST_CASE("bonds: a checkpoint keeps the bonds and the run continues identically", "[bonds]") {
  Preset p = bonded_l();
  p.particles.particles[2].velocity = Vec3(0.0, 0.0, 0.2);
  Session session(p);
  run_checked(session, 300);
  const Checkpoint saved = checkpoint_from_bytes(checkpoint_to_bytes(session.document(), session.state()));
  Session resumed(saved);
  REQUIRE(resumed.state().bonds.size() == 2);
  run_checked(session, 300);
  run_checked(resumed, 300);
  CHECK(resumed.state().particles.position[2] == session.state().particles.position[2]);
  CHECK(resumed.state().bonds[1].damping_force == session.state().bonds[1].damping_force);
}

TEST_CASE("bonds: a vibrating bonded body keeps its energy balance", "[bonds]") {
  Preset p = bonded_l();
  p.particles.particles[2].velocity = Vec3(0.05, -0.02, 0.1);
  p.particles.particles[0].angular_velocity = Vec3(3.0, 0.0, 5.0);
  p.bonds.damping_ratio = 0.3;
  Session session(p);
  const double e0 = session.observe().energy_balance();
  const double kinetic0 = session.observe().kinetic();
  run_checked(session, 20000);
  const Observables o = session.observe();
  INFO("dissipated " << o.dissipated_dashpot << " J of " << kinetic0 << " J");
  CHECK(o.dissipated_dashpot > 0.1 * kinetic0);  // the relative motion is damped
  CHECK(o.energy_balance() == Approx(e0).epsilon(0.01));
  // Total momentum is kept by the equal and opposite forces and the shared couples.
  CHECK(o.linear_momentum.norm() == Approx((bead_mass() * Vec3(0.05, -0.02, 0.1)).norm()).epsilon(1e-9));
}

TEST_CASE("bonds: bonds follow their particles when a large scene is reordered", "[bonds]") {
  // 4096 particles or more are reordered by cell at each neighbour-list rebuild (engine/step/neighbor.cpp);
  // bonds hold particle ids and find the new indices.
  Preset p = bare_preset();
  p.particles.kind = GeneratorKind::Lattice;
  p.particles.count = 16 * 16 * 16;
  p.particles.diameter = 1e-3;
  p.particles.orientation = OrientationKind::Random;
  p.particles.region = Region{Vec3::Zero(), Vec3::Constant(16e-3)};
  p.bonds.create = BondCreation::Touching;
  p.particles.velocity_spread = 1e-3;
  Session session(p);
  REQUIRE(session.state().bonds.size() == 3 * 16 * 16 * 15);
  run_checked(session, 20);
  const State& s = session.state();
  REQUIRE(s.neighbors.builds >= 1);
  size_t moved = 0;
  for (const Bond& b : s.bonds) {
    REQUIRE(s.particles.id[static_cast<size_t>(b.a)] == b.id_a);
    REQUIRE(s.particles.id[static_cast<size_t>(b.b)] == b.id_b);
    moved += b.a != static_cast<int>(b.id_a) ? 1 : 0;
  }
  CHECK(moved > 0);  // the scene was reordered
  CHECK(session.observe().broken_bonds == 0);
}
