// [Erokhin-Berkov]'s reduced units (App. B; engine/analysis/reduced_units.*): the numbers for the paper's set-up,
// when they are not defined, the reduced_time column, and that the engine's overdamped dynamics
// really is App. B's eqs. 15-16, i.e. depends on the scene only through the reduced parameters.

#include "engine/analysis/reduced_units.hpp"
#include "engine/output/series.hpp"
#include "engine/scene/document.hpp"
#include "tests/engine/test_support.hpp"

#include <cmath>
#include <sstream>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// The paper's material and set-up ([Erokhin-Berkov] Sec. 2.3, App. B; presets/powder-alignment.json), with
// four grains of exactly R_av = 0.5 um on the floor.
Preset paper_scene() {
  Preset p = load_preset_file(std::string(LODESTONE_SOURCE_DIR) + "/presets/powder-alignment.json");
  p.protocol.clear();  // the preset's own parameters: 9.81 m/s^2, 0.5 atm, 40 kOe
  p.particles = GeneratorParameters{};
  p.particles.kind = GeneratorKind::List;
  for (int k = 0; k < 4; ++k) p.particles.particles.push_back(sphere(Vec3(1.5e-6 + 2e-6 * k, 5e-6, 0.6e-6), 0.5e-6));
  return p;
}

// [SECTION] The scaling scene: Stoner-Wohlfarth grains with Hertz contacts dropped on a floor under
// gravity, the top layer pressed, in a field, all written in App. B's reduced parameters. A scene is
// fixed by these and by the dimensional scales (length, E, gamma, rho, Ms), which should not matter.
struct Reduced {
  double gravity = 5e-3;       // g~ = (4 pi/3) rho g R_av / E
  double pressure = 4e-4;      // p~ = pi P / E
  double anisotropy = 0.02;    // K~ = 8 pi K / (3 E)
  double field = 0.6;          // h = B / B_K, B_K = 2K / Ms
  double damping_ratio = 0.7;  // gamma* / gamma (the paper takes 1; 0.7 checks that R^2 gamma* scales too)
  // hertz_coulomb slip_velocity in R_av / t_char (the engine's regularisation of eq. 8). The overdamped
  // scheme evaluates the friction with the velocity of the previous evaluation, and v = F / gamma:
  // below the slip velocity that is a feedback of gain ~ mu F_n (1/gamma + 1/gamma*) / v_s, here
  // ~0.3 x 5e-3 x 2.4 / v_s. Above 1 successive evaluations overshoot (chatter) and round-off grows
  // to O(1): at 1e-3 the two scenes end 0.1 R_av apart, as far as K~ + 1 % takes them. 3e-2 keeps
  // the gain below 1 (docs/physics.md, "Overdamped integration").
  double slip = 3e-2;
  double friction = 0.3, poisson = 0.28;
};

struct Scales {
  double length;         // [m] R_av
  double modulus;        // [Pa] E
  double damping;        // [N s/m] gamma
  double density;        // [kg/m^3] rho
  double magnetization;  // [A/m] Ms
};

// Radii (mean exactly 1), centres and easy axes in units of R_av; the axes in the upper hemisphere
// around the field ([Erokhin-Berkov] takes 0 <= theta < 90 deg), none near 90 deg.
constexpr double kRadii[] = {1.0, 0.9, 1.1, 0.95, 1.05, 0.85, 1.15};
const Vec3 kCentres[] = {{1.5, 1.5, 1.2}, {4.2, 1.6, 1.0}, {1.6, 4.3, 1.3}, {4.3, 4.4, 1.05},
                         {2.9, 2.9, 2.9}, {2.2, 3.0, 4.9}, {4.2, 3.0, 5.6}};
const Vec3 kAxes[] = {{1, 0, 1},       {0, 1, 0.4}, {-1, 0.5, 0.6}, {0.3, -1, 1},
                      {-0.2, -0.4, 1}, {1, 1, 0.9}, {-1, -0.3, 0.5}};

Preset scaled_scene(const Reduced& red, const Scales& s, ContactLaw law, double reduced_step) {
  const double r_av = s.length, e = s.modulus, t_char = s.damping / (e * r_av);
  Preset p;
  p.materials = {Material{}};
  Material& m = p.materials[0];
  m.name = "grain";
  m.density = s.density;
  m.youngs_modulus = e;
  m.poisson_ratio = red.poisson;
  m.friction = red.friction;
  m.moment_model = MomentModel::StonerWohlfarth;
  m.magnetization = s.magnetization;
  m.anisotropy = 3.0 * e * red.anisotropy / (8.0 * pi);
  p.contact.law = law;
  p.contact.hertz_coulomb.slip_velocity = red.slip * r_av / t_char;
  p.magnetics.method = DipoleMethod::Off;  // as in [Erokhin-Berkov] (beta ~ 50)
  p.field.strength = red.field * 2.0 * m.anisotropy / m.magnetization;
  p.field.direction = Vec3::UnitZ();
  p.environment.gravity = Vec3(0, 0, -red.gravity * e / (4.0 / 3.0 * pi * s.density * r_av));
  p.environment.translational_damping = s.damping;
  p.environment.rotational_damping = red.damping_ratio * s.damping;
  p.pressure.method = PressureMethod::TopLayer;
  p.pressure.pressure = red.pressure * e / pi;
  p.box.min = Vec3::Zero();
  p.box.max = r_av * Vec3(6, 6, 20);
  p.integrator.scheme = IntegratorScheme::OverdampedHeun;
  p.integrator.time_step = reduced_step * t_char;
  p.particles.kind = GeneratorKind::List;
  for (size_t i = 0; i < std::size(kRadii); ++i) {
    ParticleEntry g = sphere(r_av * kCentres[i], r_av * kRadii[i]);
    g.axis = kAxes[i].normalized();
    p.particles.particles.push_back(g);
  }
  return p;
}

// The two scenes' largest differences in positions / R_av and in easy axes, over the run.
struct Difference {
  double position = 0.0, axis = 0.0;
};

void compare(const Session& a, const Session& b, Difference& d) {
  const Particles &pa = a.state().particles, &pb = b.state().particles;
  const double la = reduced_units(a.model(), pa).length, lb = reduced_units(b.model(), pb).length;
  for (size_t i = 0; i < pa.size(); ++i) {
    d.position = std::max(d.position, (pa.position[i] / la - pb.position[i] / lb).norm());
    d.axis = std::max(d.axis, (pa.easy_axis(i) - pb.easy_axis(i)).norm());
  }
}

// Runs both scenes `steps` steps (b: `ratio` steps per step of a), comparing every 100 steps of a.
Difference run_pair(Session& a, Session& b, int steps, int ratio = 1) {
  Difference d;
  for (int k = 0; k < steps; k += 100) {
    run_checked(a, 100);
    run_checked(b, 100 * ratio);
    compare(a, b, d);
  }
  return d;
}

const Scales kPaper{0.5e-6, 1.8e11, 20.0, 5100.0, 3.8e5};  // [Erokhin-Berkov]'s grains
const Scales kOther{3.7e-3, 2.3e7, 0.013, 1200.0, 8.1e5};  // mm beads of a soft polymer

}  // namespace

TEST_CASE("reduced units of the paper's set-up: t_char = 2.2e-4 s and App. B's g~, p~, K~", "[reduced]") {
  Session session(paper_scene());
  const ReducedUnits u = reduced_units(session.model(), session.state().particles);
  REQUIRE(u.defined);
  CHECK(u.material == 0);
  CHECK(u.length == Approx(0.5e-6).epsilon(1e-15));
  CHECK(u.youngs_modulus == Approx(1.8e11).epsilon(1e-15));
  // Closed forms with the paper's numbers: gamma = 20 N s/m, E = 1.8e11 Pa, R_av = 0.5 um,
  // rho = 5.1 g/cm^3, g = 9.81, P = 0.5 atm = 50662.5 Pa, K = 3.5e6 erg/cm^3 = 3.5e5 J/m^3, Ms = 3.8e5 A/m,
  // B = 40 kOe = 4 T.
  CHECK(u.time == Approx(20.0 / (1.8e11 * 0.5e-6)).epsilon(1e-14));
  CHECK(u.time == Approx(2.2e-4).margin(0.05e-4));  // the value App. B quotes, to its two digits
  CHECK(u.gravity == Approx(4.0 / 3.0 * pi * 5100.0 * 9.81 * 0.5e-6 / 1.8e11).epsilon(1e-14));
  CHECK(u.gravity == Approx(5.821e-13).epsilon(1e-3));
  CHECK(u.pressure == Approx(pi * 50662.5 / 1.8e11).epsilon(1e-14));
  CHECK(u.pressure == Approx(8.842e-7).epsilon(1e-3));
  CHECK(u.anisotropy == Approx(8.0 * pi * 3.5e5 / (3.0 * 1.8e11)).epsilon(1e-14));
  CHECK(u.anisotropy == Approx(1.629e-5).epsilon(1e-3));
  CHECK(u.field == Approx(4.0 / (2.0 * 3.5e5 / 3.8e5)).epsilon(1e-14));  // h = 2.17
  CHECK(u.damping_ratio == 1.0);
}

TEST_CASE("reduced units are not defined without gamma, E, the overdamped scheme or a Hertz law", "[reduced]") {
  Session session(paper_scene());
  const Particles& p = session.state().particles;
  auto reason = [&](auto edit) {
    Model m = session.model();
    edit(m);
    const ReducedUnits u = reduced_units(m, p);
    CHECK_FALSE(u.defined);
    CHECK(u.time == 0.0);
    return u.reason;
  };
  CHECK_THAT(reason([](Model& m) { m.environment.translational_damping = 0.0; }),
             Catch::Contains("translational_damping is 0"));
  CHECK_THAT(reason([](Model& m) { m.materials[0].youngs_modulus = 0.0; }), Catch::Contains("youngs_modulus is 0"));
  CHECK_THAT(reason([](Model& m) { m.integrator.scheme = IntegratorScheme::VelocityVerlet; }),
             Catch::Contains("overdamped"));
  CHECK_THAT(reason([](Model& m) { m.contact.law = ContactLaw::Linear; }), Catch::Contains("linear"));
  CHECK_FALSE(reduced_units(session.model(), Particles{}).defined);

  // The material: the first magnetic one the particles are made of, not the first in the list.
  Preset two = paper_scene();
  Material inert = two.materials[0];
  inert.name = "inert";
  inert.moment_model = MomentModel::Rigid;
  inert.magnetization = 0.0;
  inert.youngs_modulus = 7e10;
  two.materials.insert(two.materials.begin(), inert);
  for (ParticleEntry& e : two.particles.particles) e.material = "sr_ferrite";
  two.particles.particles[0].material = "inert";
  Session mixed(two);
  const ReducedUnits u = reduced_units(mixed.model(), mixed.state().particles);
  CHECK(u.material == 1);
  CHECK(u.youngs_modulus == 1.8e11);
}

TEST_CASE("the time series has reduced_time = t / t_char, empty where t_char is not defined", "[reduced]") {
  Session session(scaled_scene(Reduced{}, kPaper, ContactLaw::HertzCoulomb, 0.25));
  run_checked(session, 40);
  const double t_char = reduced_units(session.model(), session.state().particles).time;
  const Observables o = session.observe();
  CHECK(o.reduced_time == Approx(o.time / t_char).epsilon(1e-15));
  CHECK(o.reduced_time == Approx(10.0).epsilon(1e-12));  // 40 steps of 0.25 t_char

  auto column = [](const Observables& obs, const std::string& name) {
    std::istringstream header(series_header()), row(series_row(obs));
    std::string key, value;
    while (std::getline(header, key, ',') && std::getline(row, value, ','))
      if (key == name) return value;
    FAIL("no column " << name);
    return std::string();
  };
  CHECK(std::stod(column(o, "reduced_time")) == o.reduced_time);  // shortest round-trip form: exact
  CHECK(std::stod(column(o, "time")) == o.time);

  Preset verlet = bare_preset();  // velocity Verlet, no damping: not defined
  verlet.particles.particles = {sphere(Vec3::Zero(), 1e-3)};
  Session plain(verlet);
  const Observables q = plain.observe();
  CHECK(std::isnan(q.reduced_time));
  CHECK(column(q, "reduced_time").empty());
  CHECK(column(q, "kinetic_translational") == "0");  // the columns after it are in place
}

TEST_CASE("overdamped dynamics depends only on App. B's reduced parameters (eqs. 15-16)", "[reduced]") {
  // Two scenes 7400 x apart in size, E 7800 x apart, gamma 1500 x apart, different rho, g, P, K, Ms
  // and B, but the same g~, p~, K~, h, gamma*/gamma, mu, nu and geometry in R_av, stepped with the
  // same reduced step: Heun's method then makes the same arithmetic in reduced units, so the two
  // runs differ by round-off only. The control runs show what a real difference looks like: half
  // the reduced step (the discretisation error) and K~ changed by 1 %.
  const Reduced red;
  const double dtau = 0.25;
  const int steps = 4000;  // tau = 1000: grains fall 1-2 R_av, touch, are pressed and turn toward the field
  for (const ContactLaw law : {ContactLaw::HertzCoulomb, ContactLaw::HertzMindlin}) {
    const char* name = law == ContactLaw::HertzCoulomb ? "hertz_coulomb" : "hertz_mindlin";
    Session a(scaled_scene(red, kPaper, law, dtau));
    Session b(scaled_scene(red, kOther, law, dtau));
    const ReducedUnits ua = reduced_units(a.model(), a.state().particles);
    const ReducedUnits ub = reduced_units(b.model(), b.state().particles);
    REQUIRE(ua.defined);
    REQUIRE(ub.defined);
    CHECK(ua.time / ub.time > 100.0);  // really different time scales (0.22 ms and 0.15 us)
    for (const auto& [x, y] : {std::pair{ua.gravity, ub.gravity}, std::pair{ua.pressure, ub.pressure},
                               std::pair{ua.anisotropy, ub.anisotropy}, std::pair{ua.field, ub.field},
                               std::pair{ua.damping_ratio, ub.damping_ratio}})
      CHECK(x == Approx(y).epsilon(1e-14));
    CHECK(a.model().time_step / ua.time == Approx(dtau).epsilon(1e-14));
    CHECK(b.model().time_step / ub.time == Approx(dtau).epsilon(1e-14));

    const Difference same = run_pair(a, b, steps);
    // Something happened: contacts carry the pile, the grains turned toward the field.
    const Observables oa = a.observe();
    CHECK(oa.particle_contacts + oa.wall_contacts >= 7);
    CHECK(oa.alignment > 0.8);
    CHECK(oa.reduced_time == Approx(b.observe().reduced_time).epsilon(1e-12));

    // Controls: the same scene at half the reduced step, and with K~ 1 % larger.
    Session fine(scaled_scene(red, kPaper, law, dtau / 2));
    Session a2(scaled_scene(red, kPaper, law, dtau));
    const Difference discretisation = run_pair(a2, fine, steps, 2);
    Reduced stiffer = red;
    stiffer.anisotropy *= 1.01;
    Session a3(scaled_scene(red, kPaper, law, dtau));
    Session c(scaled_scene(stiffer, kOther, law, dtau));
    const Difference anisotropy = run_pair(a3, c, steps);

    INFO(name << ": largest |r/R_av| difference " << same.position << ", easy axes " << same.axis
              << "; at half the step " << discretisation.position << ", " << discretisation.axis
              << "; K~ +1 %: " << anisotropy.position << ", " << anisotropy.axis << "; alignment " << oa.alignment
              << ", contacts " << oa.particle_contacts << " + " << oa.wall_contacts);
    // Tolerance: the scenes' inputs differ by the rounding of each derived parameter (~1e-16) and every
    // product is rounded differently; 4000 steps of a dissipative map accumulate that to ~1e-12
    // (measured: 9e-13 in r / R_av, 2e-13 in the axes for either law). 1e-10 leaves a factor 100 for
    // other compilers and flags, and lies 5 orders below the discretisation error at this step (~5e-5)
    // and the effect of K~ + 1 % (~5e-3 in the axes).
    CHECK(same.position < 1e-10);
    CHECK(same.axis < 1e-10);
    CHECK(discretisation.position > 1e4 * same.position);
    CHECK(discretisation.axis > 1e4 * same.axis);
    CHECK(anisotropy.axis > 1e4 * same.axis);
  }
}
