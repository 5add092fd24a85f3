// Rolling and twisting resistance of the linear and Hertz-Mindlin laws (engine/contact/law_rolling.hpp,
// the EPSD model of Ai et al. 2011 and its twisting analogue): deceleration of a rolling sphere,
// elastic rolling and twisting angles under a torque below the limit, the energy balance and
// angular momentum.

#include "engine/contact/law_rolling.hpp"
#include "engine/core/random.hpp"
#include "tests/engine/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

constexpr double kRollerRadius = 0.5e-3;  // [m]

// A 1 mm sphere (7500 kg/m^3) resting on a floor wall under gravity, at its equilibrium overlap,
// with rolling resistance on. Linear: kn = 1e5 N/m per material (5e4 in series with the wall),
// ks = 1e3; Hertz-Mindlin: E = 1e9 Pa. Normal and shear dashpots damp the contact's own vibrations.
Preset floor_scene(ContactLaw law) {
  Preset p = bare_preset();
  Material& m = p.materials[0];
  m.kn = 1e5;
  m.ks = 1e3;
  m.friction = 0.5;
  p.contact.law = law;
  p.contact.linear.dp_nratio = 0.7;
  p.contact.linear.dp_sratio = 0.5;
  p.contact.hertz_mindlin.damping_ratio_n = 0.7;
  p.contact.hertz_mindlin.damping_ratio_t = 0.5;
  p.contact.rolling.enabled = true;
  p.contact.rolling.rolling_friction = 0.05;
  p.contact.rolling.twisting_friction = 0.05;
  p.environment.gravity = Vec3(0, 0, -kGravity);
  p.box.z_min = SideKind::Wall;
  p.integrator.time_step = 5e-6;  // w dt <= 0.2 for the stiffest mode (linear normal)
  const double weight = m.density * sphere_volume(kRollerRadius) * kGravity;
  double overlap;
  if (law == ContactLaw::Linear) {
    overlap = weight / (0.5 * m.kn);
  } else {
    const double e_star = mix_materials(m, m).e_star;
    overlap = std::pow(3.0 * weight / (4.0 * e_star * std::sqrt(kRollerRadius)), 2.0 / 3.0);
  }
  p.particles.particles = {sphere(Vec3(0, 0, p.box.min.z() + kRollerRadius - overlap), kRollerRadius)};
  return p;
}

double overlap_of(const Session& session) {
  return kRollerRadius - (session.state().particles.position[0].z() - session.model().box.min.z());
}

// k_n of the floor contact: the linear pair stiffness, or the Hertz tangent 2 E* sqrt(R delta).
double normal_stiffness(const Preset& p, double overlap) {
  const PairCoefficients c = mix_materials(p.materials[0], p.materials[0]);
  return p.contact.law == ContactLaw::Linear ? c.kn : 2.0 * c.e_star * std::sqrt(kRollerRadius * overlap);
}

const char* name(ContactLaw law) {
  return law == ContactLaw::Linear ? "linear" : "Hertz-Mindlin";
}

}  // namespace

TEST_CASE("rolling: a sphere rolling on a floor decelerates as the rolling friction says", "[rolling]") {
  // Rolling without slip on the floor, the rolling torque at its limit M = mu_r R* f_n (R* = R for a
  // wall, f_n = m g): m dv/dt = F_t and I dw/dt = -l F_t - M with the force at the contact point
  // (lever l = R - delta/2) and v = w l, so dv/dt = -M l / (I + m l^2) = -mu_r g R l / (2/5 R^2 + l^2),
  // = -5/7 mu_r g for l = R. The contact's vibrations (normal bounce, shear spring) are damped within
  // ~1 ms; the plastic torque is then exactly M, so the slope between 5 and 45 ms matches to the
  // residue of those transients (measured 1e-6; bound 1e-4).
  for (ContactLaw law : {ContactLaw::Linear, ContactLaw::HertzMindlin}) {
    INFO(name(law));
    Preset p = floor_scene(law);
    const double v0 = 0.04;
    const double delta = kRollerRadius - p.particles.particles[0].position.z() + p.box.min.z();
    const double lever = kRollerRadius - 0.5 * delta;
    p.particles.particles[0].velocity = Vec3(v0, 0, 0);
    p.particles.particles[0].angular_velocity = Vec3(0, v0 / lever, 0);
    Session session(p);
    const double mu_r = p.contact.rolling.rolling_friction;
    const double expected =
        -mu_r * kGravity * kRollerRadius * lever / (0.4 * kRollerRadius * kRollerRadius + lever * lever);
    REQUIRE(expected == Approx(-5.0 / 7.0 * mu_r * kGravity).epsilon(1e-3));
    const double dt = session.model().time_step;
    const auto steps_1 = static_cast<std::int64_t>(std::llround(0.005 / dt));
    const auto steps_2 = static_cast<std::int64_t>(std::llround(0.045 / dt));
    run_checked(session, steps_1);
    const double v1 = session.state().particles.velocity[0].x(), t1 = session.state().time;
    // The rolling spring starts unloaded, so its dashpot brakes the spin for the first steps and the
    // contact point slides for a few steps (25 us with Hertz-Mindlin, whose tangential force is bounded by
    // Coulomb's limit, dashpot included); after that it rolls.
    const std::uint64_t start_up_slips = session.state().events.total(EventKind::SlipStarted);
    run_checked(session, steps_2 - steps_1);
    const Particles& s = session.state().particles;
    const double v2 = s.velocity[0].x(), t2 = session.state().time;
    const double slope = (v2 - v1) / (t2 - t1);
    std::printf("[figure] rolling friction (%s): dv/dt = %.6f m/s^2, closed form %.6f, v(45 ms) = %.5f m/s\n",
                name(law), slope, expected, v2);
    REQUIRE(v2 > 0.3 * v0);  // still rolling
    CHECK(slope == Approx(expected).epsilon(1e-4));
    // Rolling, not sliding: the contact point is at rest, w l = v.
    CHECK(s.angular_velocity[0].y() * (kRollerRadius - 0.5 * overlap_of(session)) == Approx(v2).epsilon(1e-4));
    CHECK(start_up_slips <= 1);
    CHECK(session.state().events.total(EventKind::SlipStarted) == start_up_slips);
  }
}

TEST_CASE("rolling: a torque below the limit turns the sphere by M / k_r (rolling) and M / k_t (twisting)",
          "[rolling]") {
  // A uniform field B on a moment m fixed in the sphere gives the torque m x B. Moment along z and B
  // along x: torque m B about y, a rolling torque on the floor contact; moment along x and B along y:
  // torque about z, the normal, a twisting torque. At rest no force acts along the floor (the field
  // is uniform), so the shear spring is relaxed and the contact spring alone balances the torque:
  // k_r theta = m B cos theta (the moment turns with the sphere), theta = M / k_r up to theta^2 ~ 1e-10.
  // k_r = kappa_r k_n mu_r^2 R*^2 (R* = R on a wall), likewise k_t. M is half the limit mu R m g.
  // Global viscous damping and the contact dashpots settle the motion (rates ~1e3/s, 0.1 s run).
  for (ContactLaw law : {ContactLaw::Linear, ContactLaw::HertzMindlin}) {
    for (bool twisting : {false, true}) {
      INFO(name(law) << (twisting ? ", twisting" : ", rolling"));
      Preset p = floor_scene(law);
      p.environment.translational_damping = 1e-4;
      p.environment.rotational_damping = 1e-4;
      const RollingParameters& rp = p.contact.rolling;
      const double mass = p.materials[0].density * sphere_volume(kRollerRadius);
      const double mu = twisting ? rp.twisting_friction : rp.rolling_friction;
      const double torque = 0.5 * mu * kRollerRadius * mass * kGravity;
      const double moment = 1e-3;
      p.particles.particles[0].moment = moment;
      p.particles.particles[0].axis = twisting ? Vec3::UnitX() : Vec3::UnitZ();
      p.field.strength = torque / moment;
      p.field.direction = twisting ? Vec3::UnitY() : Vec3::UnitX();
      Session session(p);
      run_checked(session, 20000);
      const Quat q = session.state().particles.orientation[0];
      const Vec3 axis = twisting ? Vec3::UnitZ() : Vec3::UnitY();
      const double angle = 2.0 * std::atan2(q.vec().dot(axis), q.w());
      const double kn = normal_stiffness(p, overlap_of(session));
      const double kappa = twisting ? rp.twisting_stiffness : rp.rolling_stiffness;
      const double k = kappa * kn * mu * mu * kRollerRadius * kRollerRadius;
      std::printf("[figure] elastic %s angle (%s): %.6e rad, M / k = %.6e rad\n", twisting ? "twisting" : "rolling",
                  name(law), angle, torque / k);
      CHECK(angle == Approx(torque / k).epsilon(1e-6));
      // Never at the limit: no plastic loss (the sticking shear spring books round-off only).
      CHECK(std::abs(session.state().energy.dissipated_friction) < 1e-9 * torque * angle);
    }
  }
}

namespace {

// A sphere resting on the floor at its equilibrium overlap, pushed sideways and spun about all three
// axes: the rolling and twisting springs load, reach their limits and turn plastic while the sphere
// rolls and spins down. Friction 10 keeps the shear spring sticking, so all friction loss is plastic
// rolling or twisting; rolling dashpots on, normal and shear dashpots off.
Preset spun_sphere(ContactLaw law) {
  Preset p = floor_scene(law);
  p.materials[0].friction = 10.0;
  p.contact.linear.dp_nratio = p.contact.linear.dp_sratio = 0.0;
  p.contact.hertz_mindlin.damping_ratio_n = p.contact.hertz_mindlin.damping_ratio_t = 0.0;
  p.contact.rolling.damping_ratio = 0.2;
  p.integrator.time_step.reset();
  p.particles.particles[0].velocity = Vec3(0.002, 0, 0);
  p.particles.particles[0].angular_velocity = Vec3(3.0, -2.0, 5.0);
  return p;
}

}  // namespace

TEST_CASE("rolling: the energy balance with plastic rolling and twisting is second order in dt",
          "[rolling][conservation]") {
  // The rolling and twisting springs are booked like the shear spring (trapezoid work of the applied
  // torques, stiffness work, plastic loss), their dashpots like the force dashpots (trapezoid against
  // the relative angular velocity). Then kinetic + elastic + gravity + dissipated - stiffness work is
  // constant up to the integrator's O(dt^2): checked by the ratio from dt to dt/4 (16 for second
  // order, 4 for first; > 8 required) and bounded by (w dt)^2 of the largest kinetic energy
  // (test_conservation.cpp: a harmonic mode errs by 1/4 (w dt)^2 of its energy; the sphere stays on
  // the floor, so no contact opens or closes).
  for (ContactLaw law : {ContactLaw::Linear, ContactLaw::HertzMindlin}) {
    INFO(name(law));
    const Preset p = spun_sphere(law);
    const Session probe(p);
    const double dt = probe.model().time_step / 10.0;
    const double omega_dt = probe.model().advice.omega_max * dt;
    double errors[2] = {0.0, 0.0}, k_max = 0.0;
    Observables end;
    for (int k = 0; k < 2; ++k) {
      Preset pk = p;
      const double step = k == 0 ? dt : dt / 4.0;
      pk.integrator.time_step = step;
      Session session(pk);
      const double b0 = session.observe().energy_balance();
      const std::int64_t steps = k == 0 ? 20000 : 80000;
      for (std::int64_t n = 0; n < steps; ++n) {
        run_checked(session, 1);
        const Observables o = session.observe();
        errors[k] = std::max(errors[k], std::abs(o.energy_balance() - b0));
        k_max = std::max(k_max, o.kinetic());
      }
      if (k == 0) end = session.observe();
      REQUIRE(session.state().events.total(EventKind::SlipStarted) == 0);
    }
    const double bound = omega_dt * omega_dt * k_max;
    std::printf(
        "[figure] rolling energy balance (%s): max error %.3e J at dt (bound %.3e), %.3e at dt/4, ratio %.1f; "
        "plastic loss %.3e J, rolling dashpots %.3e J, K_max %.3e J\n",
        name(law), errors[0], bound, errors[1], errors[0] / errors[1], end.dissipated_friction, end.dissipated_dashpot,
        k_max);
    CHECK(end.dissipated_friction > 1e-3 * k_max);  // plastic rolling / twisting happened
    CHECK(end.dissipated_dashpot > 1e-3 * k_max);   // and the rolling dashpots worked
    CHECK(errors[0] < bound);
    CHECK(errors[0] / errors[1] > 8.0);
  }
}

TEST_CASE("rolling: an isolated cluster with rolling resistance conserves angular momentum to round-off",
          "[rolling][conservation]") {
  // The rolling and twisting torques are couples (+M on i, -M on j), the forces act at one contact
  // point on both bodies: sum (r x F + T) = 0 pair by pair, and velocity Verlet keeps L to
  // round-off (test_conservation.cpp). Bound n N eps, n = 3000 steps, N = 6 spheres.
  for (ContactLaw law : {ContactLaw::Linear, ContactLaw::HertzMindlin}) {
    INFO(name(law));
    Preset p = bare_preset();
    p.materials[0].friction = 0.5;
    p.materials[0].youngs_modulus = 1e7;
    p.contact.law = law;
    p.contact.linear.dp_nratio = p.contact.linear.dp_sratio = 0.2;
    p.contact.hertz_mindlin.damping_ratio_n = p.contact.hertz_mindlin.damping_ratio_t = 0.2;
    p.contact.rolling.enabled = true;
    p.contact.rolling.rolling_friction = 0.3;
    p.contact.rolling.twisting_friction = 0.3;
    Random rng(21);
    const Vec3 origin(0.003, -0.002, 0.001);
    for (int k = 0; k < 6; ++k) {
      // A row of touching spheres along x, slightly overlapping, converging and spinning.
      ParticleEntry e = sphere(origin + Vec3(k * (2.0 * kRollerRadius - 1e-6), 0, 0), kRollerRadius,
                               0.01 * Vec3(rng.normal(), rng.normal(), rng.normal()));
      e.angular_velocity = 20.0 * Vec3(rng.normal(), rng.normal(), rng.normal());
      p.particles.particles.push_back(e);
    }
    Session session(p);
    const Observables o0 = session.observe();
    double dl = 0.0, scale = 0.0, spin_change = 0.0;
    Vec3 spin0 = Vec3::Zero();
    for (size_t i = 0; i < 6; ++i)
      spin0 += session.state().particles.inertia[i] * session.state().particles.angular_velocity[i];
    for (int n = 0; n < 3000; ++n) {
      run_checked(session, 1);
      const Particles& s = session.state().particles;
      double ls = 0.0;
      Vec3 spin = Vec3::Zero();
      for (size_t i = 0; i < s.size(); ++i) {
        ls += (s.mass[i] * s.position[i].cross(s.velocity[i]) + s.inertia[i] * s.angular_velocity[i]).norm();
        spin += s.inertia[i] * s.angular_velocity[i];
      }
      scale = std::max(scale, ls);
      dl = std::max(dl, (session.observe().angular_momentum - o0.angular_momentum).norm());
      spin_change = std::max(spin_change, (spin - spin0).norm());
    }
    const Observables o = session.observe();
    std::printf(
        "[figure] rolling cluster (%s): |dL|/sum|L_i| = %.2e, spin exchanged %.2e, friction loss %.3e J, "
        "dashpots %.3e J\n",
        name(law), dl / scale, spin_change / scale, o.dissipated_friction, o.dissipated_dashpot);
    CHECK(o.dissipated_friction > 0.0);
    CHECK(spin_change / scale > 1e-3);
    CHECK(dl / scale < 3000 * 6 * kEps);
  }
}

TEST_CASE("rolling: the EPSD springs, limits and dashpots of one contact", "[rolling]") {
  // Two spheres (R = 0.5 and 1 mm, m = 1e-5 and 2e-5 kg) in contact along a tilted normal, turning
  // against each other with w_i - w_j = w. After one step dt from a fresh contact: rolling angle
  // theta_r = (w - (w.n) n) dt, twist theta_t = (w.n) dt; elastic torques -k_r theta_r and -k_t theta_t n
  // with k = kappa k_n mu^2 R*^2; dashpots -2 beta sqrt(I k) times the rolling / twisting rate,
  // I_r from the contact-point inertias in series, I_t from the centre inertias in series. With a
  // small normal force the limits cut in: |M_r| = mu_r R* f_n, no rolling dashpot, and the spring
  // angle is shortened to the limit.
  RollingParameters law;
  law.enabled = true;
  law.rolling_friction = 0.2;
  law.twisting_friction = 0.1;
  law.rolling_stiffness = 2.0;
  law.twisting_stiffness = 3.0;
  law.damping_ratio = 0.4;
  const double ri = 0.5e-3, rj = 1e-3, mi = 1e-5, mj = 2e-5;
  const double ii = 0.4 * mi * ri * ri, ij = 0.4 * mj * rj * rj;
  const Vec3 n = Vec3(1, 2, 2).normalized();
  const double distance = ri + rj - 1e-7;
  const Vec3 wi(3, -1, 2), wj(-1, 0.5, 1);
  const ContactGeometry g =
      sphere_sphere_geometry(distance * n, distance, ri, rj, Vec3::Zero(), Vec3::Zero(), wi, wj, mi, mj, ii, ij);
  const double r_star = ri * rj / (ri + rj), kn = 1e4, dt = 1e-6;
  const double kr = 2.0 * kn * 0.04 * r_star * r_star, kt = 3.0 * kn * 0.01 * r_star * r_star;
  const Vec3 w = wi - wj;
  const Vec3 w_roll = w - w.dot(n) * n;
  const double w_twist = w.dot(n);
  const double inertia_r = 1.0 / (1.0 / (ii + mi * ri * ri) + 1.0 / (ij + mj * rj * rj));
  const double inertia_t = 1.0 / (1.0 / ii + 1.0 / ij);

  SECTION("below the limits") {
    RollingHistory h;
    const double fn = 10.0;  // limits mu R* f_n ~ 7e-4 N m, far above the spring torques
    const RollingResponse r = rolling_resistance(law, g, fn, kn, h, dt, true);
    const Vec3 spring = -kr * w_roll * dt - kt * w_twist * dt * n;
    const Vec3 dashpot = -2.0 * 0.4 * (std::sqrt(inertia_r * kr) * w_roll + std::sqrt(inertia_t * kt) * w_twist * n);
    CHECK((r.couple - spring - dashpot).norm() < 1e-12 * r.couple.norm());
    CHECK((r.dashpot_couple - dashpot).norm() < 1e-12 * dashpot.norm());
    CHECK((h.rolling - w_roll * dt).norm() < 1e-15);
    CHECK(h.twisting == Approx(w_twist * dt).epsilon(1e-12));
    CHECK(r.elastic_energy ==
          Approx(0.5 * kr * (w_roll * dt).squaredNorm() + 0.5 * kt * std::pow(w_twist * dt, 2)).epsilon(1e-12));
    CHECK(r.slip_loss == Approx(0.0).margin(1e-12 * r.elastic_energy));
    CHECK_FALSE(r.rolling_limited);
    CHECK_FALSE(r.twisting_limited);
  }
  SECTION("at the limits") {
    RollingHistory h;
    const double fn = 1e-7;  // limits ~1e-11 N m, below the spring torques after one step (~1e-10)
    const RollingResponse r = rolling_resistance(law, g, fn, kn, h, dt, true);
    const double mr = 0.2 * r_star * fn, mt = 0.1 * r_star * fn;
    CHECK(r.rolling_limited);
    CHECK(r.twisting_limited);
    CHECK(r.dashpot_couple.norm() == 0.0);
    const Vec3 expected = -mr * w_roll.normalized() - mt * (w_twist > 0 ? 1.0 : -1.0) * n;
    CHECK((r.couple - expected).norm() < 1e-12 * expected.norm());
    CHECK(kr * h.rolling.norm() == Approx(mr).epsilon(1e-12));
    CHECK(kt * std::abs(h.twisting) == Approx(mt).epsilon(1e-12));
    // The loss, booked as for the shear spring: the work of the step's rotation on the spring with
    // the torque as the integrator applies it (trapezoid from 0 at the fresh contact to the limit
    // torque: 1/2 M_lim |theta_trial|) minus the energy the spring keeps, 1/2 M_lim^2 / k.
    const double expected_loss =
        0.5 * mr * (w_roll * dt).norm() - 0.5 * mr * mr / kr + 0.5 * mt * std::abs(w_twist * dt) - 0.5 * mt * mt / kt;
    CHECK(r.slip_loss == Approx(expected_loss).epsilon(1e-9));
  }
}
