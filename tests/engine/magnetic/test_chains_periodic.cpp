// Issue 5's checks of whole scenes: the dipole energy of a chain against the closed-form pair sum,
// and periodic images (a pair across a periodic boundary feels what the same pair feels inside).

#include "tests/engine/test_support.hpp"

#include <cmath>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

constexpr double kC = 1e-7;  // mu0 / 4 pi [T m / A]

// N touching spheres of radius R on the z axis, moments m along +z (head to tail).
Preset chain(int n, double radius, double moment, DipoleMethod method) {
  Preset p = bare_preset();
  p.magnetics.method = method;
  p.magnetics.cutoff = 100.0 * radius * n;
  for (int k = 0; k < n; ++k) {
    ParticleEntry e = sphere(Vec3(0, 0, 2.0 * radius * k), radius);
    e.axis = Vec3::UnitZ();
    e.moment = moment;
    p.particles.particles.push_back(e);
  }
  return p;
}

}  // namespace

TEST_CASE("a chain of N aligned touching dipoles has the energy of the closed-form pair sum", "[dipole][chain]") {
  const double radius = 0.5e-3, m = 3e-5, d = 2.0 * radius;
  for (int n : {2, 5, 12}) {
    // Pairs k apart: N - k of them, each -2 c m^2 / (k d)^3.
    double expected = 0.0;
    for (int k = 1; k < n; ++k) expected += -2.0 * kC * m * m * (n - k) / std::pow(k * d, 3);
    for (DipoleMethod method : {DipoleMethod::Direct, DipoleMethod::Cutoff}) {
      Session session(chain(n, radius, m, method));
      INFO("N = " << n << ", method " << static_cast<int>(method));
      CHECK(session.observe().dipole == Approx(expected).epsilon(1e-12));
    }
  }
  // The long-chain limit per bond: -2 c m^2 / d^3 zeta(3), zeta(3) = 1.2020569 (a check of the sum itself).
  double per_bond = 0.0;
  const int n = 2000;
  for (int k = 1; k < n; ++k) per_bond += -2.0 * kC * m * m * (n - k) / std::pow(k * d, 3) / (n - 1);
  CHECK(per_bond == Approx(-2.0 * kC * m * m / std::pow(d, 3) * 1.2020569031595942).epsilon(2e-3));
}

TEST_CASE("a pair across a periodic boundary feels the same contact and dipole forces as inside", "[periodic]") {
  // Two overlapping magnetic spheres, tilted moments, moving: contact (linear law with friction)
  // and dipole forces and torques. Once near the middle of a periodic box, once across its x and
  // y sides (the same relative geometry through the minimum image).
  const double radius = 0.5e-3, L = 10e-3;
  auto scene = [&](const Vec3& centre_i, const Vec3& separation) {
    Preset p = bare_preset();
    p.box.min = Vec3::Zero();
    p.box.max = Vec3::Constant(L);
    p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Periodic;
    p.magnetics.method = DipoleMethod::Cutoff;
    p.magnetics.cutoff = 3e-3;
    p.materials[0].friction = 0.3;
    p.materials[0].magnetization = 5e4;
    auto wrap = [&](Vec3 x) {
      for (int a = 0; a < 3; ++a) x[a] -= L * std::floor(x[a] / L);
      return x;
    };
    ParticleEntry a = sphere(wrap(centre_i), radius, Vec3(0.01, -0.02, 0.005));
    ParticleEntry b = sphere(wrap(centre_i + separation), radius, Vec3(-0.01, 0.0, 0.01));
    a.axis = Vec3(0.3, 0.1, 1.0).normalized();
    b.axis = Vec3(-0.2, 0.4, 1.0).normalized();
    a.angular_velocity = Vec3(5, 0, -3);
    p.particles.particles = {a, b};
    return p;
  };
  const Vec3 separation = Vec3(0.6, 0.5, 0.4).normalized() * 0.998e-3;  // overlapping by 2 um
  Session inside(scene(Vec3(4e-3, 4e-3, 4e-3), separation));
  Session across(scene(Vec3(L - 0.3e-3, L - 0.2e-3, 4e-3), separation));  // b lands near x = y = 0
  REQUIRE(across.state().particles.position[1].x() < 1e-3);
  REQUIRE(across.state().particles.position[1].y() < 1e-3);
  REQUIRE(inside.observe().particle_contacts == 1);
  run_checked(inside, 5);  // contact history builds up (tangential spring)
  run_checked(across, 5);
  for (size_t i = 0; i < 2; ++i) {
    const Particles& a = inside.state().particles;
    const Particles& b = across.state().particles;
    INFO("particle " << i);
    // Same motion up to round-off of the shifted coordinates (positions ~1e-2 m, eps ~2e-18 m).
    CHECK((a.force[i] - b.force[i]).norm() <= 1e-9 * a.force[i].norm());
    CHECK((a.torque[i] - b.torque[i]).norm() <= 1e-9 * a.torque[i].norm());
    CHECK(a.force[i].norm() > 0.0);
  }
  CHECK(inside.observe().dipole == Approx(across.observe().dipole).epsilon(1e-9));
  CHECK(inside.observe().particle_contacts == 1);
  CHECK(across.observe().particle_contacts == 1);
}
