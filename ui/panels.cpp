#include "ui/panels.hpp"

#include <imgui.h>

namespace lodestone::ui {

void draw_panels(PanelContext& c) {
  const ImGuiIO& io = ImGui::GetIO();
  const float width = kSidebarWidth;
  ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, io.DisplaySize.y), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.92f);
  if (ImGui::Begin("Lodestone", nullptr,
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse)) {
    ImGui::PushItemWidth(-170.0f);  // room for labels on the right
    run_panel(c);
    if (ImGui::CollapsingHeader("View")) view_panel(c);
    if (ImGui::CollapsingHeader("Field", ImGuiTreeNodeFlags_DefaultOpen)) field_panel(c);
    if (ImGui::CollapsingHeader("Contact")) contact_panel(c);
    if (ImGui::CollapsingHeader("Pressure and walls")) walls_panel(c);
    if (ImGui::CollapsingHeader("Magnetics")) magnetics_panel(c);
    if (ImGui::CollapsingHeader("Presets")) presets_panel(c);
    if (ImGui::CollapsingHeader("Export")) export_panel(c);
    ImGui::PopItemWidth();
  }
  ImGui::End();
  plots_window(c);
  inspector_window(c);
  overlays(c);
  confirmation_popup(c);
}

}  // namespace lodestone::ui
