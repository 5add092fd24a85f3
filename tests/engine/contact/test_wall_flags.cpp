// The walls' flags beside their histories (State::wall_active), and the trial pass on copies: the pass reads a wall
// record only where the particle's byte says the contact is active or the wall is within reach, and a trial pass
// (Heun's predictor) evaluates every contact on a copy of its history. Both must hold to the bit, or a contact would be
// left open or a trial's history kept.

#include "engine/contact/contacts.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/test_support.hpp"

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Every field of a record, bit for bit (these scenes' law keeps no state beside the records).
bool same_record(const ContactHistory& a, const ContactHistory& b) {
  return a.active == b.active && a.slipping == b.slipping && same_bits(a.shear, b.shear) &&
         same_bits(a.normal_force, b.normal_force) && same_bits(a.gap, b.gap) &&
         same_bits(a.dashpot_force, b.dashpot_force) && same_bits(a.shear_stiffness, b.shear_stiffness);
}

// True when each particle's byte has bit `side` set exactly where its record for that side is active.
bool flags_match_records(const State& s) {
  if (s.wall_active.size() != s.wall_history.size() / 6) return false;
  for (size_t i = 0; i < s.wall_active.size(); ++i)
    for (size_t side = 0; side < 6; ++side)
      if (((s.wall_active[i] >> side) & 1) != static_cast<int>(s.wall_history[6 * i + side].active)) return false;
  return true;
}

// overdamped_grains_in_walled_box with its overlap removal first (the grains start overlapping), then gravity.
Preset settling_grains() {
  Preset p = overdamped_grains_in_walled_box();
  p.protocol = {overlap_removal_phase()};
  p.environment.gravity = Vec3(0, 0, -9.81);
  return p;
}

}  // namespace

TEST_CASE("the walls' flags follow their records through every step", "[contacts][walls][threading]") {
  // Grains dropped with overlaps into a walled box (overdamped Heun: a trial pass each step, on copies of the
  // histories) and magnets bouncing in one (velocity Verlet), on one and two threads: contacts with the walls open and
  // close all along.
  for (const bool overdamped : {true, false})
    for (const int threads : {1, 2}) {
      INFO((overdamped ? "overdamped grains" : "magnets, velocity Verlet") << " on " << threads << " threads");
      Session session(overdamped ? settling_grains() : magnets_in_walled_box());
      session.set_threads(threads);
      bool match = flags_match_records(session.state());
      size_t opened = 0, closed = 0;
      for (int step = 0; step < 300 && match; ++step) {
        const std::vector<std::uint8_t> before = session.state().wall_active;
        run_checked(session, 1);
        const State& s = session.state();
        match = flags_match_records(s);
        for (size_t i = 0; i < before.size() && i < s.wall_active.size(); ++i) {
          opened += static_cast<size_t>(__builtin_popcount(s.wall_active[i] & ~before[i] & 0x3f));
          closed += static_cast<size_t>(__builtin_popcount(before[i] & ~s.wall_active[i] & 0x3f));
        }
      }
      CHECK(match);
      CHECK(opened > 0);  // contacts did open and close, so the flags were tested on both
      CHECK(closed > 0);
    }
}

TEST_CASE("a trial contact pass leaves every history as it was and gives the forces of a pass in place",
          "[contacts][walls]") {
  // Settling grains after 200 steps touch each other and the walls; a further pass at moved positions (as Heun's
  // trial makes it, one grain pressed into a wall: a contact that forms) changes their records when made in place.
  // Made as a trial, it must leave every pair and wall record, law state and flag as it was to the bit, and give the
  // same forces, torques and books. Hertz-Coulomb (no law state) and the sand law (pointers beside each record).
  for (const bool sand : {false, true}) {
    INFO((sand ? "sand" : "Hertz-Coulomb"));
    Preset preset = settling_grains();
    if (sand) {
      preset.contact.law = ContactLaw::Sand;
      preset.materials[0].surface_energy = 0.05;
    }
    Session session(preset);
    run_checked(session, 200);
    State before = session.state();
    Particles& p = before.particles;
    for (size_t i = 0; i < p.size(); ++i)
      p.position[i] += Vec3(2e-5 * std::sin(3.0 * static_cast<double>(i)), 0, -1e-5);
    p.position[0].x() = session.model().box.min.x() + 0.9 * p.radius[0];
    const double dt = session.model().time_step;
    State trial = before, in_place = before;
    compute_contact_forces(session.model(), trial, dt, ThreadTeam::serial(), nullptr, nullptr, /*trial=*/true);
    compute_contact_forces(session.model(), in_place, dt, ThreadTeam::serial(), nullptr, nullptr, /*trial=*/false);

    auto same_records = [](const std::vector<ContactHistory>& a, const std::vector<ContactHistory>& b) {
      bool same = a.size() == b.size();
      for (size_t k = 0; same && k < a.size(); ++k) same = same_record(a[k], b[k]);
      return same;
    };
    auto same_laws = [](const std::vector<LawState>& a, const std::vector<LawState>& b) {
      bool same = a.size() == b.size();
      for (size_t k = 0; same && k < a.size(); ++k) same = same_bits(a[k], b[k]);
      return same;
    };
    const NeighborLists &lt = trial.neighbors, &lb = before.neighbors;
    // The in-place pass changed records, so that the trial's leaving them means something.
    CHECK_FALSE(same_records(in_place.wall_history, before.wall_history));
    CHECK_FALSE(same_records(in_place.neighbors.contact_history, lb.contact_history));
    CHECK(same_records(trial.wall_history, before.wall_history));
    CHECK(same_records(lt.contact_history, lb.contact_history));
    CHECK(trial.wall_active == before.wall_active);
    CHECK(lt.contact_active == lb.contact_active);
    if (sand) {
      CHECK_FALSE(same_laws(in_place.wall_law, before.wall_law));
      // The law tables were made before the pass (the session's steps), so the trial finds them at their length.
      CHECK(same_laws(trial.wall_law, before.wall_law));
      CHECK(same_laws(lt.contact_law, lb.contact_law));
    }
    CHECK(same_bits(trial.particles.force, in_place.particles.force));
    CHECK(same_bits(trial.particles.torque, in_place.particles.torque));
    CHECK(same_bits(trial.energy.elastic, in_place.energy.elastic));
    CHECK(same_bits(trial.energy.dissipated_friction, in_place.energy.dissipated_friction));
    CHECK(same_bits(trial.energy.dissipated_dashpot, in_place.energy.dissipated_dashpot));
  }
}
