#include "engine/contact/law_sand.hpp"

#include <algorithm>
#include <cmath>

namespace lodestone {

SandConstants sand_constants(const SandParameters& law, const PairCoefficients& pair, double effective_radius) {
  SandConstants c;
  const double r = effective_radius;
  const double gamma = pair.surface_energy;
  c.pull_off = 3.0 * pi * gamma * r;
  c.contact_radius = std::cbrt(9.0 * pi * gamma * r * r / pair.e_star);
  const double a = c.contact_radius;
  c.k_sliding = 8.0 * pair.g_star * a;
  c.k_rolling = r > 0.0 ? 4.0 * c.pull_off / r : 0.0;
  c.k_twisting = 16.0 / 3.0 * pair.g_torsion * a * a * a;
  c.break_separation = law.break_separation.value_or(r > 0.0 ? a * a / (2.0 * std::cbrt(6.0) * r) : 0.0);
  return c;
}

double sand_normal_force(const PairCoefficients& pair, const SandConstants& c, double effective_radius,
                         double overlap) {
  const double s = overlap;
  if (s >= 0.0) return 4.0 / 3.0 * pair.e_star * std::sqrt(effective_radius) * s * std::sqrt(s) - c.pull_off;
  if (s >= -c.break_separation) return -c.pull_off * (1.0 + s / c.break_separation);
  return 0.0;
}

double sand_normal_energy(const PairCoefficients& pair, const SandConstants& c, double effective_radius,
                          double overlap) {
  const double s = std::max(overlap, -c.break_separation);
  if (s >= 0.0) return 8.0 / 15.0 * pair.e_star * std::sqrt(effective_radius) * s * s * std::sqrt(s) - c.pull_off * s;
  return -c.pull_off * s - 0.5 * c.pull_off * s * s / c.break_separation;  // s < 0 needs s_b > 0
}

namespace {

Vec3 wrap(Vec3 d, const Vec3& periodic_length) {
  for (int a = 0; a < 3; ++a)
    if (periodic_length[a] > 0.0) d[a] -= periodic_length[a] * std::nearbyint(d[a] / periodic_length[a]);
  return d;
}

// The pointers in the world frame and the configuration they are measured against.
struct World {
  Vec3 p1, p2, q1, q2;  // eq. 42; a wall: p2 = wall point - r_i (minimum image)
  Vec3 separation;      // r_i - r_j (pair)
  Vec3 e;               // eq. 44; a wall: its normal
  bool wall = false;
};

World to_world(const ContactGeometry& g, const SandBodies& b, const SandPointers& ptr) {
  World w;
  w.wall = b.wall;
  w.e = g.normal;
  w.p1 = b.orientation_i * ptr.p1;
  w.q1 = b.orientation_i * ptr.q1;
  if (b.wall) {
    w.p2 = wrap(ptr.p2 - b.position_i, b.periodic_length);
    w.q2 = ptr.q2;
  } else {
    w.p2 = b.orientation_j * ptr.p2;
    w.q2 = b.orientation_j * ptr.q2;
    w.separation = b.separation;
  }
  return w;
}

// delta = r_j + p2 - r_i - p1 (eq. 43); for a wall r_j + p2 is the wall point, r_i + p2 here.
Vec3 delta_of(const World& w) {
  return w.wall ? Vec3(w.p2 - w.p1) : Vec3(w.p2 - w.p1 - w.separation);
}

// xi (eq. 47) as minus the foot of the perpendicular from the origin onto the line through the tips
// of p1 and p2; a wall: that line is along the normal.
Vec3 rolling_of(const World& w) {
  if (w.wall) return -(w.p1 - w.p1.dot(w.e) * w.e);
  const Vec3 u = (w.p2 - w.p1).normalized();
  return -(w.p1 - w.p1.dot(u) * u);
}

double twist_sine(const World& w) {
  return std::clamp(w.q1.cross(w.q2).dot(w.e), -1.0, 1.0);
}

// Spring energies, and optionally the forces and torques as exact derivatives of them.
struct Springs {
  double sliding = 0.0, rolling = 0.0, twisting = 0.0;    // [J]
  Vec3 force_i = Vec3::Zero();                            // [N] on i
  Vec3 torque_i = Vec3::Zero(), torque_j = Vec3::Zero();  // [N m] (the stage uses torque_i; see sand_contact)
  double total() const { return sliding + rolling + twisting; }
};

Springs springs(const World& w, const SandConstants& c, bool with_gradient) {
  Springs out;
  const Vec3& e = w.e;
  // Sliding: 1/2 k_s |delta - (delta.e) e|^2.
  const Vec3 delta = delta_of(w);
  const double delta_n = delta.dot(e);
  const Vec3 slide = delta - delta_n * e;
  out.sliding = 0.5 * c.k_sliding * slide.squaredNorm();
  // Rolling: 1/2 k_r |xi|^2 with |xi|^2 = |p1|^2 - (p1.u)^2.
  double length = 0.0, p1_along = 0.0;
  Vec3 xi;
  if (w.wall) {
    xi = -(w.p1 - w.p1.dot(e) * e);
  } else {
    const Vec3 d = w.p2 - w.p1;
    length = d.norm();
    const Vec3 u = d / length;
    p1_along = w.p1.dot(u);
    xi = -(w.p1 - p1_along * u);
  }
  out.rolling = 0.5 * c.k_rolling * xi.squaredNorm();
  // Twisting: 1/2 k_t alpha^2, alpha = arcsin x, x = (q1 x q2) . e.
  const double x = twist_sine(w);
  const double alpha = std::asin(x);
  out.twisting = 0.5 * c.k_twisting * alpha * alpha;
  if (!with_gradient) return out;

  // Gradients with respect to the world vectors. A rotation dtheta of body i moves each vector v
  // fixed in it by dtheta x v, so its torque is -sum v x dU/dv; the force is -dU/dr_i.
  const Vec3 g_slide = c.k_sliding * slide;  // dU/d delta at fixed e
  Vec3 du_dp1 = -g_slide, du_dp2 = g_slide;
  Vec3 du_de = -c.k_sliding * delta_n * delta;  // d/de of -(delta.e)^2 k_s / 2
  if (w.wall) {
    du_dp1 -= c.k_rolling * xi;  // d/dp1 1/2 k_r |p1 - (p1.e) e|^2 = -k_r xi
  } else {
    // d|xi|^2/dp1 = -2 xi (1 + (p1.u)/L), d|xi|^2/dp2 = 2 xi (p1.u)/L, L = |p2 - p1|.
    du_dp1 -= c.k_rolling * (1.0 + p1_along / length) * xi;
    du_dp2 += c.k_rolling * (p1_along / length) * xi;
  }
  const double cos_alpha = std::sqrt(std::max(1.0 - x * x, 1e-300));
  const double du_dx = c.k_twisting * alpha / cos_alpha;
  const Vec3 du_dq1 = du_dx * w.q2.cross(e);
  const Vec3 du_dq2 = du_dx * e.cross(w.q1);
  du_de += du_dx * w.q1.cross(w.q2);

  // Force on i: delta depends on r_i with -1 (pair: delta = p2 - p1 - (r_i - r_j); wall: w - r_i - p1);
  // for a pair e = (r_i - r_j)/|r_i - r_j| too, de/dr_i = (1 - e e^T)/d.
  out.force_i = g_slide;
  if (!w.wall) out.force_i -= (du_de - du_de.dot(e) * e) / w.separation.norm();
  out.torque_i = -(w.p1.cross(du_dp1) + w.q1.cross(du_dq1));
  if (!w.wall) out.torque_j = -(w.p2.cross(du_dp2) + w.q2.cross(du_dq2));
  return out;
}

// Which degrees of freedom a contact moved in.
struct Moves {
  bool slid = false, rolled = false, twisted = false;
  bool any() const { return slid || rolled || twisted; }
};

// Moves the pointers so that no displacement exceeds its critical value (App. A.6).
Moves move_contact(const SandParameters& law, World& w) {
  Moves m;
  // Sliding: both pointer tips follow the excess D, shared in proportion to the pointers' lengths,
  // so that a contact without rolling keeps xi = 0 (the line through the tips still passes the origin).
  const Vec3 delta = delta_of(w);
  const Vec3 slide = delta - delta.dot(w.e) * w.e;
  const double slide_norm = slide.norm();
  if (slide_norm > law.sliding_limit) {
    const Vec3 excess = slide * (1.0 - law.sliding_limit / slide_norm);
    if (w.wall) {
      w.p2 -= excess;  // the wall point follows; xi does not depend on it
    } else {
      const double l1 = w.p1.norm(), l2 = w.p2.norm();
      w.p1 += (l1 / (l1 + l2)) * excess;
      w.p2 -= (l2 / (l1 + l2)) * excess;
    }
    m.slid = true;
  }
  // Rolling: both tips move by the same W (perpendicular to the line through them): delta is
  // unchanged and xi drops by W exactly.
  const Vec3 xi = rolling_of(w);
  const double xi_norm = xi.norm();
  if (xi_norm > law.rolling_limit) {
    const Vec3 excess = xi * (1.0 - law.rolling_limit / xi_norm);
    w.p1 += excess;
    w.p2 += excess;
    m.rolled = true;
  }
  // Twisting: q1, q2 back into the contact plane at -/+ alpha_crit/2 about their bisector b, so
  // that (q1 x q2) . e = sin(alpha_crit) with the sign of the twist.
  const double alpha = std::asin(twist_sine(w));
  if (std::abs(alpha) > law.twisting_limit) {
    const Vec3 a1 = (w.q1 - w.q1.dot(w.e) * w.e).normalized();
    const Vec3 a2 = (w.q2 - w.q2.dot(w.e) * w.e).normalized();
    Vec3 b = a1 + a2;
    b = b.squaredNorm() > 1e-20 ? Vec3(b.normalized()) : any_perpendicular(w.e);
    const Vec3 side = w.e.cross(b);
    const double half = 0.5 * std::copysign(law.twisting_limit, alpha);
    w.q1 = std::cos(half) * b - std::sin(half) * side;
    w.q2 = std::cos(half) * b + std::sin(half) * side;
    m.twisted = true;
  }
  return m;
}

}  // namespace

SandDisplacements sand_displacements(const ContactGeometry& g, const SandBodies& b, const SandPointers& pointers) {
  const World w = to_world(g, b, pointers);
  SandDisplacements d;
  d.p1 = w.p1;
  d.p2 = w.p2;
  d.q1 = w.q1;
  d.q2 = w.q2;
  d.axis = w.e;
  d.delta = delta_of(w);
  d.pulling = d.delta.dot(w.e) * w.e;
  d.sliding = d.delta - d.pulling;
  d.rolling = rolling_of(w);
  d.twisting_angle = std::asin(twist_sine(w));
  // Eq. 49, the angle between p1 and -p2, taken with atan2 (arccos loses half the digits near 0).
  const Vec3 tip2 = w.wall ? w.e : w.p2;
  d.rolling_angle = std::atan2(w.p1.cross(-tip2).norm(), w.p1.dot(-tip2));
  return d;
}

ContactResponse sand_contact(const SandParameters& law, const PairCoefficients& pair, const ContactGeometry& g,
                             const SandBodies& b, ContactHistory& h, LawState& law_state, bool newly_active,
                             double dt) {
  const double r = g.effective_radius;
  const SandConstants c = sand_constants(law, pair, r);
  const Quat to_body_i = b.orientation_i.conjugate();
  const Quat to_body_j = b.orientation_j.conjugate();

  // Pointers are formed when the contact forms, or when it was made under another law before a
  // parameter edit switched to this one (the record then holds no pointers).
  SandPointers* pointers = std::get_if<SandPointers>(&law_state);
  if (newly_active || !pointers) {
    // Contact pointers to the contact point and a unit vector normal to the line of centres, each
    // kept in its body's frame (App. A.5).
    pointers = &law_state.emplace<SandPointers>();
    const Vec3 q = any_perpendicular(g.normal);
    pointers->p1 = to_body_i * g.lever_i;
    pointers->q1 = to_body_i * q;
    if (b.wall) {
      pointers->p2 = b.position_i + g.lever_i;
      pointers->q2 = q;
    } else {
      pointers->p2 = to_body_j * g.lever_j;
      pointers->q2 = to_body_j * q;
    }
  }
  SandPointers& ptr = *pointers;

  ContactResponse out;
  const World trial_world = to_world(g, b, ptr);
  World w = trial_world;
  const Moves moved = move_contact(law, w);
  h.slipping = moved.slid;
  Springs trial;
  if (moved.any()) {
    trial = springs(trial_world, c, true);
    // New equilibrium position of the contact: store the moved pointers in the body frames.
    ptr.p1 = to_body_i * w.p1;
    ptr.q1 = to_body_i * w.q1;
    if (b.wall) {
      ptr.p2 = b.position_i + w.p2;
      ptr.q2 = w.q2;
    } else {
      ptr.p2 = to_body_j * w.p2;
      ptr.q2 = to_body_j * w.q2;
    }
    w = to_world(g, b, ptr);  // the forces see exactly what the next step will start from
  }
  const Springs now = springs(w, c, true);
  if (moved.any()) {
    // The loss is the work the motion did on the springs minus the change of their energy, with the
    // work as velocity Verlet applies the forces: the trapezoid of the force of the last step and
    // the (moved) force of this one over this step's relative motion. Against the trial energy (the
    // unmoved pointers), whose change is the trapezoid with the trial force to O(dt^3), that is
    //   loss = U_trial - U_moved + dt/2 [(F_trial - F_moved) . v_c + (C_trial - C_moved) . w_rel];
    // booking U_trial - U_moved alone overcounts by 1/2 k (v dt)^2 per step of steady sliding,
    // an error of first order in dt. With dt = 0 (a static release) the two agree.
    const Vec3 couple_trial = trial.torque_i - g.lever_i.cross(trial.force_i);
    const Vec3 couple_now = now.torque_i - g.lever_i.cross(now.force_i);
    out.slip_loss = trial.total() - now.total() +
                    0.5 * dt *
                        ((trial.force_i - now.force_i).dot(g.relative_velocity) +
                         (couple_trial - couple_now).dot(g.relative_angular_velocity));
  }

  // Normal force along e (repulsive > 0), Hertz plus the adhesive pull.
  const double fn = sand_normal_force(pair, c, r, g.overlap) - (g.first_sample_weight - 1.0) * c.pull_off;
  // Dashpots: the normal one with the Hertz tangent stiffness 2 E* a, a at least the adhesive contact
  // radius a0 (an adhesive contact keeps a finite area at zero load).
  const double a = std::max(c.contact_radius, std::sqrt(r * std::max(g.overlap, 0.0)));
  const double fn_damp = -2.0 * law.damping_ratio_n * std::sqrt(g.effective_mass * 2.0 * pair.e_star * a) *
                         g.dashpot_normal_velocity * g.first_sample_weight;
  const Vec3 ft_damp = -2.0 * law.damping_ratio_t * std::sqrt(g.effective_mass * c.k_sliding) * g.first_sample_weight *
                       g.dashpot_tangential_velocity;

  out.dashpot_force = fn_damp * g.normal + ft_damp;
  out.force = fn * g.normal + now.force_i + out.dashpot_force;
  // The spring torque on i is lever_i x F_springs + couple; j gets -lever_j x F_springs - couple,
  // which equals its own derivative torque (now.torque_j) because U is rotation invariant.
  out.couple = now.torque_i - g.lever_i.cross(now.force_i);
  out.elastic_energy = sand_normal_energy(pair, c, r, g.overlap) + now.total();
  out.normal_force_elastic = fn;
  out.normal_stiffness = 2.0 * pair.e_star * a;
  return out;
}

SandBreak sand_break(const SandParameters& law, const PairCoefficients& pair, const ContactGeometry& g,
                     const SandBodies& b, const ContactHistory& h, const LawState& law_state, double dt, bool verlet) {
  const SandConstants c = sand_constants(law, pair, g.effective_radius);
  SandBreak out;
  out.lost = sand_normal_energy(pair, c, g.effective_radius, g.overlap);
  const SandPointers* ptr = std::get_if<SandPointers>(&law_state);
  const Springs now = ptr ? springs(to_world(g, b, *ptr), c, verlet) : Springs{};
  out.lost += now.total();
  if (!verlet) return out;
  const double s = exit_fraction(-g.overlap - c.break_separation, g.normal_velocity * dt);
  const Vec3 couple = now.torque_i - g.lever_i.cross(now.force_i);
  out.lost += (1.0 - s) * dt * (now.force_i.dot(g.relative_velocity) + couple.dot(g.relative_angular_velocity));
  out.made_up.dashpot_force = (s - 0.5) * h.dashpot_force;
  out.made_up.force = (s - 0.5) * now.force_i + out.made_up.dashpot_force;
  out.made_up.couple = (s - 0.5) * couple;
  return out;
}

}  // namespace lodestone
