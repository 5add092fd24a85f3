// Observables (engine/analysis/observables.hpp) against values computed by hand for small scenes.

#include "engine/analysis/observables.hpp"
#include "tests/engine/test_support.hpp"

using namespace lodestone;
using namespace lodestone::testing;

TEST_CASE("alignment, moment alignment and magnetisation of three known dipoles", "[observables]") {
  // Field along z. Easy axes along +z, +x and -z: <|n.b|> = (1 + 0 + 1)/3, <m.b/|m|> = (1 + 0 - 1)/3.
  Preset p = bare_preset();
  p.materials[0].magnetization = 5e5;
  p.field.strength = 0.02;
  p.field.direction = Vec3(0, 0, 1);
  const Vec3 axes[3] = {Vec3(0, 0, 1), Vec3(1, 0, 0), Vec3(0, 0, -1)};
  for (int k = 0; k < 3; ++k) {
    ParticleEntry e = sphere(Vec3(0.01 * k, 0, 0), 1e-3);
    e.axis = axes[k];
    p.particles.particles.push_back(e);
  }
  Session session(p);
  const Observables o = session.observe();
  CHECK(o.alignment == Approx(2.0 / 3.0).epsilon(1e-12));
  CHECK(o.moment_alignment == Approx(0.0).margin(1e-12));
  // M = sum m / sum V = 5e5 (1, 0, 0) / 3 A/m (the z parts cancel).
  CHECK((o.magnetization - Vec3(5e5 / 3.0, 0, 0)).norm() < 1e-6);
  CHECK(o.magnetization_along_field == Approx(0.0).margin(1e-6));
  // Zeeman energy: -m.B summed = -(m B) + 0 + (m B) = 0.
  CHECK(o.zeeman == Approx(0.0).margin(1e-18));
}

TEST_CASE("energies, momentum and angular momentum of moving spheres", "[observables]") {
  Preset p = bare_preset();
  p.environment.gravity = Vec3(0, 0, -9.81);
  ParticleEntry a = sphere(Vec3(0.01, 0, 0.02), 1e-3, Vec3(0, 2, 0));
  a.angular_velocity = Vec3(0, 0, 30);
  ParticleEntry b = sphere(Vec3(-0.01, 0.005, 0), 2e-3, Vec3(1, 0, -1));
  p.particles.particles = {a, b};
  Session session(p);
  const Particles& s = session.state().particles;
  const double ma = s.mass[0], mb = s.mass[1];
  const double ia = 0.4 * ma * 1e-6;
  const Observables o = session.observe();
  CHECK(o.kinetic_translational == Approx(0.5 * ma * 4.0 + 0.5 * mb * 2.0).epsilon(1e-12));
  CHECK(o.kinetic_rotational == Approx(0.5 * ia * 900.0).epsilon(1e-12));
  CHECK(o.gravitational == Approx(ma * 9.81 * 0.02 + mb * 9.81 * 0.0).epsilon(1e-12));
  CHECK((o.linear_momentum - Vec3(mb, 2 * ma, -mb)).norm() < 1e-15);
  // L = sum m x cross v + I omega, about the origin.
  const Vec3 expected_l = ma * Vec3(0.01, 0, 0.02).cross(Vec3(0, 2, 0)) +
                          mb * Vec3(-0.01, 0.005, 0).cross(Vec3(1, 0, -1)) + ia * Vec3(0, 0, 30);
  CHECK((o.angular_momentum - expected_l).norm() < 1e-12 * expected_l.norm());
}

TEST_CASE("contacts, coordination and the largest overlap of a touching chain", "[observables]") {
  // Three spheres of radius 1 mm in a row, each pair overlapping by 10 um, the last one on a floor.
  Preset p = bare_preset();
  p.box.z_min = SideKind::Wall;
  p.box.min.z() = 0.0;
  const double r = 1e-3, overlap = 1e-5;
  for (int k = 0; k < 3; ++k)
    p.particles.particles.push_back(sphere(Vec3(0, 0, r - overlap + k * (2 * r - overlap)), r));
  Session session(p);
  const Observables o = session.observe();
  CHECK(o.particle_contacts == 2);
  CHECK(o.wall_contacts == 1);
  CHECK(o.coordination == Approx(4.0 / 3.0).epsilon(1e-12));
  CHECK(o.max_overlap_ratio == Approx(overlap / r).epsilon(1e-9));
  CHECK(o.events[static_cast<int>(EventKind::ContactActivated)] == 3);
}
