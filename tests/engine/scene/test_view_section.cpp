// A preset's `view` section (engine/core/parameters.hpp, ViewParameters): the app's colours, arrows, camera,
// pace, start-paused and plots for a scene. It is read and written with the preset, refused with the field,
// value and what is allowed when wrong, never read by the physics (the trajectory is the same whatever it
// says), and the simulation thread takes its pace and start-paused flag on load (older presets' pace,
// run.real_time_factor, still applies when view.pace is not set).

#include "engine/core/state_hash.hpp"
#include "engine/live/simulation_thread.hpp"
#include "engine/scene/document.hpp"
#include "tests/engine/live_support.hpp"
#include "tests/engine/test_support.hpp"

#include <chrono>
#include <functional>
#include <thread>

using namespace lodestone;
using namespace lodestone::testing;

namespace {

std::string refusal(const std::string& text) {
  try {
    parse_preset(text);
  } catch (const PresetError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("view section: read with units, written back, and absent means the defaults", "[view]") {
  const Preset p = parse_preset(R"({"version": 1, "view": {"color_mode": "cluster", "arrow_length": 3,
      "camera_yaw": "-90 deg", "camera_pitch": "30 deg", "pace": 0.05, "start_paused": true, "plots_open": true}})");
  CHECK(p.view.color_mode == ViewColorMode::Cluster);
  CHECK(p.view.arrow_length == 3.0);
  CHECK(p.view.camera_yaw == Approx(-pi / 2));
  CHECK(p.view.camera_pitch == Approx(pi / 6));
  REQUIRE(p.view.pace);
  CHECK(*p.view.pace == 0.05);
  CHECK(p.view.start_paused);
  CHECK(p.view.plots_open);
  const Preset back = preset_from_json(preset_to_json(p));
  CHECK(preset_to_json(back) == preset_to_json(p));

  const Preset plain = parse_preset(R"({"version": 1})");
  CHECK(plain.view.color_mode == ViewColorMode::Automatic);
  CHECK_FALSE(plain.view.pace);
  CHECK_FALSE(plain.view.start_paused);
  CHECK(parse_preset(R"({"version": 1, "view": {"pace": "fastest"}})").view.pace == std::nullopt);
}

TEST_CASE("view section: a bad value is refused naming the field, the value and what is allowed", "[view]") {
  const std::string colour = refusal(R"({"version": 1, "view": {"color_mode": "rainbow"}})");
  CHECK_THAT(colour, Catch::Contains("$.view.color_mode"));
  CHECK_THAT(colour, Catch::Contains("rainbow"));
  CHECK_THAT(colour, Catch::Contains("direction"));
  const std::string pace = refusal(R"({"version": 1, "view": {"pace": -1}})");
  CHECK_THAT(pace, Catch::Contains("$.view.pace"));
  CHECK_THAT(pace, Catch::Contains("fastest"));
  const std::string arrow = refusal(R"({"version": 1, "view": {"arrow_length": 0.5}})");
  CHECK_THAT(arrow, Catch::Contains("$.view.arrow_length"));
  CHECK_THAT(arrow, Catch::Contains("[1, 6]"));
  CHECK_THAT(refusal(R"({"version": 1, "view": {"zoom": 2}})"), Catch::Contains("allowed here"));
}

TEST_CASE("view section: the trajectory is the same whatever the view says", "[view]") {
  Preset plain = repository_preset("two-dipoles.json");
  Preset viewed = plain;
  viewed.view.color_mode = ViewColorMode::Speed;
  viewed.view.pace = 0.001;
  viewed.view.start_paused = true;
  viewed.view.camera_yaw = 1.0;
  viewed.view.arrow_length = 5.0;
  viewed.view.plots_open = true;
  Session a(plain), b(viewed);
  for (int step = 0; step < 300; ++step) {
    a.step();
    b.step();
  }
  CHECK(state_hash(a.state()) == state_hash(b.state()));
}

TEST_CASE("view section: the simulation thread takes the pace and start-paused flag of a scene on load", "[view]") {
  Preset paced = repository_preset("two-dipoles.json");
  paced.view.pace = 0.02;
  paced.view.start_paused = true;
  paced.run.real_time_factor = 0.5;  // an older preset's pace: view.pace wins
  SimulationThread t(paced, "paced", /*start_running=*/true);
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.sequence >= 1; }));
  CHECK_FALSE(t.snapshot().running);  // start_paused wins over start_running
  CHECK(t.snapshot().step == 0);
  CHECK(t.snapshot().pace.mode == PaceMode::RealTime);
  CHECK(t.snapshot().pace.value == 0.02);

  // An older preset: run.real_time_factor is the pace, and the scene runs as the thread was told.
  Preset older = repository_preset("two-dipoles.json");
  older.view = ViewParameters{};  // as before the view section existed
  older.run.real_time_factor = 0.25;
  t.push(SetRunning{true});
  t.push(LoadScene{older, "older"});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.scene_source == "older" && s.step > 0; }));
  CHECK(t.snapshot().pace.mode == PaceMode::RealTime);
  CHECK(t.snapshot().pace.value == 0.25);

  // A scene that asks to start paused pauses a running thread when loaded.
  t.push(LoadScene{paced, "paused again"});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.scene_source == "paused again"; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  t.update_snapshot();
  CHECK_FALSE(t.snapshot().running);
  CHECK(t.snapshot().step == 0);
}

TEST_CASE("view section: every preset in presets/ loads with its view, and teaching scenes set a pace", "[view]") {
  for (const char* name :
       {"default.json", "two-dipoles.json", "magnets-meeting.json", "bar-magnets.json", "chain-falls.json",
        "chains-and-rings.json", "field-switch-on.json", "rotating-field-chain.json", "compass-needles.json"}) {
    INFO(name);
    const Preset p = repository_preset(name);
    REQUIRE(p.view.pace);
    CHECK(*p.view.pace > 0.0);
    CHECK(*p.view.pace <= 1.0);
    CHECK(p.run.real_time_factor == 0.0);  // one pace per preset: view.pace
  }
}

TEST_CASE("view section: a protocol phase that sets view.pace slows the app down as it starts, and only the app",
          "[view]") {
  Preset p = repository_preset("two-dipoles.json");
  p.view.pace = 0.5;
  ProtocolPhase first, second;
  first.name = "approach";
  first.duration = 10 * 1.41e-6;
  second.name = "collision";
  second.duration = 1.0;
  second.set = json{{"view.pace", 0.001}};
  p.protocol = {first, second};
  SimulationThread t(p, "phases", /*start_running=*/false);
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.sequence >= 1; }));
  CHECK(t.snapshot().pace.value == 0.5);
  t.push(StepOnce{40});
  REQUIRE(wait_until(t, [](const Snapshot& s) { return s.step == 40; }));
  CHECK(t.snapshot().observables.phase == 1);
  CHECK(t.snapshot().pace.mode == PaceMode::RealTime);
  CHECK(t.snapshot().pace.value == 0.001);

  // The same protocol without the pace: the same trajectory.
  Preset plain = p;
  plain.protocol[1].set = json::object();
  Session a(p), b(plain);
  for (int step = 0; step < 200; ++step) {
    a.step();
    b.step();
  }
  CHECK(state_hash(a.state()) == state_hash(b.state()));
}

TEST_CASE("view section: the gallery's group, title and line and the first plots, read, written, refused when wrong",
          "[view]") {
  const Preset p = parse_preset(R"({"version": 1, "view": {"plots": ["cluster_size", "contacts"], "group": "teaching",
      "title": "Chains and rings", "summary": "Beads join into chains and rings."}})");
  CHECK(p.view.plots == std::vector<std::string>{"cluster_size", "contacts"});
  CHECK(p.view.group == GalleryGroup::Teaching);
  CHECK(p.view.title == "Chains and rings");
  CHECK(p.view.summary == "Beads join into chains and rings.");
  CHECK(preset_to_json(preset_from_json(preset_to_json(p))) == preset_to_json(p));
  const Preset plain = parse_preset(R"({"version": 1})");
  CHECK(plain.view.plots.empty());
  CHECK(plain.view.group == GalleryGroup::Research);

  const std::string unknown = refusal(R"({"version": 1, "view": {"plots": ["cluster_size", "histograms"]}})");
  CHECK_THAT(unknown, Catch::Contains("$.view.plots[1]") && Catch::Contains("histograms") &&
                          Catch::Contains("alignment, angles, kinetic, potential, balance, contacts, cluster_size"));
  CHECK_THAT(refusal(R"({"version": 1, "view": {"plots": ["contacts", "contacts"]}})"),
             Catch::Contains("$.view.plots[1]") && Catch::Contains("already in the list"));
  CHECK_THAT(refusal(R"({"version": 1, "view": {"plots": "contacts"}})"),
             Catch::Contains("$.view.plots") && Catch::Contains("expected a list"));
  CHECK_THAT(refusal(R"({"version": 1, "view": {"group": "fun"}})"),
             Catch::Contains("$.view.group") && Catch::Contains("teaching, research, benchmarks"));
}

TEST_CASE(
    "view section: every preset in presets/ has a gallery group, a title and one short line; the teaching "
    "group is the nine teaching scenes",
    "[view]") {
  std::vector<std::string> teaching;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(LODESTONE_SOURCE_DIR) / "presets")) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().filename().string();
    INFO(name);
    const Preset p = repository_preset(name.c_str());
    CHECK_FALSE(p.view.title.empty());
    CHECK_FALSE(p.view.summary.empty());
    CHECK(p.view.summary.size() <= 80);  // one line under a 240 px thumbnail, in two rows at most
    CHECK(p.view.summary.find('\n') == std::string::npos);
    if (p.view.group == GalleryGroup::Teaching) teaching.push_back(name);
  }
  std::sort(teaching.begin(), teaching.end());
  CHECK(teaching == std::vector<std::string>{"bar-magnets.json", "chain-falls.json", "chains-and-rings.json",
                                             "compass-needles.json", "default.json", "field-switch-on.json",
                                             "magnets-meeting.json", "rotating-field-chain.json", "two-dipoles.json"});
}
