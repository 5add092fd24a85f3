// The scene gallery: cards of the presets, grouped, the research text folded (ui/gallery.hpp).

#include "ui/gallery.hpp"

#include "ui/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdint>

namespace lodestone::ui {
namespace {

// A thumbnail's size in the gallery [logical px]: scripts/make_thumbnails.py writes them at this size.
constexpr float kThumbWidth = 240.0f, kThumbHeight = 150.0f;
constexpr float kCardSpacing = 16.0f;

const char* heading_of(GalleryGroup group) {
  switch (group) {
    case GalleryGroup::Teaching: return "Teaching: scenes to show a class";
    case GalleryGroup::Research: return "Research: scenes from papers and studies";
    case GalleryGroup::Benchmarks: return "Benchmarks: scenes for timing the engine";
  }
  return "";
}

// The card's picture, which opens the scene when clicked: the thumbnail, or a button with the title when there
// is none (or it could not be read).
bool card_picture(const UiState& state, const PresetEntry& e) {
  const auto texture =
      e.thumbnail.empty() ? state.thumbnail_textures.end() : state.thumbnail_textures.find(e.thumbnail);
  if (texture != state.thumbnail_textures.end() && texture->second != 0) {
    const auto id = reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(texture->second));
    return ImGui::ImageButton(id, ImVec2(kThumbWidth, kThumbHeight), ImVec2(0, 0), ImVec2(1, 1), 0);
  }
  return ImGui::Button(e.title.c_str(), ImVec2(kThumbWidth, kThumbHeight));
}

// One card: picture, title, line, and the research text folded under "more". True when it was chosen.
bool card(const UiState& state, const PresetEntry& e) {
  ImGui::PushID(e.path.c_str());
  ImGui::BeginDisabled(!e.loadable);
  bool chosen = card_picture(state, e);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Open %s (%s.json)", e.title.c_str(), e.name.c_str());
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + kThumbWidth);
  ImGui::TextUnformatted(e.title.c_str());
  if (!e.loadable) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("cannot open: %s", e.description.c_str());
    ImGui::PopStyleColor();
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", e.summary.empty() ? "(no summary)" : e.summary.c_str());
    ImGui::PopStyleColor();
    if (!e.description.empty() && ImGui::TreeNode("more")) {
      ImGui::TextWrapped("%s", e.description.c_str());
      chosen = ImGui::SmallButton("Open") || chosen;
      ImGui::TreePop();
    }
  }
  ImGui::PopTextWrapPos();
  ImGui::PopID();
  return chosen;
}

// The cards of one group in rows as wide as the window allows; the chosen one, if any.
const PresetEntry* group_cards(const UiState& state, const GalleryGroupView& g) {
  if (g.entries.empty()) {
    ImGui::TextDisabled("none in %s", state.preset_directory.c_str());
    return nullptr;
  }
  const float width = ImGui::GetContentRegionAvail().x;
  const int columns = std::max(1, static_cast<int>((width + kCardSpacing) / (kThumbWidth + kCardSpacing)));
  const PresetEntry* chosen = nullptr;
  if (!ImGui::BeginTable(g.heading, columns, ImGuiTableFlags_SizingFixedSame | ImGuiTableFlags_PadOuterX))
    return nullptr;
  for (const PresetEntry* e : g.entries) {
    ImGui::TableNextColumn();
    if (card(state, *e)) chosen = e;
  }
  ImGui::EndTable();
  return chosen;
}

}  // namespace

const char* gallery_group_key(GalleryGroup group) {
  switch (group) {
    case GalleryGroup::Teaching: return "teaching";
    case GalleryGroup::Research: return "research";
    case GalleryGroup::Benchmarks: return "benchmarks";
  }
  return "";
}

std::vector<GalleryGroupView> gallery_groups(const std::vector<PresetEntry>& presets) {
  std::vector<GalleryGroupView> groups;
  for (GalleryGroup g : {GalleryGroup::Teaching, GalleryGroup::Research, GalleryGroup::Benchmarks}) {
    GalleryGroupView view;
    view.group = g;
    view.heading = heading_of(g);
    for (const PresetEntry& e : presets)
      if (e.group == g) view.entries.push_back(&e);
    std::stable_sort(view.entries.begin(), view.entries.end(), [](const PresetEntry* a, const PresetEntry* b) {
      if (a->loadable != b->loadable) return a->loadable;
      return a->title < b->title;
    });
    groups.push_back(std::move(view));
  }
  return groups;
}

bool choose_gallery_entry(UiState& state, const std::string& name) {
  for (const PresetEntry& e : state.presets)
    if (e.loadable && (e.name == name || e.title == name)) {
      state.open_request = e.path;  // the window asks first if changes are unsaved, as for the Presets panel
      state.gallery_open = false;
      return true;
    }
  return false;
}

void gallery_window(PanelContext& c) {
  UiState& state = c.state;
  if (!state.gallery_open) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float left = sidebar_extent(state);
  const float free_width = std::max(300.0f, io.DisplaySize.x - left);
  const ImVec2 size(std::min(free_width - 40.0f, 3 * (kThumbWidth + kCardSpacing) + 60.0f),
                    std::max(200.0f, io.DisplaySize.y - 80.0f));
  ImGui::SetNextWindowPos(ImVec2(left + 0.5f * free_width, 0.5f * io.DisplaySize.y), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(size, ImGuiCond_Appearing);
  ImGui::SetNextWindowBgAlpha(1.0f);  // the running scene behind the cards only distracts from them
  if (ImGui::Begin("Scenes", &state.gallery_open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings))
    gallery_contents(state);
  ImGui::End();
}

void gallery_contents(UiState& state) {
  ImGui::TextWrapped(
      "Choose a scene: click its picture. \"more\" under a scene says what it shows in detail, for researchers. "
      "File > Scenes brings this back; the Presets panel lists the same files.");
  const PresetEntry* chosen = nullptr;
  for (const GalleryGroupView& g : gallery_groups(state.presets)) {
    if (!ImGui::CollapsingHeader(g.heading, g.group == GalleryGroup::Benchmarks ? 0 : ImGuiTreeNodeFlags_DefaultOpen))
      continue;
    if (const PresetEntry* e = group_cards(state, g)) chosen = e;
  }
  if (chosen) choose_gallery_entry(state, chosen->name);
}

}  // namespace lodestone::ui
