// Every panel of ui/panels.hpp drawn in a headless ImGui frame (no OpenGL, no display) for every preset in
// presets/, and again for every choice of every choice field the panels branch on (contact law, field
// program, dipole method, ...): a panel that asks edit_key for a field its schema does not declare (a typo
// would draw nothing) fails the test, naming the preset, the panel and the key.
//
// The panels are called one by one, not through draw_panels: its collapsing headers start closed. Tree
// nodes inside the panels (materials, rolling resistance, gradient, bonds, ...) are opened by ImGui's
// logging, which expands every tree node it passes, so that the editors inside them are drawn too.

#include "engine/live/snapshot.hpp"
#include "engine/live/snapshot_capture.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/scene/unit_system.hpp"
#include "engine/session/session.hpp"
#include "render/scene_builder.hpp"
#include "tests/test_process.hpp"
#include "tests/ui/headless_imgui.hpp"
#include "tests/ui/live_scene.hpp"
#include "ui/gallery.hpp"
#include "ui/panels.hpp"
#include "ui/plain_labels.hpp"

#include <catch2/catch.hpp>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace lodestone;
using namespace lodestone::ui;
using lodestone::test::preset_files;
using lodestone::ui::test::HeadlessImGui;
using lodestone::ui::test::LiveScene;

namespace {

struct Panel {
  const char* name;
  void (*draw)(PanelContext&);
};

// Every panel function of ui/panels.hpp (draw_panels calls them all).
const Panel kPanels[] = {{"run", run_panel},         {"view", view_panel},
                         {"field", field_panel},     {"contact", contact_panel},
                         {"walls", walls_panel},     {"magnetics", magnetics_panel},
                         {"presets", presets_panel}, {"export", export_panel},
                         {"plots", plots_window},    {"inspector", inspector_window},
                         {"overlays", overlays},     {"gallery", gallery_window}};

// Deeper than any panel nests its tree nodes: logging opens them all.
constexpr int kOpenTreeDepth = 16;

// Large, so that no widget is clipped (clipped text is not logged).
const ImVec2 kLargeDisplay(kSidebarWidth + 1600.0f, 20000.0f);

// What a side-bar panel drew (ImGui's log of it), or the std::logic_error a panel threw.
struct PanelFrame {
  std::string text;
  std::string error;
};

// One panel in a frame of its own, inside a side-bar window as draw_panels gives it, with every tree node
// open. ImGui logs (and opens tree nodes) from LogToBuffer until a window ends: the side bar's panels draw
// no windows of their own; the Plots and Inspector windows and the overlays' legend are logged to their
// end, the overlays' notice window not. A panel that throws leaves its windows, tree nodes and ID stack
// open: ImGui's recovery closes them, and the next frame starts clean.
PanelFrame draw_alone(const Panel& panel, PanelContext& context) {
  PanelFrame frame;
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(kSidebarWidth, ImGui::GetIO().DisplaySize.y));
  ImGui::Begin("side bar");
  ImGui::LogToBuffer(kOpenTreeDepth);
  try {
    panel.draw(context);
  } catch (const std::logic_error& e) {
    frame.error = e.what();
  }
  frame.text = ImGui::GetCurrentContext()->LogBuffer.c_str();
  if (frame.error.empty())
    ImGui::End();  // and the log
  else
    ImGui::ErrorCheckEndFrameRecover(nullptr);
  ImGui::Render();
  return frame;
}

void publish(const Session& session, const std::string& source, Snapshot& s) {
  capture_snapshot(session, s);
  s.scene = std::make_shared<const Preset>(session.document());
  s.in_force = std::make_shared<const Preset>(session.parameters());
  s.scene_revision = 1;
  s.scene_source = source;
  s.scene_loads = 1;
}

// The GUI's view of a preset being run, as the app has it after a few steps: snapshots published as the
// simulation thread publishes them, adopted by the UiState, the first particle selected (the inspector), a
// notice shown, the presets listed.
std::unique_ptr<LiveScene> run_scene(const Preset& preset, const std::string& source) {
  auto live = std::make_unique<LiveScene>();
  Session session(preset);
  for (int step = 0; step < 3; ++step) {  // three points in the plots' history
    if (step > 0) session.step();
    publish(session, source, live->snapshot);
    adopt_snapshot(live->state, live->snapshot);
  }
  scan_presets(live->state, lodestone::test::preset_directory().string());
  if (live->snapshot.particles.size() > 0) live->state.selected = live->snapshot.particles.id.front();
  live->state.notice = "loaded " + source;
  return live;
}

// Draws every panel once; returns "<what>, <panel> panel: <error>" for each panel that threw.
std::vector<std::string> draw_every_panel(LiveScene& live, const std::string& what) {
  const CommandSink ignore = [](Command) {};
  PanelContext context{live.snapshot, live.state, ignore, live.scene.update(live.snapshot, live.state.view),
                       live.gizmo_labels};
  live.state.plots_open_request = true;  // collapsed, the Plots window would draw nothing
  live.state.gallery_open = true;
  std::vector<std::string> failures;
  for (const Panel& panel : kPanels) {
    const PanelFrame frame = draw_alone(panel, context);
    if (!frame.error.empty()) failures.push_back(what + ", " + panel.name + " panel: " + frame.error);
  }
  return failures;
}

// Every choice of every choice field of `object`, one at a time (the others as they were), then the
// object as it was: the branches the panels take on them (law, program, method, ...).
template <class S>
void for_each_choice(const Schema<S>& schema, S& object, const std::string& path,
                     const std::function<void(const std::string&)>& visit) {
  for (const auto& f : schema) {
    if (f.kind != FieldKind::Choice) continue;
    int& value = *static_cast<int*>(f.address(object));
    const int original = value;
    for (size_t k = 0; k < f.choices.size(); ++k) {
      value = static_cast<int>(k);
      visit(path + "." + f.key + " = " + f.choices[k]);
    }
    value = original;
  }
}

}  // namespace

TEST_CASE("panels: every panel draws every preset without naming a field its schema lacks", "[ui]") {
  const HeadlessImGui imgui(kLargeDisplay);
  const std::vector<fs::path> files = preset_files();
  REQUIRE(files.size() >= 10);
  std::vector<std::string> failures;
  for (const fs::path& file : files) {
    const std::unique_ptr<LiveScene> live = run_scene(load_preset_file(file.string()), file.string());
    for (const std::string& f : draw_every_panel(*live, file.filename().string())) failures.push_back(f);
  }
  for (const std::string& f : failures) UNSCOPED_INFO(f);
  CHECK(failures.empty());
}

TEST_CASE("panels: every panel draws every choice of the fields it branches on", "[ui]") {
  const HeadlessImGui imgui(kLargeDisplay);
  const std::unique_ptr<LiveScene> live = run_scene(default_preset(), "built-in default preset");
  Preset& p = live->state.edited;  // what the panels show: as if the user had picked each choice
  std::vector<std::string> failures;
  const auto draw = [&](const std::string& what) {
    for (const std::string& f : draw_every_panel(*live, what)) failures.push_back(f);
  };
  for_each_choice(contact_schema(), p.contact, "contact", draw);
  for_each_choice(field_schema(), p.field, "field", draw);
  for_each_choice(magnetics_schema(), p.magnetics, "magnetics", draw);
  for_each_choice(integrator_schema(), p.integrator, "integrator", draw);
  for_each_choice(environment_schema(), p.environment, "environment", draw);
  for_each_choice(bonds_schema(), p.bonds, "bonds", draw);
  for_each_choice(floor_schema(), p.floor, "floor", draw);
  for_each_choice(box_schema(), p.box, "box", draw);
  for (size_t m = 0; m < p.materials.size(); ++m)
    for_each_choice(material_schema(), p.materials[m], "materials[" + std::to_string(m) + "]", draw);
  for (const std::string& f : failures) UNSCOPED_INFO(f);
  CHECK(failures.empty());
}

// The two tests above see the editors inside tree nodes only if the frames really open them.
TEST_CASE("panels: the test frames open the tree nodes inside the panels", "[ui]") {
  const HeadlessImGui imgui(kLargeDisplay);
  const std::unique_ptr<LiveScene> live = run_scene(default_preset(), "built-in default preset");
  const CommandSink ignore = [](Command) {};
  PanelContext context{live->snapshot, live->state, ignore, live->scene.update(live->snapshot, live->state.view),
                       live->gizmo_labels};
  const auto text_of = [&](void (*panel)(PanelContext&)) { return draw_alone(Panel{"", panel}, context).text; };
  CHECK_THAT(text_of(field_panel), Catch::Contains("where the gradient is zero"));  // in the "Advanced" tree node
  CHECK_THAT(text_of(contact_panel), Catch::Contains("density"));                   // in each material's tree node
  CHECK_THAT(text_of(walls_panel), Catch::Contains("from ("));                      // in the "box" tree node
}

TEST_CASE("a refusal shown in the window names the field in the panels' words", "[ui]") {
  // Issue 39: notices spoke preset paths ("$.field.rotation_axis: ..."); the panels show "Field" and its labels.
  CHECK(ui::plain_notice("$.field.strength: value '-3 mT' = -0.003 T is out of the allowed range [0, inf) T") ==
        "Field, strength: value '-3 mT' = -0.003 T is out of the allowed range [0, inf) T");
  CHECK(ui::plain_notice("$.materials[1].friction: value -1 is out of the allowed range [0, inf)") ==
        "Material 2, friction coefficient: value -1 is out of the allowed range [0, inf)");
  CHECK(ui::plain_notice("$.materials.0.friction: value -1 is out of the allowed range [0, inf)") ==
        "Material 1, friction coefficient: value -1 is out of the allowed range [0, inf)");
  CHECK(ui::plain_notice("$.field.rotation_axis: a rotating field turns about its rotation axis") ==
        "Field, turns about the axis: a rotating field turns about its rotation axis");
  // Not a field of a panel: as it was.
  CHECK(ui::plain_notice("cannot open 'x.json'") == "cannot open 'x.json'");
  CHECK(ui::plain_notice("$.timeline[2].set.field.strength: bad") == "$.timeline[2].set.field.strength: bad");
  CHECK(ui::plain_notice("$.version: unsupported") == "$.version: unsupported");
  CHECK(ui::plain_notice("$.materials.3: no such material") == "Material 4: no such material");
  // Undo notices too (issue 39 "Words": they read "undone: field.strength ..."), each change of one edit.
  CHECK(ui::plain_notice("undone: field.strength 0.05 kOe -> 0.4 kOe") ==
        "undone: Field, strength: 0.05 kOe -> 0.4 kOe");
  CHECK(ui::plain_notice("redone: materials.0.friction 0.3 -> 0.5; field.strength 5 mT -> 30 mT") ==
        "redone: Material 1, friction coefficient: 0.3 -> 0.5; Field, strength: 5 mT -> 30 mT");
  CHECK(ui::plain_notice("undone: pull of particle 0 (went back to step 10, before it)") ==
        "undone: pull of particle 0 (went back to step 10, before it)");
}

TEST_CASE("panels: a preset in reduced units shows its values in lj, as its file holds them", "[ui]") {
  // issue 42 (the panels as an entry point of one reading of numbers): two-dipoles-lj's field strength 0.5 is shown
  // as 0.5 [lj], not 22.36 mT; the Run panel's time and time step in lj; the same panels of two-dipoles in mT and s.
  const HeadlessImGui imgui(kLargeDisplay);
  const CommandSink ignore = [](Command) {};
  const auto texts = [&](const std::string& name) {
    const std::string file = (lodestone::test::preset_directory() / name).string();
    Preset preset = load_preset_file(file);
    preset.field.strength =
        preset.units.system == UnitSystem::Lj ? 0.5 * LjUnits(preset.units.lj).flux_density : 0.02;  // 0.5 lj, or 20 mT
    const std::unique_ptr<LiveScene> live = run_scene(preset, file);
    live->snapshot.pace.mode = PaceMode::RealTime;  // the pace in simulated time per real second
    PanelContext context{live->snapshot, live->state, ignore, live->scene.update(live->snapshot, live->state.view),
                         live->gizmo_labels};
    return std::pair{draw_alone(Panel{"", field_panel}, context).text, draw_alone(Panel{"", run_panel}, context).text};
  };
  const auto [lj_field, lj_run] = texts("two-dipoles-lj.json");
  CHECK_THAT(lj_field, Catch::Contains("strength [lj]"));
  CHECK_THAT(lj_field, Catch::Contains("Values in reduced (lj) units"));
  CHECK_THAT(lj_field, Catch::Contains("B now = (0, 0, 0.5) lj"));
  CHECK_THAT(lj_run, Catch::Contains(" lj   step "));
  CHECK_THAT(lj_run, Catch::Contains("sim. lj per real s"));
  const auto [si_field, si_run] = texts("two-dipoles.json");
  CHECK_THAT(si_field, Catch::Contains("strength [mT]"));
  CHECK_THAT(si_field, Catch::Contains("B now = (0, 0, 20) mT"));
  CHECK_THAT(si_run, Catch::Contains(" s   step "));
  CHECK_THAT(si_run, Catch::Contains("sim. s per real s"));
}
