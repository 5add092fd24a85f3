// Protocol stages (seed 004 Sec. 3): overrides by dotted path, stages in order, end conditions.

#include "test_support.hpp"

#include "engine/protocol.hpp"

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
}

namespace {

// Ten spheres dropped anywhere in a box (overlaps allowed), overdamped: remove overlaps, then wait,
// then switch a field on.
Preset staged() {
  Preset p = bare_preset();
  p.box.min = Vec3::Zero();
  p.box.max = Vec3(4e-3, 4e-3, 4e-3);
  p.box.x_min = p.box.x_max = p.box.y_min = p.box.y_max = p.box.z_min = p.box.z_max = SideKind::Wall;
  p.contact.law = ContactLaw::HertzCoulomb;
  p.environment.translational_damping = 1.0;
  p.environment.rotational_damping = 1.0;
  p.integrator.scheme = IntegratorScheme::OverdampedHeun;
  p.integrator.time_step = 1e-5;
  p.integrator.max_displacement = 1e-5;
  p.particles.kind = GeneratorKind::Random;
  p.particles.count = 30;
  p.particles.diameter = 1e-3;
  p.particles.allow_overlap = true;
  ProtocolStage remove, wait, field;
  remove.name = "overlap removal";
  remove.until = StageEnd::NoOverlap;
  remove.threshold = 1e-3;
  remove.duration = 10.0;
  wait.name = "wait";
  wait.duration = 1e-3;
  wait.set = json::object({{"materials.0.friction", 0.1}});
  field.name = "field";
  field.duration = 1e-3;
  field.set = json::object({{"field.strength", "10 mT"}});
  p.protocol = {remove, wait, field};
  return p;
}

}  // namespace

TEST_CASE("stages run in order: overlaps removed, then a timed stage, then the field", "[protocol]") {
  const Preset p = staged();
  Simulation sim(p);
  CHECK(sim.stage_label() == "1/3 overlap removal");
  CHECK(max_overlap_ratio(sim.model(), sim.state()) > 0.05);  // the random placement overlaps
  while (sim.state().stage == 0 && sim.state().health.ok && sim.state().time < 10.0) sim.step();
  REQUIRE(sim.state().health.ok);
  CHECK(sim.state().stage == 1);
  CHECK(sim.model().materials[0].friction == 0.1);
  CHECK(sim.model().field.strength == 0.0);
  // The stage ended when the condition held: no overlap beyond the threshold (checked again here).
  sim.step();
  CHECK(max_overlap_ratio(sim.model(), sim.state()) < 2e-3);
  const double stage_began = sim.state().stage_start_time;
  while (!sim.protocol_finished() && sim.state().health.ok) sim.step();
  REQUIRE(sim.state().health.ok);
  CHECK(sim.model().field.strength == Approx(0.01));
  CHECK(sim.model().materials[0].friction == 0.1);  // changes add up from stage to stage
  CHECK(sim.state().time == Approx(stage_began + 2e-3).margin(2e-5));
  CHECK(sim.stage_label() == "protocol done");
}

TEST_CASE("a bad stage override is a preset error naming the stage and the path", "[protocol]") {
  Preset p = staged();
  p.protocol[2].set = json::object({{"field.strength", "-3 mT"}});
  CHECK_THROWS_WITH(Simulation(p), Catch::Contains("protocol[2]") && Catch::Contains("strength"));
  p.protocol[2].set = json::object({{"particles.count", 3}});
  CHECK_THROWS_WITH(Simulation(p), Catch::Contains("protocol[2].set.particles.count"));
}
