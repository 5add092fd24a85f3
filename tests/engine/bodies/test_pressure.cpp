// Pressure on a packing ([Erokhin-Berkov] Sec. 3): at rest the floor carries the lid's P A (or the top
// layer's pi R^2 P per particle) plus the weight, by force balance on the whole packing.

#include "tests/engine/test_support.hpp"

#include <cmath>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Two layers of 4 x 4 frictionless spheres (R = 0.5 mm) in a 4 x 4 mm box, overdamped.
Preset two_layers(PressureMethod method, double pressure) {
  Preset p = bare_preset();
  p.box.min = Vec3(0, 0, 0);
  p.box.max = Vec3(4e-3, 4e-3, 20e-3);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Wall;
  p.contact.law = ContactLaw::HertzCoulomb;
  p.materials[0].friction = 0.0;  // the side walls carry no weight
  p.environment.gravity = Vec3(0, 0, -9.81);
  p.environment.translational_damping = 1.0;
  p.environment.rotational_damping = 1.0;
  p.integrator.scheme = IntegratorScheme::OverdampedHeun;
  p.integrator.time_step = 2e-5;
  p.pressure.method = method;
  p.pressure.pressure = pressure;
  const double r = 0.5e-3;
  for (int layer = 0; layer < 2; ++layer)
    for (int ix = 0; ix < 4; ++ix)
      for (int iy = 0; iy < 4; ++iy)
        p.particles.particles.push_back(sphere(Vec3((2 * ix + 1) * r, (2 * iy + 1) * r, (2 * layer + 1) * r), r));
  return p;
}

double weight(const Session& session) {
  double w = 0.0;
  for (double m : session.state().particles.mass) w += m * 9.81;
  return w;
}

}  // namespace

TEST_CASE("lid pressure: at rest the floor carries P A plus the weight", "[pressure]") {
  const double pressure = 100.0;  // P A = 1.6 mN, comparable to the 1.2 mN weight
  Session session(two_layers(PressureMethod::Lid, pressure));
  CHECK(session.state().lid_height == Approx(2e-3));  // placed on the packing
  run_checked(session, 5000);                         // 0.1 s, hundreds of relaxation times
  const Observables o = session.observe();
  const double area = 16e-6;
  INFO("floor " << o.floor_force << " N, lid " << o.lid_force << " N, lid at " << o.lid_height);
  CHECK(o.floor_force == Approx(pressure * area + weight(session)).epsilon(1e-6));
  CHECK(o.lid_force == Approx(pressure * area).epsilon(1e-6));
  CHECK(std::abs(session.state().lid_velocity) < 1e-9);
  CHECK(o.lid_height < 2e-3);  // the lid pressed the spheres together
}

TEST_CASE(
    "top-layer pressure ([Erokhin-Berkov]'s method): the floor carries pi R^2 P per top particle plus "
    "the weight",
    "[pressure]") {
  const double pressure = 100.0, r = 0.5e-3;
  Session session(two_layers(PressureMethod::TopLayer, pressure));
  run_checked(session, 5000);
  const Observables o = session.observe();
  CHECK(o.floor_force == Approx(16 * pi * r * r * pressure + weight(session)).epsilon(1e-6));
  CHECK(o.lid_force == 0.0);  // the z_max wall stays far above
}

TEST_CASE("a lid needs a wall on top and a damping it can use", "[pressure]") {
  Preset p = two_layers(PressureMethod::Lid, 100.0);
  p.box.z_max = SideKind::Open;
  CHECK_THROWS_WITH(Session(p), Catch::Contains("pressure.method") && Catch::Contains("z_max"));
}
