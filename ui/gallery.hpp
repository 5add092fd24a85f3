#pragma once
// The scene gallery (issue 39, "the first minute"): every preset of the presets folder as a card with its
// thumbnail, plain title and one line, grouped Teaching / Research / Benchmarks, the research text (the preset's
// description) folded under "more". Opened by File > Scenes, the Presets panel's button, the remote verb
// `gallery show`, and at the very first start without a preset (app/desktop/main.cpp); closed by its x or Esc
// (SceneView::keyPressEvent: Esc then does nothing else). Choosing a card asks the window to open the preset
// (UiState::open_request): the same path as the Presets panel's Load, so a refused load keeps the scene.

#include "ui/ui_state.hpp"

#include <string>
#include <vector>

namespace lodestone::ui {

struct PanelContext;

// One group of the gallery: its heading and its presets in the order shown (teaching scenes as listed by title,
// the others too; a preset that cannot load goes last in its group, with its error).
struct GalleryGroupView {
  GalleryGroup group = GalleryGroup::Research;
  const char* heading = "";
  std::vector<const PresetEntry*> entries;
};

// The groups in order Teaching, Research, Benchmarks, each listing every preset of `presets` that belongs to it
// (every preset exactly once; empty groups kept, so a caller can say "none").
std::vector<GalleryGroupView> gallery_groups(const std::vector<PresetEntry>& presets);
// The group's word as a preset writes it: "teaching", "research", "benchmarks".
const char* gallery_group_key(GalleryGroup group);
// Chooses the preset named `name` (a file stem, "two-dipoles", or its title): the window is asked to open it and the
// gallery closes. False, changing nothing, when no loadable preset has that name.
bool choose_gallery_entry(UiState& state, const std::string& name);

// The gallery window (when UiState::gallery_open), centred on the part of the window right of the side bar.
void gallery_window(PanelContext& context);
// What the window shows, in the current ImGui window (the tests log it there).
void gallery_contents(UiState& state);

}  // namespace lodestone::ui
