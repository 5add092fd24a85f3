#include "ui/panels.hpp"

#include "ui/gallery.hpp"

#include <imgui.h>

#include <algorithm>

namespace lodestone::ui {
namespace {

// The side bar: as tall as the window, its width dragged at its right edge (kept in UiState), hidden with Tab.
void side_bar(PanelContext& c) {
  const ImGuiIO& io = ImGui::GetIO();
  UiState& state = c.state;
  if (state.sidebar_hidden) {
    ImGui::SetNextWindowPos(ImVec2(6.0f, 6.0f), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.8f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove | appear_behind_popups();
    if (ImGui::Begin("side bar hidden", nullptr, flags)) {
      if (ImGui::Button("Show panels (Tab)")) state.sidebar_hidden = false;
    }
    ImGui::End();
    return;
  }
  const float most = std::max(kSidebarMinWidth, std::min(kSidebarMaxWidth, 0.6f * io.DisplaySize.x));
  state.sidebar_width = std::clamp(state.sidebar_width, kSidebarMinWidth, most);
  ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(state.sidebar_width, io.DisplaySize.y), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(kSidebarMinWidth, io.DisplaySize.y), ImVec2(most, io.DisplaySize.y));
  ImGui::SetNextWindowBgAlpha(0.92f);
  if (ImGui::Begin("Lodestone", nullptr,
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse | appear_behind_popups())) {
    // Labels take the right part of each row: a third of the side bar, at least 150 px.
    ImGui::PushItemWidth(-std::max(150.0f, 0.4f * ImGui::GetWindowWidth()));
    run_panel(c);
    if (ImGui::CollapsingHeader("View")) view_panel(c);
    if (ImGui::CollapsingHeader("Field", ImGuiTreeNodeFlags_DefaultOpen)) field_panel(c);
    if (ImGui::CollapsingHeader("Contact")) contact_panel(c);
    if (ImGui::CollapsingHeader("Pressure and walls")) walls_panel(c);
    if (ImGui::CollapsingHeader("Hands on")) touch_panel(c);
    if (ImGui::CollapsingHeader("Magnetics")) magnetics_panel(c);
    if (ImGui::CollapsingHeader("Presets")) presets_panel(c);
    if (ImGui::CollapsingHeader("Export")) export_panel(c);
    ImGui::PopItemWidth();
    // A drag of the right edge resizes the window: keep its width for the next frame and the camera.
    state.sidebar_width = ImGui::GetWindowWidth();
  }
  ImGui::End();
}

}  // namespace

ImGuiWindowFlags appear_behind_popups() {
  return ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)
             ? ImGuiWindowFlags_NoFocusOnAppearing
             : ImGuiWindowFlags_None;
}

void draw_panels(PanelContext& c) {
  side_bar(c);
  plots_window(c);
  inspector_window(c);
  overlays(c);
  field_view_legend(c);
  update_field_view(c.state, c.snapshot, c.send, ImGui::GetTime());
  confirmation_popup(c);
  help_windows(c);
  gallery_window(c);
}

}  // namespace lodestone::ui
