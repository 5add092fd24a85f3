// Presets panel: the presets/ directory with each description, load, save as (atomic).

#include "ui/panels.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

namespace lodestone::ui {

void presets_panel(PanelContext& c) {
  UiState& state = c.state;
  if (ImGui::Button("Scene gallery...")) state.gallery_open = true;  // the same presets as cards (ui/gallery.hpp)
  ImGui::SameLine();
  if (ImGui::SmallButton("rescan")) scan_presets(state, state.preset_directory);
  ImGui::SameLine();
  ImGui::TextDisabled("%s", state.preset_directory.c_str());
  for (const PresetEntry& e : state.presets) {
    ImGui::PushID(e.path.c_str());
    ImGui::BeginDisabled(!e.loadable);
    if (ImGui::Button("Load")) state.open_request = e.path;  // the window asks first if changes are unsaved
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextUnformatted(e.name.c_str());
    if (!e.loadable) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", e.description.c_str());
    if (!e.loadable) ImGui::PopStyleColor();
    ImGui::PopID();
  }
  ImGui::Separator();
  ImGui::InputText("file##save", &state.save_path);
  if (ImGui::Button("Save as")) save_preset(state, state.save_path);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "Saves the parameters as shown and the particle generator (atomic: a failed save keeps the old file).");
  ImGui::PopStyleColor();
}

}  // namespace lodestone::ui
