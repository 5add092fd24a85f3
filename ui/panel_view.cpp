// View panel: colour mode, arrows, easy axes, bonds, box, gizmo; framing the camera; the side bar.

#include "ui/panels.hpp"

#include <imgui.h>

namespace lodestone::ui {

void view_panel(PanelContext& c) {
  UiState& state = c.state;
  render::ViewOptions& v = state.view;
  int mode = static_cast<int>(v.color_mode);
  if (ImGui::Combo("colour by", &mode, render::kColorModeNames, render::kColorModeCount))
    v.color_mode = static_cast<render::ColorMode>(mode);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "What the sphere colours show; the legend (bottom right) says how to read them.\n"
        "With no applied field the field comparisons mean nothing: the spheres are then coloured by\n"
        "the moment's direction and the legend says so. Preset key: view.color_mode.");
  ImGui::Checkbox("moment arrows", &v.show_moments);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Each particle's magnetic moment as a yellow arrow, tail to head.");
  ImGui::SameLine();
  ImGui::Checkbox("easy axes", &v.show_easy_axes);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The easy axis (cyan line) where it differs from the moment (yellow arrow).");
  ImGui::Checkbox("bonds", &v.show_bonds);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Intact beam bonds as green lines between centres, over the spheres.");
  ImGui::SameLine();
  ImGui::Checkbox("box", &v.show_box);
  ImGui::SameLine();
  ImGui::Checkbox("axes", &v.show_gizmo);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The x, y, z axes and the field direction B, bottom left.");
  ImGui::SliderFloat("arrow length", &v.arrow_length, 1.0f, 6.0f, "%.2f radii");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Half the length of a moment arrow in sphere radii (1: just to the surface).\n"
        "Preset key: view.arrow_length.");
  if (ImGui::Button("Frame all (F)")) state.camera_request = UiState::CameraRequest::FrameAll;
  ImGui::SameLine();
  ImGui::BeginDisabled(!state.selected);
  if (ImGui::Button("Frame selection (Shift+F)")) state.camera_request = UiState::CameraRequest::FrameSelection;
  ImGui::EndDisabled();
  ImGui::Checkbox("keep particles in view", &state.camera_follows);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "The camera follows the particles while the scene runs; moving or zooming the view\n"
        "turns this off, F turns it on again.");
  note("Tab hides the side bar; drag its right edge to resize it. F1: all controls.");
  field_view_section(c);
}

}  // namespace lodestone::ui
