// Protocol phases ([Erokhin-Berkov] Sec. 3): overrides by dotted path, phases in order, end conditions.

#include "engine/scene/document.hpp"
#include "engine/scene/preset_edits.hpp"
#include "engine/session/protocol.hpp"
#include "tests/engine/test_support.hpp"

using namespace lodestone;
using namespace lodestone::testing;

TEST_CASE("set_json_path sets nested keys and list entries, and names what is missing", "[protocol]") {
  json j = preset_to_json(default_preset());
  set_json_path(j, "field.strength", "40 kOe", "here");
  set_json_path(j, "materials.0.friction", 0.25, "here");
  const Preset p = preset_from_json(j);
  CHECK(p.field.strength == Approx(4.0));
  CHECK(p.materials[0].friction == 0.25);
  CHECK_THROWS_WITH(set_json_path(j, "field.strenght", 1, "$.protocol[0].set.field.strenght"),
                    Catch::Contains("$.protocol[0].set.field.strenght") && Catch::Contains("strength"));
  CHECK_THROWS_WITH(set_json_path(j, "materials.7.friction", 1, "w"), Catch::Contains("list of 1"));

  // Keys with dots inside (a phase's changes) are reached by joining segments.
  ProtocolPhase phase;
  phase.set = json::object({{"field.strength", "2 mT"}});
  Preset phased_preset = default_preset();
  phased_preset.protocol = {phase};
  json s = preset_to_json(phased_preset);
  CHECK(json_at_path(s, "protocol.0.set.field.strength", "here") == "2 mT");
  set_json_path(s, "protocol.0.set.field.strength", "5 mT", "here");
  CHECK(preset_from_json(s).protocol[0].set.at("field.strength") == "5 mT");
  CHECK_THROWS_WITH(json_at_path(s, "protocol.0.set.field.direction", "here"),
                    Catch::Contains("keys there: field.strength"));
  CHECK_THROWS_WITH(json_at_path(s, "field.strength.x", "here"), Catch::Contains("is a value"));
}

namespace {

// Thirty grains dropped anywhere in a box (overlaps allowed), overdamped: remove overlaps, then wait,
// then switch a field on.
Preset staged() {
  Preset p = overdamped_grains_in_walled_box();
  ProtocolPhase wait, field;
  wait.name = "wait";
  wait.duration = 1e-3;
  wait.set = json::object({{"materials.0.friction", 0.1}});
  field.name = "field";
  field.duration = 1e-3;
  field.set = json::object({{"field.strength", "10 mT"}});
  p.protocol = {overlap_removal_phase(), wait, field};
  return p;
}

}  // namespace

TEST_CASE("phases run in order: overlaps removed, then a timed phase, then the field", "[protocol]") {
  const Preset p = staged();
  Session session(p);
  CHECK(session.phase_label() == "1/3 overlap removal");
  CHECK(max_overlap_ratio(session.model(), session.state()) > 0.05);  // the random placement overlaps
  while (session.state().phase == 0 && session.state().health.ok && session.state().time < 10.0) session.step();
  REQUIRE(session.state().health.ok);
  CHECK(session.state().phase == 1);
  CHECK(session.model().materials[0].friction == 0.1);
  CHECK(session.model().field.strength == 0.0);
  // The phase ended when the condition held: no overlap beyond the threshold (checked again here).
  session.step();
  CHECK(max_overlap_ratio(session.model(), session.state()) < 2e-3);
  const double phase_began = session.state().phase_start_time;
  while (!session.protocol_finished() && session.state().health.ok) session.step();
  REQUIRE(session.state().health.ok);
  CHECK(session.model().field.strength == Approx(0.01));
  CHECK(session.model().materials[0].friction == 0.1);  // changes add up from phase to phase
  CHECK(session.state().time == Approx(phase_began + 2e-3).margin(2e-5));
  CHECK(session.phase_label() == "protocol done");
}

TEST_CASE("a bad phase override is a preset error naming the phase and the path", "[protocol]") {
  Preset p = staged();
  p.protocol[2].set = json::object({{"field.strength", "-3 mT"}});
  CHECK_THROWS_WITH(Session(p), Catch::Contains("protocol[2]") && Catch::Contains("strength"));
  p.protocol[2].set = json::object({{"particles.count", 3}});
  CHECK_THROWS_WITH(Session(p), Catch::Contains("protocol[2].set.particles.count"));
}

namespace {

Session at_phase(const Preset& p, int phase) {
  Session session(p);
  while (session.state().phase < phase && session.state().health.ok && session.state().time < 10.0) session.step();
  REQUIRE(session.state().health.ok);
  REQUIRE(session.state().phase == phase);
  return session;
}

}  // namespace

TEST_CASE("an edit during a phase applies now, lasts through later phases, and yields to their own settings",
          "[protocol]") {
  Session session = at_phase(staged(), 1);  // "wait": friction 0.1, no field yet
  REQUIRE(session.parameters().materials[0].friction == 0.1);
  REQUIRE(session.parameters().field.strength == 0.0);

  Preset edited = session.parameters();
  edited.materials[0].friction = 0.3;              // the phase sets 0.1: the edit replaces it
  edited.field.strength = 0.005;                   // the next phase sets 10 mT: it takes over then
  edited.environment.translational_damping = 2.0;  // no phase sets it: it stays
  edited.particles.count = 12;                     // a phase cannot set particles: the document takes it
  session.edit_parameters(edited);

  // Now: the model and the parameters in force are exactly the edited values.
  CHECK(session.model().materials[0].friction == 0.3);
  CHECK(session.model().field.strength == 0.005);
  CHECK(session.model().environment.translational_damping == 2.0);
  CHECK(preset_to_json(session.parameters()) == preset_to_json(edited));
  // The document: the phases as loaded, the edit in the timeline at this step (engine/scene/preset_edits.hpp);
  // the particle generator is not a change of the run, the document takes it.
  const Preset& doc = session.document();
  CHECK(doc.particles.count == 12);
  CHECK(doc.materials[0].friction == staged().materials[0].friction);
  CHECK(preset_to_json(doc)["protocol"] == preset_to_json(staged())["protocol"]);
  REQUIRE(doc.timeline.size() == 1);
  CHECK(doc.timeline[0].step == static_cast<std::uint64_t>(session.state().step));
  CHECK(doc.timeline[0].set.size() == 3);
  CHECK(!doc.timeline[0].set.contains("particles.count"));
  // Folded (what a reset restarts from): the edit joined the running phase's changes.
  const Preset folded = session.folded_document();
  CHECK(folded.timeline.empty());
  CHECK(folded.protocol[0].set.empty());
  CHECK(folded.protocol[1].set.size() == 3);
  CHECK(folded.protocol[1].set.at("materials.0.friction") == 0.3);
  CHECK(phase_preset(folded, 0).environment.translational_damping == 1.0);

  // The next phase: its own field, the other edits kept.
  while (!session.protocol_finished() && session.state().health.ok) session.step();
  REQUIRE(session.state().health.ok);
  CHECK(session.model().field.strength == Approx(0.01));
  CHECK(session.model().materials[0].friction == 0.3);
  CHECK(session.model().environment.translational_damping == 2.0);
}

TEST_CASE("an edit that a phase's own changes would break is refused, and nothing changes", "[protocol]") {
  Preset p = staged();
  p.protocol[2].set = json::object({{"field.direction", json::array({0, 0, 1})}});
  Session session = at_phase(p, 1);
  const json document_before = preset_to_json(session.document());
  Preset edited = session.parameters();
  edited.integrator.time_step = -1.0;
  CHECK_THROWS_WITH(session.edit_parameters(edited), Catch::Contains("time_step"));
  CHECK(preset_to_json(session.document()) == document_before);
  CHECK(session.model().time_step == *p.integrator.time_step);
}

TEST_CASE("without a protocol an edit goes to the timeline, and folded it is the new document", "[protocol]") {
  Preset p = staged();
  p.protocol.clear();
  p.particles.allow_overlap = false;
  p.particles.count = 5;
  Session session(p);
  Preset edited = session.parameters();
  edited.field.strength = 0.02;
  edited.description = "edited";
  session.edit_parameters(edited);
  CHECK(session.document().field.strength == p.field.strength);
  CHECK(session.document().description == "edited");
  REQUIRE(session.document().timeline.size() == 1);
  CHECK(session.document().timeline[0].set == json::object({{"field.strength", 0.02}}));
  CHECK(preset_to_json(session.parameters()) == preset_to_json(edited));
  CHECK(preset_to_json(session.folded_document()) == preset_to_json(edited));
  CHECK(session.model().field.strength == 0.02);
}

TEST_CASE("the protocol's scans on a team: the largest values exactly, the mean alignment to round-off", "[protocol]") {
  // Run after every step on the simulation's team (Simulation::run_after_step). 20 000 particles: several parts.
  State state;
  Particles& p = state.particles;
  constexpr size_t n = 20000;
  p.resize(n);
  double expected_sum = 0.0;  // the independent value: the easy axes are turned about z only, which keeps cos(z)
  for (size_t i = 0; i < n; ++i) {
    const double tilt = 3.0 * static_cast<double>(i) / static_cast<double>(n);  // 0 .. 3 rad: cos changes sign
    p.easy_axis_body[i] = Vec3(std::sin(tilt), 0.0, std::cos(tilt));
    p.orientation[i] = Quat(Eigen::AngleAxisd(0.37 * static_cast<double>(i), Vec3::UnitZ()));
    p.velocity[i] = Vec3(std::sin(1.0 * i), std::cos(2.0 * i), 0.5);
    expected_sum += std::abs(std::cos(tilt));
  }
  p.velocity[15001] = Vec3(0.0, -7.0, 0.0);
  for (int threads : {1, 3}) {
    INFO("threads " << threads);
    ThreadTeam team(threads);
    CHECK(mean_easy_axis_alignment(p, Vec3::UnitZ(), team) ==
          Approx(expected_sum / static_cast<double>(n)).epsilon(1e-12));
    CHECK(max_speed(state, team) == 7.0);
    Model model;
    model.field.direction = Vec3::UnitZ();
    model.field.strength = 0.01;
    ProtocolPhase aligned;
    aligned.until = PhaseEnd::Aligned;
    aligned.threshold = expected_sum / static_cast<double>(n) * (1.0 - 1e-9);
    CHECK(phase_condition_met(aligned, model, state, team));
    aligned.threshold = expected_sum / static_cast<double>(n) * (1.0 + 1e-9);
    CHECK_FALSE(phase_condition_met(aligned, model, state, team));
  }
  CHECK(mean_easy_axis_alignment(Particles{}, Vec3::UnitZ()) == 0.0);
}
