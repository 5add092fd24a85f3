// prepare_model(): the suggested time step dt = 1/(2 pi omega_max) ([Voxel-beams]: dt < 1/(2 pi
// omega0max), omega0max = sqrt(k/m_min)) and what limits it, pair coefficients in series ([PFC-dipole]
// eqs. 11-12, [Erokhin-Berkov] eq. 9), an explicit time step, and the periodic-box check.

#include "engine//core/model.hpp"
#include "engine/step/model_preparation.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

double sphere_mass(double density, double radius) {
  return density * sphere_volume(radius);
}

double suggested_for(double omega) {
  return 1.0 / (2.0 * pi * omega);
}

}  // namespace

TEST_CASE("the suggested time step of a linear scene is 1/(2 pi sqrt(k/m_min))", "[model]") {
  // Two sizes (R = 0.5 mm and 0.3 mm), one material with kn = 1200 N/m and ks = 900 N/m: the
  // stiffest spring is the normal one, in series for two equal materials ([PFC-dipole] eq. 11):
  // k = kn kn / (kn + kn) = 600 N/m; the lightest sphere sets m_min.
  Preset p = bare_preset();
  p.materials[0].kn = 1200.0;
  p.materials[0].ks = 900.0;
  p.particles.particles = {sphere(Vec3(-0.01, 0, 0), 0.5e-3), sphere(Vec3(0.01, 0, 0), 0.3e-3)};
  Session session(p);
  const double m_min = sphere_mass(p.materials[0].density, 0.3e-3);
  const double omega = std::sqrt(600.0 / m_min);
  const Model& model = session.model();
  CHECK(model.pair(0, 0).kn == Approx(600.0).epsilon(1e-15));
  CHECK(model.pair(0, 0).ks == Approx(450.0).epsilon(1e-15));
  CHECK(model.advice.omega_max == Approx(omega).epsilon(1e-14));
  CHECK(model.advice.suggested == Approx(suggested_for(omega)).epsilon(1e-14));
  CHECK(model.advice.limited_by == "contact stiffness");
  CHECK(model.time_step == model.advice.suggested);

  SECTION("the shear spring counts when it is the stiffer one") {
    p.materials[0].ks = 3000.0;  // in series: 1500 N/m
    Session stiff(p);
    CHECK(stiff.model().advice.omega_max == Approx(std::sqrt(1500.0 / m_min)).epsilon(1e-14));
  }

  SECTION("two materials: the stiffest pair present, in series") {
    // A: kn = 2000, B: kn = 6000 (ks lower). Pairs: AA 1000, AB 1500, BB 3000 N/m. B spheres are
    // the large ones; m_min is still that of the small A sphere (the bound uses the lightest
    // particle with the stiffest spring).
    p.materials = {Material{}, Material{}};
    p.materials[0].name = "A";
    p.materials[0].kn = 2000.0;
    p.materials[0].ks = 100.0;
    p.materials[1].name = "B";
    p.materials[1].kn = 6000.0;
    p.materials[1].ks = 100.0;
    p.materials[1].density = 3000.0;
    p.particles.particles[0].material = "B";
    p.particles.particles[1].material = "A";
    Session mixed(p);
    CHECK(mixed.model().pair(0, 1).kn == Approx(1500.0).epsilon(1e-14));
    CHECK(mixed.model().pair(1, 0).kn == Approx(1500.0).epsilon(1e-14));
    const double m_a = sphere_mass(7500.0, 0.3e-3), m_b = sphere_mass(3000.0, 0.5e-3);
    REQUIRE(m_a < m_b);
    CHECK(mixed.model().advice.omega_max == Approx(std::sqrt(3000.0 / m_a)).epsilon(1e-14));
    CHECK(mixed.model().advice.limited_by == "contact stiffness");
    CHECK(mixed.model().time_step == mixed.model().advice.suggested);
  }

  SECTION("Hertz-Mindlin: tangent stiffness at 1 % of the largest radius against a wall") {
    // k = max(2 E*, 8 G*) sqrt(R (0.01 R)) with 1/E* = 2 (1 - nu^2)/E, 1/G* = 4 (2 - nu)(1 + nu)/E
    // for one material ([Erokhin-Berkov] eq. 9); nu = 0.3: 2 E* = 1.099 E > 8 G* = 0.905 E.
    p.contact.law = ContactLaw::HertzMindlin;
    Session hertz(p);
    const double e = p.materials[0].youngs_modulus, nu = p.materials[0].poisson_ratio;
    const double e_star = e / (2.0 * (1.0 - nu * nu));
    const double g_star = e / (4.0 * (2.0 - nu) * (1.0 + nu));
    CHECK(hertz.model().pair(0, 0).e_star == Approx(e_star).epsilon(1e-14));
    CHECK(hertz.model().pair(0, 0).g_star == Approx(g_star).epsilon(1e-14));
    const double k = std::max(2.0 * e_star, 8.0 * g_star) * std::sqrt(0.5e-3 * 0.01 * 0.5e-3);
    CHECK(hertz.model().advice.omega_max == Approx(std::sqrt(k / m_min)).epsilon(1e-14));
    CHECK(hertz.model().advice.limited_by == "contact stiffness");
  }
}

TEST_CASE("a strong field makes the field torque the limit: omega = sqrt(m B / I)", "[model]") {
  // One sphere, R = 0.5 mm, m = 5e-5 A m^2, I = 2/5 m R^2 = 3.9e-13 kg m^2. The contact limit is
  // sqrt(500 / 3.9e-6) = 1.1e4 rad/s; the field torque sqrt(m B / I) passes it above B = 1 T.
  // At 40 kOe (4 T, the optimum field of [Erokhin-Berkov]): 2.3e4 rad/s.
  Preset p = bare_preset();
  ParticleEntry e = sphere(Vec3::Zero(), 0.5e-3);
  e.moment = 5e-5;
  p.particles.particles = {e};
  const double mass = sphere_mass(p.materials[0].density, 0.5e-3);
  const double inertia = 0.4 * mass * 0.5e-3 * 0.5e-3;
  const double omega_contact = std::sqrt(500.0 / mass);

  SECTION("weak field: the contacts still limit") {
    p.field.strength = 0.1;
    Session session(p);
    CHECK(session.model().advice.limited_by == "contact stiffness");
    CHECK(session.model().advice.omega_max == Approx(omega_contact).epsilon(1e-14));
  }
  SECTION("40 kOe constant") {
    p.field.strength = 4.0;
    Session session(p);
    const double omega = std::sqrt(5e-5 * 4.0 / inertia);
    REQUIRE(omega > omega_contact);
    CHECK(session.model().advice.limited_by == "field torque");
    CHECK(session.model().advice.omega_max == Approx(omega).epsilon(1e-14));
    CHECK(session.model().time_step == Approx(suggested_for(omega)).epsilon(1e-14));
  }
  SECTION("a ramp down from 40 kOe: the largest strength counts") {
    p.field.program = FieldProgram::Ramp;
    p.field.start_strength = 4.0;
    p.field.strength = 0.01;
    Session session(p);
    CHECK(session.model().advice.limited_by == "field torque");
    CHECK(session.model().advice.omega_max == Approx(std::sqrt(5e-5 * 4.0 / inertia)).epsilon(1e-14));
  }
  SECTION("the libration it advises against is the one the dipole performs") {
    // Consistency with the dynamics (test_field.cpp measures the period): at the suggested step
    // omega dt = 1/(2 pi), about 40 steps per libration period 2 pi / omega.
    p.field.strength = 4.0;
    Session session(p);
    const double periods = 2.0 * pi / session.model().advice.omega_max / session.model().time_step;
    CHECK(periods == Approx(4.0 * pi * pi).epsilon(1e-12));
  }
}

TEST_CASE("viscous damping can limit the time step: gamma / m and R^2 gamma* / I", "[model]") {
  // [Erokhin-Berkov] eqs. 5-6: dv/dt = -gamma v / m, a decay rate gamma/m; rotation R^2 gamma* / I =
  // 2.5 gamma* / m. Here gamma* = 0.02 N s/m on a 0.5 mm sphere (m = 3.9e-6 kg): 1.3e4 /s > the
  // contact 1.1e4 rad/s.
  Preset p = bare_preset();
  p.particles.particles = {sphere(Vec3::Zero(), 0.5e-3)};
  p.environment.rotational_damping = 0.02;
  Session session(p);
  const double mass = sphere_mass(p.materials[0].density, 0.5e-3);
  CHECK(session.model().advice.limited_by == "viscous damping");
  CHECK(session.model().advice.omega_max == Approx(2.5 * 0.02 / mass).epsilon(1e-14));
}

TEST_CASE("an explicit integrator.time_step is used as given", "[model]") {
  Preset p = bare_preset();
  p.particles.particles = {sphere(Vec3::Zero(), 0.5e-3, Vec3(0.1, 0, 0))};
  p.integrator.time_step = 3.3e-6;
  Session session(p);
  CHECK(session.model().time_step == 3.3e-6);
  // The advice is still computed and shown.
  CHECK(session.model().advice.suggested ==
        Approx(suggested_for(std::sqrt(500.0 / sphere_mass(7500.0, 0.5e-3)))).epsilon(1e-14));
  run_checked(session, 10);
  CHECK(session.state().time == Approx(33e-6).epsilon(1e-14));
  CHECK(session.state().particles.position[0].x() == Approx(0.1 * 33e-6).epsilon(1e-12));
  // A larger step than suggested is allowed too (the user's choice; the checks stage reports blow-ups).
  p.integrator.time_step = 1e-3;
  CHECK(Session(p).model().time_step == 1e-3);
}

TEST_CASE("a periodic box shorter than twice the interaction range plus skin throws at $.box", "[model]") {
  // 1 mm spheres, default skin 0.3 d = 0.3 mm. Contacts only: range d + reach = 1 mm, the box must
  // be 2 x 1.3 = 2.6 mm. Cutoff dipoles (default r_c = 4 d = 4 mm): 2 x 4.3 = 8.6 mm. Periodic in y only.
  auto scene = [](double length, DipoleMethod method) {
    Preset p = bare_preset();
    p.magnetics.method = method;
    p.box.min = Vec3(-0.05, -0.5 * length, -0.05);
    p.box.max = Vec3(0.05, 0.5 * length, 0.05);
    p.box.y_min = p.box.y_max = SideKind::Periodic;
    p.particles.particles = {sphere(Vec3::Zero(), 0.5e-3), sphere(Vec3(0.01, 0, 0), 0.5e-3)};
    return p;
  };
  auto throws_at_box = [&](double length, DipoleMethod method) {
    try {
      Session session(scene(length, method));
      return false;
    } catch (const PresetError& e) {
      INFO(e.what());
      CHECK(e.path() == "$.box");
      CHECK(e.message().find("periodic along y") != std::string::npos);
      return true;
    }
  };
  CHECK(throws_at_box(2.5e-3, DipoleMethod::Off));
  CHECK_FALSE(throws_at_box(2.7e-3, DipoleMethod::Off));
  CHECK(throws_at_box(2.5e-3, DipoleMethod::Direct));  // the direct sum has no range limit, contacts do
  CHECK(throws_at_box(8.5e-3, DipoleMethod::Cutoff));
  CHECK_FALSE(throws_at_box(8.7e-3, DipoleMethod::Cutoff));

  SECTION("prepare_model itself throws; set_model keeps the old model") {
    Simulation sim = simulation_of(scene(0.02, DipoleMethod::Cutoff));
    const double dt = sim.model().time_step;
    Model bad = sim.model();
    bad.magnetics.cutoff = 0.01;  // range 10.3 mm: the 20 mm box would need 20.6 mm
    CHECK_THROWS_AS(sim.set_model(bad), PresetError);
    CHECK(sim.model().dipole_cutoff == Approx(4e-3).epsilon(1e-15));
    CHECK(sim.model().time_step == dt);
    Model again = bad;
    CHECK_THROWS_AS(prepare_model(again, sim.state().particles), PresetError);
  }
}

TEST_CASE("the minimum image gives the bits of d - L round(d / L) on every axis, at and around half a box", "[model]") {
  // minimum_image skips the division within half a box length (engine/core/model.hpp): the result must be the
  // full formula's to the bit, signed zeros and the ties at exactly half a box included.
  Model m;
  m.periodic_length = Vec3(1e-2, 3e-3, 0.0);  // z open
  auto full = [](double d, double length) { return d - length * round_to_integer(d / length); };
  auto same_bits = [](double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
  };
  std::vector<double> offsets;
  for (double length : {1e-2, 3e-3}) {
    const double half = 0.5 * length;
    for (double x : {0.0, -0.0, 1e-9, half, std::nextafter(half, 0.0), std::nextafter(half, 1.0), length, 1.5 * length,
                     0.7 * length, 7.3 * length, 1e300, std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN()}) {
      offsets.push_back(x);
      offsets.push_back(-x);
    }
  }
  int checked = 0;
  for (double x : offsets)
    for (double y : offsets) {
      const Vec3 d(x, y, x);
      const Vec3 image = minimum_image(m, d);
      INFO("d = (" << x << ", " << y << ")");
      CHECK(same_bits(image.x(), full(x, 1e-2)));
      CHECK(same_bits(image.y(), full(y, 3e-3)));
      CHECK(same_bits(image.z(), x));  // an open axis is never imaged
      ++checked;
    }
  CHECK(checked == 52 * 52);
  // At exactly half a box the tie goes to the even integer, 0: the separation stays as it is.
  CHECK(minimum_image(m, Vec3(0.5 * 1e-2, -0.5 * 3e-3, 0)).x() == 0.5 * 1e-2);
  CHECK(minimum_image(m, Vec3(0.5 * 1e-2, -0.5 * 3e-3, 0)).y() == -0.5 * 3e-3);
}
