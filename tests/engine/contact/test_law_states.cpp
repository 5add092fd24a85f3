// The law states kept beside the contact records (state.hpp, LawState: the sand law's pointers, the rolling springs)
// must stay with their records through everything that moves, copies or drops records: the contact and wall passes,
// the overdamped trial pass (on copies), list rebuilds, a particle's removal, a checkpoint.
// A state left beside the wrong record would act on a contact it does not describe.

#include "engine/bodies/touch.hpp"
#include "engine/scene/checkpoint.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/test_support.hpp"

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// Sand grains bouncing in a walled box (velocity Verlet), or pushed apart from overlaps by overdamped Heun steps
// (a trial pass each step, on copies of the histories).
Preset sand_in_walled_box(bool overdamped) {
  Preset p = overdamped ? overdamped_grains_in_walled_box() : magnets_in_walled_box();
  if (overdamped) p.protocol = {overlap_removal_phase()};
  p.contact.law = ContactLaw::Sand;
  p.materials[0].surface_energy = 0.05;
  return p;
}

// Why a state's law states do not describe its records, or "" when they do: one per record; a sand pointer pair
// exactly where a record is active; each pair's pointer P1 (body frame of the first particle) turned to the world
// points from the first particle towards the second (the pointers start on the line of centres and slide at most a
// little from it), P2 towards the first; a wall contact's P2 (the wall's material point, world) lies within a radius
// and a half of its particle's centre.
std::string mismatch(const State& s) {
  const Particles& p = s.particles;
  const NeighborLists& l = s.neighbors;
  if (l.contact_law.size() != l.contact_history.size()) return "the pair law states are not one per record";
  if (s.wall_law.size() != s.wall_history.size()) return "the wall law states are not one per record";
  for (size_t k = 0; k < l.contact_history.size(); ++k) {
    const SandPointers* ptr = std::get_if<SandPointers>(&l.contact_law[k]);
    if ((ptr != nullptr) != l.contact_history[k].active) return "pair record " + std::to_string(k) + ": flag and state";
    if (!ptr) continue;
    const auto i = static_cast<size_t>(l.contact_pairs[k].i), j = static_cast<size_t>(l.contact_pairs[k].j);
    const Vec3 towards_j = (p.position[j] - p.position[i]).normalized();
    if ((p.orientation[i] * ptr->p1).normalized().dot(towards_j) < 0.9 ||
        (p.orientation[j] * ptr->p2).normalized().dot(-towards_j) < 0.9)
      return "pair record " + std::to_string(k) + ": pointers not towards the partner";
  }
  for (size_t r = 0; r < s.wall_history.size(); ++r) {
    const SandPointers* ptr = std::get_if<SandPointers>(&s.wall_law[r]);
    if ((ptr != nullptr) != s.wall_history[r].active) return "wall record " + std::to_string(r) + ": flag and state";
    const size_t i = r / 6;
    if (ptr && (ptr->p2 - p.position[i]).norm() > 1.5 * p.radius[i])
      return "wall record " + std::to_string(r) + ": the contact point is not at its particle";
  }
  return "";
}

size_t active_walls(const State& s) {
  size_t active = 0;
  for (const ContactHistory& h : s.wall_history) active += h.active ? 1 : 0;
  return active;
}

}  // namespace

TEST_CASE("the law states stay beside their records: steps, trial passes, rebuilds, a removal, a file", "[contacts]") {
  for (const bool overdamped : {false, true}) {
    INFO((overdamped ? "overdamped Heun" : "velocity Verlet"));
    Session session(sand_in_walled_box(overdamped));
    std::string why;
    size_t most_pairs = 0, most_walls = 0;
    const std::uint64_t builds_before = session.state().neighbors.builds;
    for (int step = 0; step < 400 && why.empty(); ++step) {
      run_checked(session, 1);
      why = mismatch(session.state());
      const NeighborLists& l = session.state().neighbors;
      most_pairs = std::max<size_t>(most_pairs, std::count_if(l.contact_history.begin(), l.contact_history.end(),
                                                              [](const ContactHistory& h) { return h.active; }));
      most_walls = std::max(most_walls, active_walls(session.state()));
    }
    INFO(why);
    CHECK(why.empty());
    CHECK(most_pairs > 0);  // the pointers were tested on pairs and walls in contact, across rebuilds
    CHECK(most_walls > 0);
    CHECK(session.state().neighbors.builds > builds_before + 1);

    // A file keeps every law state, bit for bit.
    const Checkpoint read_back = checkpoint_from_bytes(checkpoint_to_bytes(session.document(), session.state()));
    const State& s = session.state();
    const State& r = read_back.state;
    REQUIRE(r.neighbors.contact_law.size() == s.neighbors.contact_law.size());
    REQUIRE(r.wall_law.size() == s.wall_law.size());
    bool same = true;
    for (size_t k = 0; k < s.neighbors.contact_law.size(); ++k)
      same = same && same_bits(r.neighbors.contact_law[k], s.neighbors.contact_law[k]);
    for (size_t k = 0; k < s.wall_law.size(); ++k) same = same && same_bits(r.wall_law[k], s.wall_law[k]);
    CHECK(same);

    // A particle in contact removed: the others' states move with their records.
    const NeighborLists& l = s.neighbors;
    const auto touching = std::find_if(l.contact_history.begin(), l.contact_history.end(),
                                       [](const ContactHistory& h) { return h.active; });
    REQUIRE(touching != l.contact_history.end());
    const IndexPair pair = l.contact_pairs[static_cast<size_t>(touching - l.contact_history.begin())];
    remove_body(session.edit_state(), s.particles.id[static_cast<size_t>(pair.i)]);
    CHECK(mismatch(session.state()).empty());
    session.reinitialize();
    run_checked(session, 20);
    CHECK(mismatch(session.state()).empty());
  }
}

TEST_CASE("a law that keeps no state leaves no table, and one switched on starts its contacts afresh", "[contacts]") {
  // Hertz-Mindlin without rolling keeps nothing beside its records; rolling switched on live makes the table, each
  // active contact starting its springs from zero at that step.
  Session session(magnets_in_walled_box());
  run_checked(session, 200);
  CHECK(session.state().neighbors.contact_law.empty());
  CHECK(session.state().wall_law.empty());
  session.apply({{"contact.rolling.enabled", true}});
  run_checked(session, 1);
  const State& s = session.state();
  REQUIRE(s.neighbors.contact_law.size() == s.neighbors.contact_history.size());
  REQUIRE(s.wall_law.size() == s.wall_history.size());
  size_t rolling = 0, active = 0;
  for (size_t k = 0; k < s.neighbors.contact_history.size(); ++k) {
    active += s.neighbors.contact_history[k].active ? 1 : 0;
    rolling += std::holds_alternative<RollingHistory>(s.neighbors.contact_law[k]) ? 1 : 0;
  }
  CHECK(active > 0);
  CHECK(rolling == active);
}
