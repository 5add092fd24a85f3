// The walls' flags beside their histories (State::wall_active) and the wall pass's journal (WallJournal): the pass
// reads a wall record only where the particle's byte says the contact is active or the wall is within reach, and a
// trial pass (Heun's predictor) is undone from the journal of the records it changed. Both must hold to the bit, or
// a contact would be left open or a trial's history kept.

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
  // Grains dropped with overlaps into a walled box (overdamped Heun: a trial pass each step, put back from its
  // journal) and magnets bouncing in one (velocity Verlet), on one and two threads: contacts with the walls open and
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

TEST_CASE("a contact pass's wall journal puts every wall record back", "[contacts][walls]") {
  // After 200 steps grains touch the walls; a further pass at moved positions (as Heun's trial makes it) changes
  // their records.
  // Putting back the journal's records must give the records before the pass to the bit: a record the pass changed
  // but did not note would differ.
  Session session(settling_grains());
  run_checked(session, 200);
  State state = session.state();
  // As a trial moves them: every grain on a little with a velocity of its own, and the first pressed into the x_min
  // wall (a contact that opens in the pass).
  Particles& p = state.particles;
  for (size_t i = 0; i < p.size(); ++i) {
    p.velocity[i] =
        Vec3(1e-3 * std::sin(1.0 + static_cast<double>(i)), 1e-3 * std::cos(2.0 * static_cast<double>(i)), -1e-3);
    p.position[i] += session.model().time_step * p.velocity[i];
  }
  p.position[0].x() = session.model().box.min.x() + 0.9 * p.radius[0];
  const State before = state;
  WallJournal journal;
  compute_contact_forces(session.model(), state, session.model().time_step, ThreadTeam::serial(), nullptr, nullptr,
                         &journal);
  REQUIRE(state.wall_history.size() == before.wall_history.size());
  size_t active = 0;
  for (const ContactHistory& h : before.wall_history) active += h.active ? 1 : 0;
  INFO(active << " wall contacts active before the pass; journal of " << journal.before.size());
  size_t changed = 0;
  for (size_t k = 0; k < state.wall_history.size(); ++k)
    changed += same_record(state.wall_history[k], before.wall_history[k]) ? 0 : 1;
  CHECK(changed > 0);
  CHECK(journal.before.size() >= changed);
  CHECK(journal.before.size() < state.wall_history.size() / 2);  // only the records near a wall or active
  CHECK(flags_match_records(state));
  for (auto& [k, record] : journal.before) state.wall_history[k] = record;
  bool restored = true;
  for (size_t k = 0; k < state.wall_history.size(); ++k)
    restored = restored && same_record(state.wall_history[k], before.wall_history[k]);
  CHECK(restored);
}

TEST_CASE("a contact pass's wall journal puts every law state back too", "[contacts][walls]") {
  // The sand law keeps pointers beside each wall record (State::wall_law); a pass forms them for a new contact and
  // drops them for one that opens. As above: after a pass at moved positions, the journal's records and law states
  // put back must give those before the pass, to the bit.
  Preset preset = settling_grains();
  preset.contact.law = ContactLaw::Sand;
  preset.materials[0].surface_energy = 0.05;
  Session session(preset);
  run_checked(session, 200);
  State state = session.state();
  REQUIRE(state.wall_law.size() == state.wall_history.size());
  Particles& p = state.particles;
  for (size_t i = 0; i < p.size(); ++i) p.position[i] += Vec3(2e-5 * std::sin(3.0 * static_cast<double>(i)), 0, 0);
  p.position[0].x() = session.model().box.min.x() + 0.9 * p.radius[0];  // a contact that forms in the pass
  const State before = state;
  WallJournal journal;
  compute_contact_forces(session.model(), state, session.model().time_step, ThreadTeam::serial(), nullptr, nullptr,
                         &journal);
  size_t changed = 0;
  for (size_t k = 0; k < state.wall_law.size(); ++k)
    changed += same_bits(state.wall_law[k], before.wall_law[k]) ? 0 : 1;
  CHECK(changed > 0);
  for (auto& [k, record] : journal.before) state.wall_history[k] = record;
  for (auto& [k, law] : journal.law_before) state.wall_law[k] = law;
  bool restored = true;
  for (size_t k = 0; k < state.wall_history.size(); ++k)
    restored = restored && same_record(state.wall_history[k], before.wall_history[k]) &&
               same_bits(state.wall_law[k], before.wall_law[k]);
  CHECK(restored);
}
