// The scene gallery (ui/gallery.hpp) over the repository's presets: every preset once, in the group its view names,
// with a thumbnail; its window shows titles and lines with the research text folded; choosing a card asks the window
// to open that file (the Presets panel's load path) and closes the gallery. And the Plots window's order
// (view.plots): the preset's plots first, the others folded.

#include "engine/scene/document.hpp"
#include "tests/test_process.hpp"
#include "tests/ui/headless_imgui.hpp"
#include "ui/gallery.hpp"
#include "ui/panels.hpp"

#include <catch2/catch.hpp>
#include <imgui.h>
#include <imgui_internal.h>

#include <string>
#include <vector>

using namespace lodestone;
using namespace lodestone::ui;
using lodestone::ui::test::HeadlessImGui;

namespace {

UiState listed_presets() {
  UiState state;
  scan_presets(state, lodestone::test::preset_directory().string());
  return state;
}

// The text the gallery draws in one frame, tree nodes opened to `open_depth` levels (0: as a user first sees it, only
// the headers open by default; more: every "more" and the Benchmarks header too). Drawn in a window of the test's:
// ImGui's log ends with the window it began in.
std::string gallery_text(UiState& state, int open_depth) {
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
  ImGui::Begin("gallery");
  ImGui::LogToBuffer(open_depth);
  // A collapsing header does not open for the log: the folded Benchmarks header is opened by hand to look inside.
  if (open_depth > 0) ImGui::GetStateStorage()->SetInt(ImGui::GetID(gallery_groups({})[2].heading), 1);
  gallery_contents(state);
  const std::string text = ImGui::GetCurrentContext()->LogBuffer.c_str();
  ImGui::End();
  ImGui::Render();
  return text;
}

}  // namespace

TEST_CASE("gallery: every preset once, in the group its view names, each with a thumbnail", "[ui][gallery]") {
  const UiState state = listed_presets();
  const std::vector<GalleryGroupView> groups = gallery_groups(state.presets);
  REQUIRE(groups.size() == 3);
  CHECK(groups[0].group == GalleryGroup::Teaching);
  CHECK(groups[1].group == GalleryGroup::Research);
  CHECK(groups[2].group == GalleryGroup::Benchmarks);
  size_t listed = 0;
  for (const GalleryGroupView& g : groups)
    for (const PresetEntry* e : g.entries) {
      INFO(e->path);
      ++listed;
      CHECK(e->loadable);
      CHECK(load_preset_file(e->path).view.group == g.group);
      CHECK_FALSE(e->title.empty());
      CHECK_FALSE(e->summary.empty());
      CHECK_FALSE(e->thumbnail.empty());  // assets/thumbnails/NAME.png (scripts/make_thumbnails.py)
    }
  CHECK(listed == lodestone::test::preset_files().size());
  CHECK(groups[0].entries.size() == 9);
  CHECK(thumbnail_directory(lodestone::test::preset_directory().string()).find("assets") != std::string::npos);
}

TEST_CASE("gallery: titles and lines shown, the research text folded under 'more'", "[ui][gallery]") {
  HeadlessImGui imgui(ImVec2(900.0f, 20000.0f));  // three cards a row, nothing clipped
  UiState state = listed_presets();
  state.gallery_open = true;
  state.sidebar_hidden = true;
  gallery_text(state, 0);  // a table's first frame measures its columns and draws no cells
  const std::string first_look = gallery_text(state, 0);
  gallery_text(state, 16);  // the Benchmarks header opens: its table's first frame
  const std::string everything = gallery_text(state, 16);
  for (const PresetEntry& e : state.presets) {
    INFO(e.name);
    CHECK(everything.find(e.title) != std::string::npos);
    CHECK(everything.find(e.description.substr(0, 60)) != std::string::npos);
    CHECK(first_look.find(e.description.substr(0, 60)) == std::string::npos);  // folded
    if (e.group != GalleryGroup::Benchmarks) CHECK(first_look.find(e.summary) != std::string::npos);
  }
  CHECK(first_look.find("Teaching") != std::string::npos);
}

TEST_CASE("gallery: choosing a scene asks the window to open its file and closes the gallery", "[ui][gallery]") {
  UiState state = listed_presets();
  state.gallery_open = true;
  CHECK_FALSE(choose_gallery_entry(state, "no-such-scene"));
  CHECK(state.gallery_open);
  CHECK_FALSE(state.open_request);
  REQUIRE(choose_gallery_entry(state, "two-dipoles"));
  REQUIRE(state.open_request);
  CHECK(*state.open_request == (lodestone::test::preset_directory() / "two-dipoles.json").string());
  CHECK_FALSE(state.gallery_open);
  state.open_request.reset();
  REQUIRE(choose_gallery_entry(state, "Chains and rings"));  // by its title too
  CHECK(state.open_request->find("chains-and-rings.json") != std::string::npos);
}

TEST_CASE("plots: a preset's view.plots come first, the others folded, none named keeps the usual order",
          "[ui][plots]") {
  std::vector<std::string> rest;
  CHECK(plot_order({"cluster_size", "contacts"}, &rest) == std::vector<std::string>{"cluster_size", "contacts"});
  CHECK(rest == std::vector<std::string>{"alignment", "angles", "kinetic", "potential", "balance"});
  rest.clear();
  CHECK(plot_order({}, &rest) ==
        std::vector<std::string>{"alignment", "angles", "kinetic", "potential", "balance", "contacts", "cluster_size"});
  CHECK(rest.empty());
}
