// The timeline (session log, engine/scene/preset_edits.hpp): edits recorded by step number into the document,
// replayed bit-identically by a Session built from the saved document; entries and protocol
// phases in the order they happen; a reset or checkpoint folds the entries applied; bad entries.

#include "engine/core/state_hash.hpp"
#include "engine/scene/checkpoint.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/session/protocol.hpp"
#include "tests/engine/bitwise.hpp"
#include "tests/engine/test_support.hpp"

#include <cstring>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

// The document as File > Save writes it and a later load reads it: text and back.
// Steps to `step` (the step counter), failing on any engine warning.
void run_to_step(Session& session, std::int64_t step) {
  run_checked(session, step - session.state().step);
}

// An interactive session: field strength changed at step 50, friction at step 120, 200 steps.
Session recorded_session(const Preset& start) {
  Session session(start);
  run_to_step(session, 50);
  Preset edited = session.parameters();
  edited.field.strength = 2e-2;
  session.edit_parameters(edited);
  run_to_step(session, 120);
  edited = session.parameters();
  edited.materials[0].friction = 0.1;
  session.edit_parameters(edited);
  run_to_step(session, 200);
  return session;
}

}  // namespace

TEST_CASE("timeline: edits at steps 50 and 120 are recorded, and the saved document replays them bit-identically",
          "[timeline]") {
  const Preset start = magnets_in_walled_box();
  const Session interactive = recorded_session(start);

  // The document keeps the parameters it was loaded with; the timeline carries the two changes.
  const Preset& doc = interactive.document();
  CHECK(doc.field.strength == start.field.strength);
  CHECK(doc.materials[0].friction == start.materials[0].friction);
  REQUIRE(doc.timeline.size() == 2);
  CHECK(doc.timeline[0].step == 50);
  CHECK(doc.timeline[0].set == json::object({{"field.strength", 2e-2}}));
  CHECK(doc.timeline[1].step == 120);
  CHECK(doc.timeline[1].set == json::object({{"materials.0.friction", 0.1}}));
  CHECK(interactive.timeline_applied() == 2);
  CHECK(interactive.model().field.strength == 2e-2);
  CHECK(interactive.model().materials[0].friction == 0.1);

  // Saved, loaded, run the same number of steps: the same trajectory, bit for bit.
  const Preset loaded = saved_and_loaded(doc);
  CHECK(preset_to_json(loaded) == preset_to_json(doc));
  Session replay(loaded);
  run_to_step(replay, 49);
  CHECK(replay.parameters().field.strength == start.field.strength);  // not before its step
  run_to_step(replay, 50);
  CHECK(replay.parameters().field.strength == 2e-2);  // 50 steps made: in force for the next one
  run_to_step(replay, 200);
  CHECK(replay.timeline_applied() == 2);
  CHECK(same_trajectory(replay.state(), interactive.state()));
  CHECK(preset_to_json(replay.document()) == preset_to_json(doc));

  // The comparison can fail: the same change one step later gives another trajectory.
  Preset late = loaded;
  late.timeline[0].step = 51;
  Session shifted(late);
  run_to_step(shifted, 200);
  CHECK_FALSE(same_trajectory(shifted.state(), interactive.state()));
  // ... and so does the document without its timeline.
  Preset without = loaded;
  without.timeline.clear();
  Session plain(without);
  run_to_step(plain, 200);
  CHECK_FALSE(same_trajectory(plain.state(), interactive.state()));
}

TEST_CASE("timeline: two edits at one step, a unit string, and an edit that changes nothing", "[timeline]") {
  Preset start = magnets_in_walled_box();
  start.timeline = {TimelineEntry{0, json::object({{"field.strength", "10 mT"}})}};  // a hand-written entry
  Session session(start);
  CHECK(session.parameters().field.strength == Approx(0.01));  // step 0: before the first step
  run_to_step(session, 30);
  Preset edited = session.parameters();
  session.edit_parameters(edited);  // nothing changed: nothing recorded, nothing applied
  CHECK(session.document().timeline.size() == 1);
  const std::uint64_t revision = session.parameters_revision();
  edited.environment.translational_damping = 0.5;
  session.edit_parameters(edited);
  edited.field.direction = Vec3(0, 1, 0);
  edited.description = "explored";  // not a change of the run: the document takes it
  edited.run.real_time_factor = 0.5;
  session.edit_parameters(edited);
  CHECK(session.parameters_revision() > revision);
  const Preset& doc = session.document();
  REQUIRE(doc.timeline.size() == 3);
  CHECK(doc.timeline[1].step == 30);
  CHECK(doc.timeline[1].set == json::object({{"environment.translational_damping", 0.5}}));
  CHECK(doc.timeline[2].step == 30);
  CHECK(doc.timeline[2].set == json::object({{"field.direction", json::array({0.0, 1.0, 0.0})}}));
  CHECK(doc.description == "explored");
  CHECK(doc.run.real_time_factor == 0.5);
  CHECK(session.parameters().description == "explored");
  run_to_step(session, 90);

  Session replay(saved_and_loaded(doc));
  run_to_step(replay, 90);
  CHECK(same_trajectory(replay.state(), session.state()));
}

TEST_CASE("timeline: an edit during a replay goes between the entries it came between", "[timeline]") {
  const Session first = recorded_session(magnets_in_walled_box());
  Session session(saved_and_loaded(first.document()));  // a session loaded in the app
  run_to_step(session, 80);
  CHECK(session.timeline_applied() == 1);
  Preset edited = session.parameters();
  CHECK(edited.field.strength == 2e-2);  // the replayed change is in force
  edited.environment.rotational_damping = 0.25;
  session.edit_parameters(edited);
  run_to_step(session, 200);
  const auto& timeline = session.document().timeline;
  REQUIRE(timeline.size() == 3);
  CHECK(timeline[0].step == 50);
  CHECK(timeline[1].step == 80);
  CHECK(timeline[1].set == json::object({{"environment.rotational_damping", 0.25}}));
  CHECK(timeline[2].step == 120);
  CHECK(session.model().materials[0].friction == 0.1);  // the recorded future still came
  CHECK_FALSE(same_trajectory(session.state(), first.state()));

  Session replay(saved_and_loaded(session.document()));
  run_to_step(replay, 200);
  CHECK(same_trajectory(replay.state(), session.state()));
}

TEST_CASE("timeline: a checkpoint between entries (applied ones folded in) continues bit-identically", "[timeline]") {
  const Session whole = recorded_session(magnets_in_walled_box());
  Session part(saved_and_loaded(whole.document()));
  run_to_step(part, 100);
  const Preset folded = part.folded_document();
  CHECK(folded.field.strength == 2e-2);  // the entry applied became the scene's parameter
  REQUIRE(folded.timeline.size() == 1);  // the one not reached stays
  CHECK(folded.timeline[0].step == 120);
  Session resumed(checkpoint_from_bytes(checkpoint_to_bytes(folded, part.state())));
  run_to_step(resumed, 200);
  CHECK(same_trajectory(resumed.state(), whole.state()));
}

TEST_CASE("timeline: with a protocol, entries act on top of the running phase and later phases override their own keys",
          "[timeline][protocol]") {
  Preset p = magnets_in_walled_box();
  const double dt = Session(p).model().time_step;
  ProtocolPhase settle, align;
  settle.name = "settle";
  settle.duration = 99.5 * dt;  // ends after 100 steps
  settle.set = json::object({{"materials.0.friction", 0.2}});
  align.name = "align";
  align.duration = 1.0;
  align.set = json::object({{"field.strength", "30 mT"}});
  p.protocol = {settle, align};

  Session session(p);
  run_to_step(session, 40);
  Preset edited = session.parameters();
  CHECK(edited.materials[0].friction == 0.2);
  edited.materials[0].friction = 0.3;  // no later phase sets it: it stays
  edited.field.strength = 1e-2;        // "align" sets it: that wins when it starts
  session.edit_parameters(edited);
  run_to_step(session, 150);
  REQUIRE(session.state().phase == 1);
  CHECK(session.parameters().materials[0].friction == 0.3);
  CHECK(session.parameters().field.strength == Approx(0.03));
  edited = session.parameters();
  edited.environment.translational_damping = 0.5;
  session.edit_parameters(edited);
  run_to_step(session, 200);

  // The phases are as loaded; the timeline holds the edits.
  const Preset& doc = session.document();
  CHECK(preset_to_json(doc)["protocol"] == preset_to_json(p)["protocol"]);
  REQUIRE(doc.timeline.size() == 2);
  CHECK(doc.timeline[0].step == 40);
  CHECK(doc.timeline[0].set == json::object({{"materials.0.friction", 0.3}, {"field.strength", 1e-2}}));
  CHECK(doc.timeline[1].step == 150);

  Session replay(saved_and_loaded(doc));
  run_to_step(replay, 200);
  CHECK(same_trajectory(replay.state(), session.state()));

  // Folded (a reset): each entry joins the set of the phase it was made in; phase presets agree.
  const Preset folded = session.folded_document();
  CHECK(folded.timeline.empty());
  CHECK(folded.protocol[0].set == json::object({{"materials.0.friction", 0.3}, {"field.strength", 1e-2}}));
  CHECK(folded.protocol[1].set.at("environment.translational_damping") == 0.5);
  json folded_phase = preset_to_json(phase_preset(folded, 1)), in_force = preset_to_json(session.parameters());
  folded_phase.erase("protocol");
  in_force.erase("protocol");
  CHECK(folded_phase == in_force);
}

TEST_CASE("timeline: an edit a later phase's changes cannot follow is refused, and nothing changes", "[timeline]") {
  Preset p = magnets_in_walled_box();
  ProtocolPhase first, second;
  first.duration = 1e-3;
  second.set = json::object({{"field.direction", json::array({0, 0, 1})}});
  p.protocol = {first, second};
  p.field.program = FieldProgram::Rotating;
  p.field.rotation_axis = Vec3(1, 0, 0);
  p.field.direction = Vec3(0, 1, 0);
  Session session(p);
  Preset edited = session.parameters();
  edited.field.rotation_axis = Vec3(0, 0, 1);  // fine now, parallel to the second phase's direction
  const json before = preset_to_json(session.document());
  CHECK_THROWS_WITH(session.edit_parameters(edited),
                    Catch::Contains("$.protocol[1].set") && Catch::Contains("rotation_axis"));
  CHECK(preset_to_json(session.document()) == before);
  CHECK(session.parameters().field.rotation_axis == Vec3(1, 0, 0));
}

TEST_CASE("timeline: bad entries are refused naming the field, the value and what is allowed", "[timeline]") {
  json j = preset_to_json(magnets_in_walled_box());
  const auto load = [&](const json& timeline) {
    json t = j;
    t["timeline"] = timeline;
    return parse_preset(t.dump(), "session.json");
  };
  const json good = json::object({{"step", 50}, {"set", json::object({{"field.strength", "20 mT"}})}});
  CHECK(load(json::array({good})).timeline.size() == 1);

  CHECK_THROWS_WITH(
      load(json::array({good, json::object({{"step", -3}, {"set", json::object({{"field.strength", 0.0}})}})})),
      Catch::Contains("$.timeline[1].step") && Catch::Contains("non-negative integer") && Catch::Contains("-3"));
  CHECK_THROWS_WITH(load(json::array({good, json::object({{"step", 2.5}, {"set", json::object()}})})),
                    Catch::Contains("$.timeline[1].step") && Catch::Contains("2.5"));
  CHECK_THROWS_WITH(
      load(json::array({good, json::object({{"step", 10}, {"set", json::object({{"field.strength", 0.0}})}})})),
      Catch::Contains("$.timeline[1].step") && Catch::Contains("value 10") && Catch::Contains("non-decreasing"));
  CHECK_THROWS_WITH(load(json::array({json::object({{"step", 5}, {"set", json::object({{"field.strenght", 1.0}})}})})),
                    Catch::Contains("$.timeline[0].set.field.strenght") && Catch::Contains("no key 'strenght'") &&
                        Catch::Contains("strength"));
  CHECK_THROWS_WITH(
      load(json::array({good, json::object({{"step", 60}, {"set", json::object({{"field.strength", "-2 mT"}})}})})),
      Catch::Contains("$.timeline[1].set.field.strength") && Catch::Contains("-0.002") && Catch::Contains("[0, inf)"));
  CHECK_THROWS_WITH(
      load(json::array({json::object({{"step", 5}, {"set", json::object({{"materials.3.friction", 1.0}})}})})),
      Catch::Contains("$.timeline[0].set.materials.3.friction") && Catch::Contains("list of 1"));
  CHECK_THROWS_WITH(
      load(json::array({json::object({{"step", 5}, {"set", json::object({{"particles.count", 3}})}})})),
      Catch::Contains("$.timeline[0].set.particles.count") && Catch::Contains("cannot change during a run"));
  CHECK_THROWS_WITH(load(json::array({json::object({{"step", 5}, {"set", json::object()}})})),
                    Catch::Contains("$.timeline[0].set") && Catch::Contains("at least one"));
  CHECK_THROWS_WITH(load(json::array({json::object({{"step", 5}, {"sets", json::object()}})})),
                    Catch::Contains("$.timeline[0].sets") && Catch::Contains("allowed here: step, set"));
  CHECK_THROWS_WITH(load(json::object()), Catch::Contains("$.timeline") && Catch::Contains("list of objects"));
}

TEST_CASE("timeline: an entry a phase's changes make impossible stops the run with a message", "[timeline]") {
  Preset p = magnets_in_walled_box();
  ProtocolPhase first, second;
  first.duration = 1e-9;  // one step
  second.set = json::object({{"field.program", "rotating"}, {"field.rotation_axis", json::array({1, 0, 0})}});
  p.protocol = {first, second};
  p.timeline = {TimelineEntry{3, json::object({{"field.direction", json::array({1, 0, 0})}})}};
  Session session(p);
  session.run(5);
  CHECK_FALSE(session.state().health.ok);
  CHECK(session.state().health.message.find("timeline entry 1 (step 3)") != std::string::npos);
  CHECK(session.state().health.message.find("rotation_axis") != std::string::npos);
}

TEST_CASE("an edit of the model waits for the next step, which gives the bits of a change made at once", "[timeline]") {
  const Preset start = magnets_in_walled_box();
  Session edited(start);
  run_to_step(edited, 60);
  const std::uint64_t before = state_hash(edited.state());
  const std::vector<Vec3> forces = edited.state().particles.force;
  edited.apply({{"field.strength", "30 mT"}, {"materials.0.friction", 0.2}});
  // Only the model changed: the state is as it was, and knows that it waits for the model.
  CHECK(state_hash(edited.state()) == before);
  CHECK(edited.state().particles.force == forces);
  CHECK(edited.state().model_change_pending);
  CHECK(edited.model().field.strength == 0.03);
  run_checked(edited, 1);
  CHECK_FALSE(edited.state().model_change_pending);

  // The same change with the state brought up to date at once: the same bits; the deferral changes when, not what.
  Session now(start);
  run_to_step(now, 60);
  Simulation plain = Simulation::continue_saved(now.model(), now.state());
  plain.set_model(
      make_model(apply_changes(now.parameters(),
                               json::object({{"field.strength", "30 mT"}, {"materials.0.friction", 0.2}}), "$")),
      Simulation::ModelRefresh::Deferred);
  plain.apply_pending_model_change();
  CHECK_FALSE(plain.state().model_change_pending);
  run_checked(plain, 1);
  CHECK(state_hash(plain.state()) == state_hash(edited.state()));
  run_checked(edited, 100);
  run_checked(plain, 100);
  CHECK(state_hash(plain.state()) == state_hash(edited.state()));

  // An edit that changes the neighbour lists' ranges (the skin) or what the particles carry (a density) is made at
  // once.
  Session ranges(start);
  run_to_step(ranges, 60);
  ranges.apply({{"integrator.neighbor_skin", "0.2 mm"}});
  CHECK_FALSE(ranges.state().model_change_pending);
  ranges.apply({{"materials.0.density", 8000.0}});
  CHECK_FALSE(ranges.state().model_change_pending);
}

TEST_CASE("a checkpoint saved while an edit waits for the next step continues as the run that never stopped",
          "[timeline][checkpoint]") {
  Session session(magnets_in_walled_box());
  run_to_step(session, 40);
  session.apply({{"field.strength", "25 mT"}});
  REQUIRE(session.state().model_change_pending);
  const std::string bytes = checkpoint_to_bytes(session.folded_document(), session.state());
  Session continued(checkpoint_from_bytes(bytes));
  CHECK(continued.state().model_change_pending);
  run_checked(session, 80);
  run_checked(continued, 80);
  CHECK(state_hash(continued.state()) == state_hash(session.state()));
  // Without a pending change the file is format 7's, as older programs write and read it.
  const std::string settled = checkpoint_to_bytes(session.folded_document(), session.state());
  std::uint32_t version = 0;
  std::memcpy(&version, settled.data() + std::strlen("LODESTONE-CHECKPOINT\n"), sizeof version);
  CHECK(version == 7);
  std::memcpy(&version, bytes.data() + std::strlen("LODESTONE-CHECKPOINT\n"), sizeof version);
  CHECK(version == 8);
}

TEST_CASE(
    "an edit is worked out once and made as worked out; one prepared before the run moved on is worked out "
    "again at the step it is made",
    "[timeline]") {
  Session session(magnets_in_walled_box());
  run_to_step(session, 20);
  const Preset before = session.parameters();
  // Working it out changes nothing, and a value that cannot apply is refused there.
  const PreparedEdit edit = session.prepare_edit({{"field.strength", "12 mT"}});
  CHECK_FALSE(edit.changes_nothing());
  CHECK(edit.next.field.strength == Approx(0.012));
  CHECK(session.parameters().field.strength == before.field.strength);
  CHECK(session.document().timeline.empty());
  CHECK_THROWS_AS(session.prepare_edit({{"field.strength", "12 parsecs"}}), PresetError);
  CHECK(session.prepare_edit({{"field.strength", before.field.strength}}).changes_nothing());

  // Made at once: the same entry and the same bits as the edit made in one call.
  Session twin(magnets_in_walled_box());
  run_to_step(twin, 20);
  twin.apply({{"field.strength", "12 mT"}});
  session.apply_prepared(edit);
  REQUIRE(session.document().timeline.size() == 1);
  CHECK(session.document().timeline[0].step == 20);
  REQUIRE(twin.document().timeline.size() == 1);
  CHECK(session.document().timeline[0].set == twin.document().timeline[0].set);
  run_to_step(session, 40);
  run_to_step(twin, 40);
  CHECK(same_trajectory(session.state(), twin.state()));

  // Prepared at step 40, made at step 45: recorded at 45, where it acts.
  const PreparedEdit late = session.prepare_edit({{"field.strength", "5 mT"}});
  run_to_step(session, 45);
  session.apply_prepared(late);
  REQUIRE(session.document().timeline.size() == 2);
  CHECK(session.document().timeline[1].step == 45);
  CHECK(session.parameters().field.strength == Approx(0.005));
  REQUIRE(session.undo().has_value());
  CHECK(session.parameters().field.strength == Approx(0.012));
}
