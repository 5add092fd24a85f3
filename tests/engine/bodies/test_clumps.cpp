// Clumps ([PFC-dipole]: rigid groups of pebbles moving as one body). Mass properties of a union of spheres
// (engine/bodies/mass_properties.*) against closed forms.

#include "engine/bodies/clumps.hpp"
#include "engine/bodies/mass_properties.hpp"
#include "engine/scene/checkpoint.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Two equal spheres of radius R, density rho, centres at +-d/2 on the x axis.
SphereUnion pair_on_x(double radius, double distance, double density) {
  SphereUnion s;
  s.centre = {Vec3(-0.5 * distance, 0.0, 0.0), Vec3(0.5 * distance, 0.0, 0.0)};
  s.radius = {radius, radius};
  s.density = {density, density};
  return s;
}

// Union of two equal spheres at centre distance d < 2R: the lens (two caps of height hc = R - d/2) is
// counted once. Volume of the lens pi (4R + d)(2R - d)^2 / 12; moment of inertia of one cap about the
// axis through both centres pi rho / 2 * int_{R-hc}^{R} (R^2 - z^2)^2 dz (discs of radius^2 R^2 - z^2).
double union_volume(double r, double d) {
  return 2.0 * sphere_volume(r) - pi * (4.0 * r + d) * (2.0 * r - d) * (2.0 * r - d) / 12.0;
}
double union_axial_inertia(double r, double d, double rho) {
  const double hc = r - 0.5 * d;
  auto primitive = [r](double z) { return std::pow(r, 4) * z - 2.0 * r * r * z * z * z / 3.0 + std::pow(z, 5) / 5.0; };
  const double cap = 0.5 * pi * rho * (primitive(r) - primitive(r - hc));
  const double sphere = 0.4 * rho * sphere_volume(r) * r * r;
  return 2.0 * sphere - 2.0 * cap;
}

}  // namespace

TEST_CASE("Clump mass properties, two touching equal spheres against the closed form", "[clumps]") {
  const double r = 1e-3, rho = 7500.0;
  const SphereUnion s = pair_on_x(r, 2.0 * r, rho);
  const double m = rho * sphere_volume(r);
  // Closed form (parallel axes): about the line of centres 2 x 2/5 m R^2; across it 2 (2/5 m R^2 + m R^2).
  const double axial = 0.8 * m * r * r, transverse = 2.0 * (0.4 * m * r * r + m * r * r);

  const MassProperties exact = sphere_union_mass_properties(s);
  CHECK_FALSE(exact.overlapping);
  CHECK(exact.mass == Approx(2.0 * m).epsilon(1e-14));
  CHECK(exact.centre.norm() < 1e-18);
  CHECK(exact.inertia(0, 0) == Approx(axial).epsilon(1e-14));
  CHECK(exact.inertia(1, 1) == Approx(transverse).epsilon(1e-14));
  CHECK(exact.inertia(2, 2) == Approx(transverse).epsilon(1e-14));
  CHECK(std::abs(exact.inertia(0, 1)) + std::abs(exact.inertia(0, 2)) + std::abs(exact.inertia(1, 2)) < 1e-20);

  // The column integration (what overlapping pebbles use) on the same shape: errors shrink with the grid.
  double previous = INFINITY, first = INFINITY;
  for (int cells : {16, 32, 64, 128}) {
    const MassProperties c = sphere_union_mass_properties(s, cells, /*force_columns=*/true);
    const double error =
        std::max({std::abs(c.mass / (2.0 * m) - 1.0), std::abs(c.inertia(0, 0) / axial - 1.0),
                  std::abs(c.inertia(1, 1) / transverse - 1.0), std::abs(c.inertia(2, 2) / transverse - 1.0)});
    INFO("cells per diameter " << cells << ": largest relative error " << error);
    // The midpoint rule across the silhouettes' edges converges as about h^1.5, not monotonically.
    if (cells == 64) CHECK(error < 0.1 * first);
    CHECK(c.centre.norm() < 1e-6 * r);
    if (cells == 16) first = error;
    previous = error;
  }
  CHECK(previous < 3e-4);  // 128 cells per diameter
}

TEST_CASE("Clump mass properties, an overlapping pair converges to the lens-corrected closed form", "[clumps]") {
  const double r = 1e-3, d = 1.2e-3, rho = 2000.0;
  const SphereUnion s = pair_on_x(r, d, rho);
  const double mass = rho * union_volume(r, d), axial = union_axial_inertia(r, d, rho);
  double previous_mass = INFINITY, previous_axial = INFINITY, last_mass = INFINITY, last_axial = INFINITY;
  for (int cells : {16, 32, 64, 128}) {
    const MassProperties c = sphere_union_mass_properties(s, cells);
    CHECK(c.overlapping);
    const double mass_error = std::abs(c.mass / mass - 1.0), axial_error = std::abs(c.inertia(0, 0) / axial - 1.0);
    INFO("cells " << cells << ": mass error " << mass_error << ", axial inertia error " << axial_error);
    CHECK(c.overlapping);
    if (cells == 64) {  // about h^1.5 (the midpoint rule across the silhouettes' edges), not monotonic
      CHECK(mass_error < 0.1 * previous_mass);
      CHECK(axial_error < 0.1 * previous_axial);
    }
    if (cells == 16) {
      previous_mass = mass_error;
      previous_axial = axial_error;
    }
    last_mass = mass_error;
    last_axial = axial_error;
  }
  CHECK(last_mass < 2e-4);
  CHECK(last_axial < 3e-4);
  // Counted once: far below the plain sum of the two spheres.
  CHECK(mass < 0.9 * 2.0 * rho * sphere_volume(r));
}

TEST_CASE("Clump principal axes of a turned pair, non-diagonal inertia tensor", "[clumps]") {
  const double r = 1e-3, rho = 1000.0;
  SphereUnion s = pair_on_x(r, 2.0 * r, rho);
  s.radius[1] = 0.5 * r;  // unequal pair: the centre of mass moves towards the big sphere
  s.centre[1] = Vec3(1.5 * r, 0.0, 0.0);
  const Quat turn(Eigen::AngleAxisd(0.7, Vec3(1.0, 2.0, 3.0).normalized()));
  SphereUnion turned = s;
  for (Vec3& c : turned.centre) c = turn * c + Vec3(0.01, -0.02, 0.03);
  const MassProperties a = sphere_union_mass_properties(s), b = sphere_union_mass_properties(turned);
  CHECK((b.centre - (turn * a.centre + Vec3(0.01, -0.02, 0.03))).norm() < 1e-15);
  const Mat3 rotated = turn.toRotationMatrix() * a.inertia * turn.toRotationMatrix().transpose();
  CHECK((b.inertia - rotated).norm() < 1e-12 * a.inertia.norm());
  CHECK(std::abs(b.inertia(0, 1)) > 1e-3 * b.inertia.norm());  // genuinely non-diagonal
  const PrincipalAxes axes = principal_axes(b.inertia);
  CHECK(axes.moments(0) == Approx(a.inertia(0, 0)).epsilon(1e-12));  // smallest: about the line of centres
  CHECK(std::abs((axes.rotation * Vec3::UnitX()).dot(turn * Vec3::UnitX())) == Approx(1.0).epsilon(1e-12));
  CHECK(axes.rotation.toRotationMatrix().determinant() == Approx(1.0));
  const Mat3 back =
      axes.rotation.toRotationMatrix() * axes.moments.asDiagonal() * axes.rotation.toRotationMatrix().transpose();
  CHECK((back - b.inertia).norm() < 1e-12 * b.inertia.norm());
}

// [SECTION] Rigid-body rotation: the free asymmetric top.

namespace {

// Body-frame angular momentum of a free rigid body (Euler's equations dpi/dt = pi x I^-1 pi) by
// classical Runge-Kutta with a small step: the reference.
Vec3 euler_rk4(Vec3 pi_body, const Vec3& inertia, double t, int steps) {
  const double h = t / steps;
  auto f = [&](const Vec3& x) -> Vec3 { return x.cross(x.cwiseQuotient(inertia)); };
  for (int k = 0; k < steps; ++k) {
    const Vec3 k1 = f(pi_body), k2 = f(pi_body + 0.5 * h * k1), k3 = f(pi_body + 0.5 * h * k2),
               k4 = f(pi_body + h * k3);
    pi_body += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return pi_body;
}

double rotational_energy(const Vec3& pi_body, const Vec3& inertia) {
  return 0.5 * pi_body.cwiseProduct(pi_body).cwiseQuotient(inertia).sum();
}

struct TopRun {
  double largest_energy_error = 0.0;  // relative
  Vec3 final_body = Vec3::Zero();
  int flips = 0;  // sign changes of the intermediate-axis component
};

// Starts near the intermediate axis (Dzhanibekov): the body flips over and back periodically.
TopRun spin_top(double dt, double t_end, const Quat& start) {
  const Vec3 inertia(1.0, 2.0, 3.0);
  const Vec3 pi0(0.1, 1.0, 0.05);
  const Vec3 angular_momentum = start * pi0;  // world, constant
  Quat q = start;
  const double e0 = rotational_energy(pi0, inertia);
  TopRun out;
  double last_sign = 1.0;
  const int steps = static_cast<int>(std::lround(t_end / dt));
  for (int k = 0; k < steps; ++k) {
    free_rotation(q, angular_momentum, inertia, dt);
    const Vec3 body = q.conjugate() * angular_momentum;
    out.largest_energy_error =
        std::max(out.largest_energy_error, std::abs(rotational_energy(body, inertia) / e0 - 1.0));
    if (body.y() * last_sign < 0.0) {
      ++out.flips;
      last_sign = -last_sign;
    }
  }
  out.final_body = q.conjugate() * angular_momentum;
  return out;
}

}  // namespace

TEST_CASE("Clump free rotation, asymmetric top near the intermediate axis conserves L and energy", "[clumps]") {
  const Quat start(Eigen::AngleAxisd(0.4, Vec3(1.0, -1.0, 2.0).normalized()));
  const double t_end = 60.0;
  const TopRun coarse = spin_top(0.02, t_end, start), fine = spin_top(0.01, t_end, start);
  INFO("largest relative energy error: dt 0.02 " << coarse.largest_energy_error << ", dt 0.01 "
                                                 << fine.largest_energy_error);
  CHECK(fine.flips >= 3);  // the Dzhanibekov flips happen
  CHECK(coarse.flips == fine.flips);
  CHECK(coarse.largest_energy_error < 2e-3);
  // Second order: halving dt divides the (bounded, non-drifting) energy error by about 4.
  CHECK(coarse.largest_energy_error / fine.largest_energy_error == Approx(4.0).epsilon(0.15));
  // |L| in the body frame is the world |L|: kept to round-off.
  CHECK(fine.final_body.norm() == Approx(Vec3(0.1, 1.0, 0.05).norm()).epsilon(1e-13));
  // The motion itself against Euler's equations (RK4 with a 50x smaller step), over the first flip.
  const double t_flip = 12.0;
  const Vec3 reference = euler_rk4(Vec3(0.1, 1.0, 0.05), Vec3(1.0, 2.0, 3.0), t_flip, 6000);
  const Vec3 a = spin_top(0.02, t_flip, start).final_body, b = spin_top(0.01, t_flip, start).final_body;
  INFO("body-frame L at t = 12: reference " << reference.transpose() << ", dt 0.02 " << a.transpose() << ", dt 0.01 "
                                            << b.transpose());
  CHECK((b - reference).norm() < 0.02);
  CHECK((a - reference).norm() / (b - reference).norm() == Approx(4.0).epsilon(0.25));
}

// [SECTION] Clumps in a simulation, from presets.

namespace {

ClumpEntry cube_clump(const Vec3& position, int count, double pebble_radius) {
  ClumpEntry e;
  e.shape = ClumpShape::Cube;
  e.position = position;
  e.count = count;
  e.pebble_radius = pebble_radius;
  return e;
}

ClumpEntry bar_clump(const Vec3& position, const Vec3& axis, int count, double pebble_radius, double spacing) {
  ClumpEntry e;
  e.shape = ClumpShape::Bar;
  e.position = position;
  e.axis = axis.normalized();
  e.count = count;
  e.pebble_radius = pebble_radius;
  e.spacing = spacing;
  return e;
}

// An asymmetric clump: three unequal overlapping spheres, not on one line.
ClumpEntry lumpy_clump(const Vec3& position) {
  ClumpEntry e;
  e.shape = ClumpShape::List;
  e.position = position;
  for (const auto& [offset, radius] :
       {std::pair{Vec3(0.0, 0.0, 0.0), 1.0e-3}, std::pair{Vec3(1.5e-3, 0.0, 0.0), 0.7e-3},
        std::pair{Vec3(0.0, 1.2e-3, 0.4e-3), 0.5e-3}}) {
    ClumpPebble b;
    b.offset = offset;
    b.radius = radius;
    e.pebbles.push_back(b);
  }
  return e;
}

// Largest change of a pebble-to-pebble distance inside each clump from `before` to the state now.
double rigidity_error(const State& before, const State& after) {
  const Particles& a = before.particles;
  const Particles& b = after.particles;
  double worst = 0.0;
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = i + 1; j < a.size(); ++j)
      if (same_clump(a, i, j))
        worst =
            std::max(worst, std::abs((b.position[i] - b.position[j]).norm() - (a.position[i] - a.position[j]).norm()));
  return worst;
}

}  // namespace

TEST_CASE("Clump presets build cubes, bars and lists that move rigidly, without contacts inside a clump", "[clumps]") {
  Preset p = bare_preset();
  p.magnetics.method = DipoleMethod::Direct;
  p.materials[0].magnetization = 1e5;
  p.materials[0].friction = 0.3;
  p.integrator.time_step = 2e-6;
  p.clumps.push_back(cube_clump(Vec3(0.0, 0.0, 0.0), 2, 1e-3));
  p.clumps.push_back(bar_clump(Vec3(0.0, 0.0, 4e-3), Vec3(1.0, 1.0, 0.0), 4, 1e-3, 1.5e-3));
  p.clumps.push_back(lumpy_clump(Vec3(0.0, 8e-3, 0.0)));
  p.clumps[0].angular_velocity = Vec3(30.0, -20.0, 50.0);
  p.clumps[1].velocity = Vec3(0.0, 0.0, -0.3);  // falls onto the cube: contacts between clumps
  p.clumps[2].angular_velocity = Vec3(40.0, 10.0, -25.0);
  const Preset loaded = preset_from_json(preset_to_json(p));  // through the schema
  CHECK(preset_to_json(loaded) == preset_to_json(p));
  Session session(loaded);
  const State start = session.state();
  REQUIRE(session.state().particles.size() == 8 + 4 + 3);
  REQUIRE(session.state().clumps.size() == 3);
  const Observables o0 = session.observe();
  bool touched = false;
  for (int k = 0; k < 30; ++k) {
    run_checked(session, 100);
    const State& s = session.state();
    for (size_t n = 0; n < s.neighbors.contact_pairs.size(); ++n) {
      const IndexPair pr = s.neighbors.contact_pairs[n];
      REQUIRE_FALSE(same_clump(s.particles, static_cast<size_t>(pr.i), static_cast<size_t>(pr.j)));
      touched = touched || s.neighbors.contact_history[n].active;
    }
  }
  CHECK(touched);
  CHECK(rigidity_error(start, session.state()) < 1e-15);
  const Observables o1 = session.observe();
  // Contacts and dipoles between clumps: forces opposite, torques balanced about the centres of mass.
  const double p_scale = o0.linear_momentum.norm() + 1e-12;
  CHECK((o1.linear_momentum - o0.linear_momentum).norm() < 1e-12 * p_scale);
  const double l_scale = o0.angular_momentum.norm();
  INFO("angular momentum " << o0.angular_momentum.transpose() << " -> " << o1.angular_momentum.transpose());
  CHECK((o1.angular_momentum - o0.angular_momentum).norm() < 1e-9 * l_scale);
  // Pebbles follow their clump: velocity V + w x r.
  const State& s = session.state();
  for (size_t i = 0; i < s.particles.size(); ++i) {
    const auto c = static_cast<size_t>(s.particles.clump[i]);
    const Vec3 r = s.clumps.orientation[c] * s.particles.clump_offset[i];
    CHECK((s.particles.velocity[i] - s.clumps.velocity[c] - s.clumps.angular_velocity(c).cross(r)).norm() < 1e-12);
  }
}

TEST_CASE("Clump under gravity falls freely without turning, gravity acting at the centre of mass", "[clumps]") {
  Preset p = bare_preset();
  p.environment.gravity = Vec3(0.0, 0.0, -9.81);
  p.integrator.time_step = 1e-4;
  p.clumps.push_back(lumpy_clump(Vec3::Zero()));
  Session session(p);
  run_checked(session, 1000);
  const Clumps& c = session.state().clumps;
  CHECK((c.velocity[0] - Vec3(0.0, 0.0, -9.81 * 0.1)).norm() < 1e-12);
  CHECK(c.angular_momentum[0].norm() < 1e-20);
  // Energy: kinetic + gravitational of the clump, not of the pebbles' shares.
  const Observables o = session.observe();
  const double e = 0.5 * c.mass[0] * c.velocity[0].squaredNorm() + c.mass[0] * 9.81 * c.position[0].z();
  CHECK(o.kinetic_translational + o.kinetic_rotational + o.gravitational == Approx(e).margin(1e-15));
}

TEST_CASE("Clump free asymmetric body in a simulation keeps angular momentum and energy", "[clumps]") {
  Preset p = bare_preset();
  p.clumps.push_back(lumpy_clump(Vec3::Zero()));
  p.clumps[0].angular_velocity = Vec3(300.0, 500.0, -200.0);
  double errors[2];
  for (int k = 0; k < 2; ++k) {
    p.integrator.time_step = k == 0 ? 2e-5 : 1e-5;
    Session session(p);
    const Vec3 l0 = session.state().clumps.angular_momentum[0];
    const double e0 = session.observe().kinetic_rotational;
    double worst = 0.0;
    const int steps = k == 0 ? 5000 : 10000;  // 0.1 s, tens of turns
    for (int n = 0; n < steps; n += 50) {
      run_checked(session, 50);
      worst = std::max(worst, std::abs(session.observe().kinetic_rotational / e0 - 1.0));
    }
    CHECK((session.state().clumps.angular_momentum[0] - l0).norm() == 0.0);
    CHECK((session.observe().angular_momentum - l0).norm() < 1e-12 * l0.norm());
    errors[k] = worst;
  }
  INFO("largest relative kinetic energy error: dt 2e-5 " << errors[0] << ", dt 1e-5 " << errors[1]);
  CHECK(errors[0] < 1e-3);
  CHECK(errors[0] / errors[1] == Approx(4.0).epsilon(0.2));
}

TEST_CASE("Clump bar dropped on a floor comes to rest lying down", "[clumps]") {
  Preset p = bare_preset();
  p.box.z_min = SideKind::Wall;
  p.environment.gravity = Vec3(0.0, 0.0, -9.81);
  p.contact.linear.dp_nratio = 0.5;
  p.contact.linear.dp_sratio = 0.5;
  p.clumps.push_back(bar_clump(Vec3(0.0, 0.0, -0.05 + 6e-3), Vec3(1.0, 0.0, 1.0), 5, 1e-3, 1.6e-3));
  Session session(p);
  const double dt = session.model().time_step;
  run_checked(session, static_cast<std::int64_t>(0.4 / dt));
  const Clumps& c = session.state().clumps;
  // The bar's length is its smallest principal axis (body x); lying down it is horizontal.
  const Vec3 length = c.orientation[0] * Vec3::UnitX();
  INFO("bar axis " << length.transpose() << ", centre height above the floor " << c.position[0].z() + 0.05);
  CHECK(std::abs(length.z()) < 0.02);
  CHECK(c.position[0].z() + 0.05 == Approx(1e-3).epsilon(0.05));
  CHECK(c.velocity[0].norm() < 1e-3);
}

TEST_CASE("Clump preset errors name the JSON path", "[clumps]") {
  auto error_of = [](const Preset& p) -> std::string {
    try {
      preset_from_json(preset_to_json(p));
    } catch (const PresetError& e) {
      return e.path();
    }
    return "(accepted)";
  };
  Preset p = bare_preset();
  p.clumps.push_back(cube_clump(Vec3::Zero(), 2, 1e-3));
  p.clumps.push_back(bar_clump(Vec3(0.0, 0.0, 0.01), Vec3::UnitX(), 3, 1e-3, 1.5e-3));
  CHECK(error_of(p) == "(accepted)");
  Preset bad = p;
  bad.clumps[1].spacing = 2.5e-3;
  CHECK(error_of(bad) == "$.clumps[1].spacing");
  bad = p;
  bad.clumps[1].material = "unobtainium";
  CHECK(error_of(bad) == "$.clumps[1].material");
  bad = p;
  bad.clumps[0].shape = ClumpShape::List;
  CHECK(error_of(bad) == "$.clumps[0].pebbles");
  bad = p;
  bad.box.z_min = SideKind::Wall;
  bad.clumps[0].position = Vec3(0.0, 0.0, -0.0495);
  CHECK(error_of(bad) == "$.clumps[0].position");
  bad = p;
  bad.integrator.scheme = IntegratorScheme::OverdampedHeun;
  bad.environment.translational_damping = bad.environment.rotational_damping = 1e-3;
  CHECK(error_of(bad) == "$.clumps");
  json j = preset_to_json(p);
  j["clumps"][0]["colour"] = "red";
  CHECK_THROWS_WITH(preset_from_json(j), Catch::Contains("$.clumps[0].colour"));
  j = preset_to_json(p);
  j["clumps"][1]["count"] = 0;
  CHECK_THROWS_WITH(preset_from_json(j), Catch::Contains("$.clumps[1].count"));
}

TEST_CASE("Clump runs continue bit-identically from a checkpoint", "[clumps][checkpoint]") {
  Preset p = bare_preset();
  p.magnetics.method = DipoleMethod::Direct;
  p.materials[0].magnetization = 1e5;
  p.integrator.time_step = 2e-6;
  p.clumps.push_back(cube_clump(Vec3(0.0, 0.0, 0.0), 2, 1e-3));
  p.clumps.push_back(bar_clump(Vec3(0.0, 0.0, 6e-3), Vec3(1.0, 1.0, 0.0), 4, 1e-3, 1.5e-3));
  p.clumps[0].angular_velocity = Vec3(30.0, -20.0, 50.0);
  p.clumps[1].velocity = Vec3(0.0, 0.0, -0.3);
  Session straight(p), part(p);
  run_checked(part, 700);
  const std::string bytes = checkpoint_to_bytes(part.document(), part.state());
  Session resumed(checkpoint_from_bytes(bytes));
  run_checked(resumed, 700);
  run_checked(straight, 1400);
  CHECK(checkpoint_to_bytes(straight.document(), straight.state()) ==
        checkpoint_to_bytes(resumed.document(), resumed.state()));
  CHECK(checkpoint_to_bytes(part.document(), checkpoint_from_bytes(bytes).state) == bytes);
  // A damaged clump record is refused with a reason.
  State bad = part.state();
  bad.particles.clump[0] = 7;
  CHECK_THROWS_WITH(checkpoint_from_bytes(checkpoint_to_bytes(part.document(), bad)), Catch::Contains("clump 7"));
  bad = part.state();
  bad.clumps.mass[1] = 0.0;
  CHECK_THROWS_WITH(checkpoint_from_bytes(checkpoint_to_bytes(part.document(), bad)), Catch::Contains("clump 1"));
}

TEST_CASE("Clump mass follows an edit of the material density, the motion kept", "[clumps]") {
  Preset p = bare_preset();
  p.clumps.push_back(lumpy_clump(Vec3::Zero()));
  p.clumps[0].angular_velocity = Vec3(30.0, -50.0, 20.0);
  p.clumps[0].velocity = Vec3(0.1, 0.0, 0.0);
  Session session(p);
  run_checked(session, 100);
  const Clumps before = session.state().clumps;
  const State state_before = session.state();
  Preset edited = session.parameters();
  edited.materials[0].density *= 2.0;
  session.edit_parameters(edited);
  const Clumps& after = session.state().clumps;
  CHECK(after.mass[0] == Approx(2.0 * before.mass[0]).epsilon(1e-12));
  CHECK((after.inertia[0] - 2.0 * before.inertia[0]).norm() < 1e-9 * before.inertia[0].norm());
  CHECK((after.angular_velocity(0) - before.angular_velocity(0)).norm() < 1e-9 * before.angular_velocity(0).norm());
  CHECK((after.velocity[0] - before.velocity[0]).norm() < 1e-12);
  CHECK((after.position[0] - before.position[0]).norm() < 1e-15);
  for (size_t i = 0; i < 3; ++i) {
    CHECK((session.state().particles.position[i] - state_before.particles.position[i]).norm() < 1e-15);
    CHECK((session.state().particles.moment[i] - state_before.particles.moment[i]).norm() <=
          1e-12 * (1.0 + state_before.particles.moment[i].norm()));
    CHECK(session.state().particles.mass[i] == Approx(after.mass[0] / 3.0));
  }
  run_checked(session, 100);
  CHECK(rigidity_error(state_before, session.state()) < 1e-15);
}

TEST_CASE("Clump of two materials recomputed after one density changes, pebbles staying where they are", "[clumps]") {
  Preset p = bare_preset();
  Material light = p.materials[0];
  light.name = "light";
  light.density = 1000.0;
  p.materials.push_back(light);
  p.clumps.push_back(lumpy_clump(Vec3::Zero()));
  p.clumps[0].pebbles[2].material = "light";  // the small sphere
  p.clumps[0].angular_velocity = Vec3(30.0, -50.0, 20.0);
  Session session(p);
  run_checked(session, 100);
  const State before = session.state();
  Preset edited = session.parameters();
  edited.materials[1].density = 7500.0;  // now all one density, as a clump of one material would be
  session.edit_parameters(edited);
  Preset uniform = p;
  uniform.clumps[0].pebbles[2].material = "";
  const double expected_mass = Session(uniform).state().clumps.mass[0];
  const Clumps& after = session.state().clumps;
  CHECK(after.mass[0] == Approx(expected_mass).epsilon(2e-3));  // column integration in another grid
  CHECK(after.mass[0] > before.clumps.mass[0]);
  CHECK((after.angular_velocity(0) - before.clumps.angular_velocity(0)).norm() <
        1e-9 * before.clumps.angular_velocity(0).norm());
  for (size_t i = 0; i < 3; ++i) {
    CHECK((session.state().particles.position[i] - before.particles.position[i]).norm() < 1e-15);
    CHECK((session.state().particles.velocity[i] - before.particles.velocity[i]).norm() < 1e-12);
    CHECK((session.state().particles.moment[i] - before.particles.moment[i]).norm() <=
          1e-12 * (1.0 + before.particles.moment[i].norm()));
  }
  run_checked(session, 100);
  CHECK(rigidity_error(before, session.state()) < 1e-15);
}
