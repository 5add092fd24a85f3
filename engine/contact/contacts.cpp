#include "engine/contact/contacts.hpp"

#include "engine/contact/contact_geometry.hpp"
#include "engine/contact/law_hertz_coulomb.hpp"
#include "engine/contact/law_hertz_mindlin.hpp"
#include "engine/contact/law_linear.hpp"
#include "engine/contact/law_rolling.hpp"
#include "engine/contact/law_sand.hpp"

#include <algorithm>
#include <cstdint>

namespace lodestone {
namespace {

struct ContactTotals {
  double elastic = 0.0;
  double dashpot_energy = 0.0;
  double slip_loss = 0.0;
  double stiffness_work = 0.0;

  void add(const ContactTotals& o) {
    elastic += o.elastic;
    dashpot_energy += o.dashpot_energy;
    slip_loss += o.slip_loss;
    stiffness_work += o.stiffness_work;
  }
};

// One body's share of a particle-particle contact that acts: the force and torque on it (on the pair's second body,
// the negated force and torque_j: x - y is x + (-y) in every bit). Kept per band of particles (PartResult::bodies).
struct BodyPush {
  Vec3 force, torque;
  std::uint32_t body;
};

// What one thread's share of a contact loop books besides forces; merged in part order. On a cache line of its own:
// every contact adds to its part's totals and pushes, and parts side by side run on different cores.
struct alignas(64) PartResult {
  ContactTotals totals;
  std::vector<Event> events;
  std::array<Vec3, 6> wall_force{};  // wall loop only
  // Pair loop only: the bodies of its contacts that act, by band of particles (ParticleBands), in pair order in each.
  std::vector<std::vector<BodyPush>> bodies;
  size_t first_too_deep = SIZE_MAX;  // pair loop with a RunawayOverlapWatch only: the part's first such pair
};

// Listed pairs per part at least (the pairs that touch cost 0.1-0.3 us each, the others a comparison): with parts of
// 2 000, (c)'s 28 000 pairs made 14 parts, one a thread on 16 and the largest 1.7x the mean, so that the rehearsal gave
// the pass 6.6x; with parts of 1 000, two a thread, 7.4-7.7x (parts of 500 cost as much in their merging as they save).
constexpr size_t kContactGrain = 1000;
// Particles per part of a wall loop at least: most are far from the side and cost a comparison.
constexpr size_t kWallGrain = 512;

// Whether rolling and twisting resistance acts: a sub-law of the linear and Hertz-Mindlin laws.
bool rolling_resistance_on(const Model& model) {
  const ContactLaw law = model.contact.law;
  return model.contact.rolling.enabled && (law == ContactLaw::Linear || law == ContactLaw::HertzMindlin);
}

// Whether the law keeps a state of its own beside each record (LawState): the rolling springs or the sand pointers.
bool law_keeps_state(const Model& model) {
  return rolling_resistance_on(model) || model.contact.law == ContactLaw::Sand;
}

// The history a pass evaluates a contact on: record k of a table and its law state (none when the law keeps none: the
// law table is then empty), or, for a trial pass, copies of them in `copy`, so that the table stays as it was.
struct HistoryInUse {
  ContactHistory* record;
  LawState* law;
};
struct HistoryCopy {
  ContactHistory record;
  LawState law;
};
HistoryInUse history_of(std::vector<ContactHistory>& records, std::vector<LawState>& laws, size_t k, bool trial,
                        HistoryCopy& copy) {
  HistoryInUse in_use{&records[k], laws.empty() ? nullptr : &laws[k]};
  if (!trial) return in_use;
  copy.record = *in_use.record;
  in_use.record = &copy.record;
  if (in_use.law) {
    copy.law = *in_use.law;
    in_use.law = &copy.law;
  }
  return in_use;
}

// A contact that opens: books the last half step of its dashpots and what its springs still hold, and clears its
// history. Returns true, with the force in `response`, when a force still acts at the opening and is made up in
// this step (law_linear.hpp, linear_exit_dashpot; law_sand.hpp, sand_break).
bool open_contact(const Model& model, const PairCoefficients& pair, const ContactGeometry& g, const SandBodies& bodies,
                  ContactHistory& h, LawState* law_state, double dt, bool verlet, ContactTotals& totals,
                  ContactResponse& response) {
  const ContactLaw law = model.contact.law;
  totals.dashpot_energy -= 0.5 * dt * h.dashpot_force.dot(g.relative_velocity);
  if (const RollingHistory* r = std::get_if<RollingHistory>(law_state))  // none when law_state is null
    totals.dashpot_energy -= 0.5 * dt * r->dashpot_couple.dot(g.relative_angular_velocity);
  // A sand contact that breaks loses what is still stored in it ([Dominik-Nubold] App. A.6).
  OpeningMakeUp made_up;
  if (law == ContactLaw::Sand) {
    const SandBreak broken = sand_break(model.contact.sand, pair, g, bodies, h, *law_state, dt, verlet);
    totals.slip_loss += broken.lost;
    made_up = broken.made_up;
  }
  // Hertz-Coulomb's last friction force (kept in h.shear, evaluate_contact) still acts for a half step.
  if (law == ContactLaw::HertzCoulomb) totals.slip_loss -= 0.5 * dt * h.shear.dot(g.relative_velocity);
  // So does a shear spring that still holds a force: the work of its last half step on it, then its energy
  // (issue 40: LAMMPS's limit mu |fn + fn_d| lets the spring pull while the normal dashpot parts the bodies, and
  // the energy that vanished at each bounce kept the balance of a landing from shrinking with dt).
  if ((law == ContactLaw::Linear || law == ContactLaw::HertzMindlin) && h.shear_stiffness > 0.0) {
    const Vec3 spring = -h.shear_stiffness * h.shear;
    totals.slip_loss += 0.5 * spring.squaredNorm() / h.shear_stiffness - 0.5 * dt * spring.dot(g.relative_velocity);
  }
  if (verlet && law == ContactLaw::Linear && !model.contact.linear.lammps_rules()) {
    made_up.force = linear_exit_dashpot(model.contact.linear, g, h, dt);
    made_up.dashpot_force = made_up.force;
  }
  h = ContactHistory{};
  if (law_state) *law_state = LawState{};
  if (made_up.any()) {
    // A force of this step alone: both half steps of its dashpots' part are booked now (its springs' part is in
    // the energy the break loses).
    totals.dashpot_energy -= dt * made_up.dashpot_force.dot(g.relative_velocity);
    response = ContactResponse{};
    response.force = made_up.force;
    response.couple = made_up.couple;
    response.dashpot_force = made_up.dashpot_force;
    return true;
  }
  return false;
}

// Runs the law on one contact, books its energy and records its events. Returns false when no force acts
// (the contact is inactive). `verlet`: a velocity Verlet step, whose dashpots see predicted velocities;
// then the linear law's dashpot is also weighted in the step its contact forms and made up in the step
// it opens (law_linear.hpp, linear_onset_weight and linear_exit_dashpot), so that the dashpot's jumps
// cost no first-order error.
//
// Velocity Verlet applies a force over two half steps (the end of this step and the start of the
// next), so the dashpot work of a step is the trapezoid of the previous and new dashpot forces
// against the half-step relative velocity; when a contact opens, the half step its last dashpot
// force still acts is booked then. Booking F(v) v dt instead would be wrong to first order in dt.
// Dashpot couples (rolling resistance) are booked the same way against the relative angular velocity.
bool evaluate_contact(const Model& model, const PairCoefficients& pair, ContactGeometry& g, const SandBodies& bodies,
                      ContactHistory& h, LawState* law_state, double dt, bool verlet, std::int64_t step,
                      std::uint64_t id_a, std::uint64_t id_b, PartResult& part, ContactResponse& response) {
  ContactTotals& totals = part.totals;
  const ContactLaw law = model.contact.law;
  const bool rolling = rolling_resistance_on(model);
  bool active = g.overlap > 0.0;
  if (law == ContactLaw::Linear) active = linear_active(model.contact.linear, g);
  if (law == ContactLaw::Sand)
    active = sand_active(sand_constants(model.contact.sand, pair, g.effective_radius), g, h.active);
  if (!active) return h.active && open_contact(model, pair, g, bodies, h, law_state, dt, verlet, totals, response);
  const LinearConvention convention = model.contact.linear.convention;
  const bool lammps = law == ContactLaw::Linear && model.contact.linear.lammps_rules();
  const bool hooke_history = lammps && convention == LinearConvention::GranHookeHistory;
  Vec3 lammps_excess = Vec3::Zero();
  // Torques on the full radii, so no excess to book: gran/hooke/history's rule, and fix wall/gran's in either style
  // (LAMMPS 2022's wall/gran granular takes the radius as the lever where pair granular takes R - delta/2: measured
  // against lmp, the R - delta/2 lever put a sliding wall contact 8e-5 of the displacement off within 100 steps).
  if (hooke_history || (lammps && g.radius_j == 0.0))
    use_full_radius_levers(g);
  else if (lammps)
    lammps_excess = use_lammps_contact_velocity(g);
  if (lammps) verlet = false;  // LAMMPS's dashpots: no onset weight, nothing made up at the opening
  const bool newly_active = !h.active;
  if (newly_active) {
    h = ContactHistory{};
    if (law_state) *law_state = LawState{};
    h.active = true;
    part.events.push_back({step, EventKind::ContactActivated, id_a, id_b});
    if (verlet && law == ContactLaw::Linear) g.first_sample_weight = linear_onset_weight(model.contact.linear, g, dt);
    if (verlet && law == ContactLaw::Sand) g.first_sample_weight = onset_weight(g.overlap, -g.normal_velocity * dt);
  }
  if (verlet) {
    g.dashpot_travel = std::abs(g.dashpot_normal_velocity) * dt;
    g.dashpot_first = newly_active;
  }
  const bool was_slipping = h.slipping;
  if (law == ContactLaw::HertzCoulomb) {
    response = hertz_coulomb_contact(model.contact.hertz_coulomb, pair, g, h);
    // Velocity Verlet applies the friction over two half steps, as a dashpot: its work is the trapezoid of the last
    // and the new force against the half-step velocity. F(v) v dt, booked before, counted a force that flips each step
    // (a contact at rest, its friction chattering) as a loss at every step: the books of a chain lying on a floor
    // drifted by 25 times its largest kinetic energy, first order in dt (issue 40). The law has no shear spring: the
    // history's shear vector keeps its last friction force.
    Vec3& last_friction = h.shear;
    const Vec3 friction = response.force - response.force.dot(g.normal) * g.normal;
    response.slip_loss -= 0.5 * dt * (last_friction + friction).dot(g.relative_velocity);
    last_friction = friction;
  } else if (law == ContactLaw::Sand) {
    response = sand_contact(model.contact.sand, pair, g, bodies, h, *law_state, newly_active, dt);
  } else {
    double projection_loss = 0.0;
    const Vec3 previous_shear = hooke_history ? update_shear_displacement_projected(h, g, dt, projection_loss)
                                              : update_shear_displacement(h, g, dt);
    // The spring force applied last step (the LAMMPS convention's books below need it; read before the law updates h).
    const Vec3 spring_before = lammps ? Vec3(-h.shear_stiffness * previous_shear) : Vec3::Zero();
    response = law == ContactLaw::Linear
                   ? linear_contact(model.contact.linear, pair, g, h, previous_shear, newly_active)
                   : hertz_mindlin_contact(model.contact.hertz_mindlin, pair, g, h, previous_shear, newly_active);
    if (lammps) {
      // The spring's books (work in = the trapezoid of its force over its stretch, contact_geometry.hpp) follow
      // LAMMPS's contact velocity, the bodies the contact point's: the difference is work the convention does on
      // the spring, booked as a source like the Mindlin stiffness work (issue 40: without it the balance drifted
      // by eta v_t (delta/2) w on a spinning sphere and did not shrink with dt).
      Vec3 spring_now = response.force - response.dashpot_force;
      spring_now -= spring_now.dot(g.normal) * g.normal;
      response.stiffness_work -= 0.5 * dt * (spring_before + spring_now).dot(lammps_excess);
    }
    // gran/hooke/history's projection shortens the spring: energy the model takes out of it, kept in the same book.
    response.stiffness_work -= projection_loss;
  }
  if (h.slipping != was_slipping)
    part.events.push_back({step, h.slipping ? EventKind::SlipStarted : EventKind::SlipEnded, id_a, id_b});

  if (rolling) {
    RollingHistory* rh = std::get_if<RollingHistory>(law_state);
    const bool fresh = newly_active || !rh;  // also when rolling resistance was just switched on
    if (!rh) rh = &law_state->emplace<RollingHistory>();
    const RollingResponse r = rolling_resistance(model.contact.rolling, g, response.normal_force_elastic,
                                                 response.normal_stiffness, *rh, dt, fresh);
    response.couple += r.couple;
    response.elastic_energy += r.elastic_energy;
    response.slip_loss += r.slip_loss;
    response.stiffness_work += r.stiffness_work;
    totals.dashpot_energy -= 0.5 * dt * (rh->dashpot_couple + r.dashpot_couple).dot(g.relative_angular_velocity);
    rh->dashpot_couple = r.dashpot_couple;
  }

  totals.elastic += response.elastic_energy;
  totals.dashpot_energy -= 0.5 * dt * (h.dashpot_force + response.dashpot_force).dot(g.relative_velocity);
  totals.slip_loss += response.slip_loss;
  totals.stiffness_work += response.stiffness_work;
  h.dashpot_force = response.dashpot_force;
  return true;
}

// Which of `count` bands split_evenly puts a particle in, for the contacts' pushes.
class ParticleBands {
 public:
  ParticleBands(size_t particles, int count)
      : bounds_(split_evenly(particles, count)),
        per_particle_(static_cast<double>(count) / static_cast<double>(std::max<size_t>(particles, 1))) {}
  size_t count() const { return bounds_.size() - 1; }
  size_t of(size_t x) const {  // bounds_[b] <= x < bounds_[b + 1]: an estimate, then a step or two
    size_t b = std::min(count() - 1, static_cast<size_t>(static_cast<double>(x) * per_particle_));
    while (bounds_[b] > x) --b;
    while (bounds_[b + 1] <= x) ++b;
    return b;
  }

 private:
  std::vector<size_t> bounds_;
  double per_particle_;
};

// The part results of a contact loop (the pairs', then each wall side's in turn), kept from loop to loop on the calling
// thread so that the pushes keep their storage (grown afresh each pass, their copies and allocations cost about as much
// as adding the pushes up) and the walls' sides allocate nothing, with nothing else carried over: each part's totals,
// events and watch start afresh, its pushes are cleared and its walls' forces zeroed when the part begins.
std::vector<PartResult>& fresh_parts(size_t parts) {
  thread_local std::vector<PartResult> kept;
  kept.resize(parts);
  for (PartResult& part : kept) {
    part.totals = ContactTotals{};
    part.events.clear();
    part.first_too_deep = SIZE_MAX;
  }
  return kept;
}

// Adds the parts' pushes to the particles, each band of particles on its own (on the team when there are several):
// each particle gets its pushes in pair order, as when one thread adds them all in pair order, so the forces do not
// depend on the number of threads. Added on the calling thread alone, they were 140 us of (c)'s 2 700 us of contacts
// a step at 2 threads, which 16 threads would not shorten (docs/performance.md).
void add_pushes(const std::vector<PartResult>& parts, int bands, ThreadTeam& team, Particles& p) {
  team.run(bands, [&](int band) {
    for (const PartResult& part : parts)
      for (const BodyPush& push : part.bodies[static_cast<size_t>(band)]) {
        p.force[push.body] += push.force;
        p.torque[push.body] += push.torque;
      }
  });
}

// Parts run side by side; their events and energies are merged in part order, as one thread makes them.
void merge_parts(std::vector<PartResult>& parts, ContactTotals& totals, State& state) {
  for (PartResult& r : parts) {
    totals.add(r.totals);
    for (const Event& e : r.events) state.events.record(e);
  }
}

// [SECTION] particle-particle

// The contacts of the listed pairs: forces and torques on both particles, totals and events merged into `totals` and
// the state's events. The laws run in parallel parts over the pairs (each pair's history is its own); the pushes of
// the contacts that act are then added to the particles band by band on the team, each particle's in pair order
// (add_pushes). So the forces do not depend on the number of threads at all, and no part needs force arrays of its
// own (a dilute scene has far fewer contacts than particles). With a watch, each part also notes its first pair that
// overlaps too deep.
void add_pair_contacts(const Model& model, State& state, double dt, bool verlet, const PredictedVelocities* predicted,
                       ThreadTeam& team, ContactTotals& totals, RunawayOverlapWatch* watch, bool trial) {
  Particles& p = state.particles;
  NeighborLists& lists = state.neighbors;
  const bool sand = model.contact.law == ContactLaw::Sand;
  const size_t pairs = lists.contact_pairs.size();
  if (lists.contact_active.size() != pairs) mark_active_contacts(lists);  // lists made by hand (tests, tools)
  fit_law_states(lists.contact_law, pairs, law_keeps_state(model));
  const int parts = fine_parts_for(team, pairs, kContactGrain, 4);
  const std::vector<size_t> bounds = split_evenly(pairs, parts);
  std::vector<PartResult>& pair_parts = fresh_parts(static_cast<size_t>(parts));
  // The pushes are added in a band of particles a thread (one part: all on the calling thread).
  const ParticleBands bands(p.size(), parts > 1 ? team.size() : 1);
  team.run(parts, [&](int part_index) {
    PartResult& part = pair_parts[static_cast<size_t>(part_index)];
    part.bodies.resize(bands.count());
    for (std::vector<BodyPush>& band : part.bodies) band.clear();
    const size_t begin = bounds[static_cast<size_t>(part_index)], end = bounds[static_cast<size_t>(part_index) + 1];
    HistoryCopy copy;  // a trial's history of the contact in hand
    for (size_t k = begin; k < end; ++k) {
      const auto i = static_cast<size_t>(lists.contact_pairs[k].i);
      const auto j = static_cast<size_t>(lists.contact_pairs[k].j);
      const Vec3 separation = minimum_image(model, p.position[i] - p.position[j]);
      // Cheap radius check before the geometry: a pair beyond the reach of every law cannot
      // touch; an active one is still evaluated, so that its opening is booked.
      const double reach = p.radius[i] + p.radius[j] + model.contact_reach;
      const double distance_sq = separation.squaredNorm();
      if (watch && part.first_too_deep == SIZE_MAX) {
        const double deep = p.radius[i] + p.radius[j] - watch->fraction * std::min(p.radius[i], p.radius[j]);
        if (distance_sq < deep * deep) part.first_too_deep = k;
      }
      if (!lists.contact_active[k] && distance_sq > reach * reach) continue;
      const double distance = std::sqrt(distance_sq);
      if (!(distance > 0.0)) continue;  // coincident centres: no normal; the checks stage reports it
      ContactGeometry g = sphere_sphere_geometry(separation, distance, p.radius[i], p.radius[j], p.velocity[i],
                                                 p.velocity[j], p.angular_velocity[i], p.angular_velocity[j], p.mass[i],
                                                 p.mass[j], p.inertia[i], p.inertia[j]);
      if (predicted)
        set_dashpot_velocities(g, predicted->velocity[i], predicted->velocity[j], predicted->angular_velocity[i],
                               predicted->angular_velocity[j]);
      SandBodies bodies;
      if (sand) {
        bodies.separation = separation;
        bodies.position_i = p.position[i];
        bodies.orientation_i = p.orientation[i];
        bodies.orientation_j = p.orientation[j];
      }
      const HistoryInUse h = history_of(lists.contact_history, lists.contact_law, k, trial, copy);
      ContactResponse r;
      const bool acts = evaluate_contact(model, model.pair(p.material[i], p.material[j]), g, bodies, *h.record, h.law,
                                         dt, verlet, state.step, p.id[i], p.id[j], part, r);
      if (!trial) lists.contact_active[k] = h.record->active;
      if (!acts) continue;
      // Force at the contact point on both bodies, plus a couple: total angular momentum is kept.
      part.bodies[bands.of(i)].push_back({r.force, g.lever_i.cross(r.force) + r.couple, static_cast<std::uint32_t>(i)});
      part.bodies[bands.of(j)].push_back(
          {-r.force, -(g.lever_j.cross(r.force) + r.couple), static_cast<std::uint32_t>(j)});
    }
  });
  add_pushes(pair_parts, static_cast<int>(bands.count()), team, p);
  merge_parts(pair_parts, totals, state);
  if (!watch) return;
  watch->first_pair = pairs;
  for (const PartResult& part : pair_parts)
    if (part.first_too_deep != SIZE_MAX) {
      watch->first_pair = part.first_too_deep;
      break;
    }
}

// [SECTION] particle-wall (each side of the box that is a wall); a particle's wall contacts are its own

// The contacts of every particle with one wall side (2 axis + upper): forces and torques on the particles, the force on
// the wall added to wall_force[side], totals and events merged as for the pairs.
void add_wall_side_contacts(const Model& model, State& state, double dt, bool verlet,
                            const PredictedVelocities* predicted, ThreadTeam& team, int axis, int upper,
                            ContactTotals& totals, std::array<Vec3, 6>& wall_force, bool trial) {
  Particles& p = state.particles;
  const size_t n = p.size();
  const bool sand = model.contact.law == ContactLaw::Sand;
  const int side = 2 * axis + upper;
  // With a lid the top side moves: its height is part of the state.
  const bool lid = axis == 2 && upper && model.pressure.method == PressureMethod::Lid;
  const double plane = lid ? state.lid_height : upper ? model.box.max[axis] : model.box.min[axis];
  Vec3 normal = Vec3::Zero();
  normal[axis] = upper ? -1.0 : 1.0;
  const double reach = model.contact_reach;
  std::vector<PartResult>& wall_parts = fresh_parts(static_cast<size_t>(fine_parts_for(team, n, kWallGrain, 4)));
  const std::vector<size_t> bounds = split_evenly(n, static_cast<int>(wall_parts.size()));
  const auto bit = static_cast<std::uint8_t>(1u << side);
  const auto distance_of = [&](size_t i) { return upper ? plane - p.position[i][axis] : p.position[i][axis] - plane; };
  // Whether particle i may touch the side or touched it: the flag from its byte, so that the record is read only for a
  // contact that may act or has to close.
  const auto near_side = [&](size_t i) {
    return !(distance_of(i) > p.radius[i] + reach) || (state.wall_active[i] & bit) != 0;
  };
  team.run(static_cast<int>(wall_parts.size()), [&](int k) {
    PartResult& part = wall_parts[static_cast<size_t>(k)];
    part.wall_force.fill(Vec3::Zero());
    HistoryCopy copy;  // a trial's history of the contact in hand
    const auto evaluate = [&](size_t i) {
      const HistoryInUse h =
          history_of(state.wall_history, state.wall_law, 6 * i + static_cast<size_t>(side), trial, copy);
      ContactGeometry g = sphere_wall_geometry(normal, distance_of(i), p.radius[i], p.velocity[i],
                                               p.angular_velocity[i], p.mass[i], p.inertia[i]);
      if (predicted)
        set_dashpot_velocities(g, predicted->velocity[i], Vec3::Zero(), predicted->angular_velocity[i], Vec3::Zero());
      SandBodies bodies;
      if (sand) {
        bodies.wall = true;
        bodies.position_i = p.position[i];
        bodies.orientation_i = p.orientation[i];
        bodies.periodic_length = model.periodic_length;
      }
      ContactResponse r;
      const bool acts =
          evaluate_contact(model, model.pair(p.material[i], model.wall_material), g, bodies, *h.record, h.law, dt,
                           verlet, state.step, p.id[i], kWallIdBase + static_cast<std::uint64_t>(side), part, r);
      if (!trial)
        state.wall_active[i] = h.record->active ? static_cast<std::uint8_t>(state.wall_active[i] | bit)
                                                : static_cast<std::uint8_t>(state.wall_active[i] & ~bit);
      if (!acts) return;
      p.force[i] += r.force;
      p.torque[i] += g.lever_i.cross(r.force) + r.couple;
      part.wall_force[side] -= r.force;
    };
    // The particles near the side are found a batch at a time and their records fetched ahead: six a particle, the
    // records are too far apart for the processor to see a stream, and each read alone waited on memory (on (c), the
    // powder in a box, 40 % of the wall pass's own time).
    constexpr int kBatch = 32;
    size_t near[kBatch];
    const size_t end = bounds[static_cast<size_t>(k) + 1];
    for (size_t next = bounds[static_cast<size_t>(k)]; next < end;) {
      int found = 0;
      for (; next < end && found < kBatch; ++next) {
        if (!near_side(next)) continue;
        const ContactHistory* record = state.wall_history.data() + 6 * next + static_cast<size_t>(side);
        __builtin_prefetch(record);
        __builtin_prefetch(reinterpret_cast<const char*>(record + 1) - 1);  // a record may straddle two lines
        near[found++] = next;
      }
      for (int f = 0; f < found; ++f) evaluate(near[f]);
    }
  });
  merge_parts(wall_parts, totals, state);
  for (PartResult& part : wall_parts) wall_force[side] += part.wall_force[side];
}

// The contacts with every side of the box that is a wall, but the floor's; returns the force on each side.
std::array<Vec3, 6> add_wall_contacts(const Model& model, State& state, double dt, bool verlet,
                                      const PredictedVelocities* predicted, ThreadTeam& team, ContactTotals& totals,
                                      bool trial) {
  const size_t n = state.particles.size();
  std::array<Vec3, 6> wall_force;
  wall_force.fill(Vec3::Zero());
  const bool walls = model.box.any_wall();
  if (walls && state.wall_history.size() != 6 * n) {
    state.wall_history.assign(6 * n, ContactHistory{});
    state.wall_law.clear();
  }
  if (walls) fit_law_states(state.wall_law, state.wall_history.size(), law_keeps_state(model));
  if (walls && state.wall_active.size() != n) mark_active_walls(state);
  for (int axis = 0; axis < 3 && walls; ++axis) {
    for (int upper = 0; upper < 2; ++upper) {
      if (model.box.side(axis, upper) != SideKind::Wall) continue;
      const int side = 2 * axis + upper;
      if (static_cast<int>(model.floor.side) == side + 1)
        continue;  // the floor's own law (engine/contact/law_floor.cpp)
      add_wall_side_contacts(model, state, dt, verlet, predicted, team, axis, upper, totals, wall_force, trial);
    }
  }
  return wall_force;
}

}  // namespace

void compute_contact_forces(const Model& model, State& state, double dt, ThreadTeam& team,
                            const PredictedVelocities* predicted, RunawayOverlapWatch* watch, bool trial) {
  ContactTotals totals;
  const bool verlet = predicted != nullptr && dt > 0.0;
  add_pair_contacts(model, state, dt, verlet, predicted, team, totals, watch, trial);
  state.wall_force = add_wall_contacts(model, state, dt, verlet, predicted, team, totals, trial);

  state.energy.elastic = totals.elastic;
  state.energy.dissipated_dashpot += totals.dashpot_energy;
  state.energy.dissipated_friction += totals.slip_loss;
  state.energy.stiffness_work += totals.stiffness_work;
}

}  // namespace lodestone
