// View panel: colour mode, arrows, easy axes, box, gizmo.

#include "ui/panels.hpp"

#include <imgui.h>

namespace lodestone::ui {

void view_panel(PanelContext& c) {
  render::ViewOptions& v = c.state.view;
  int mode = static_cast<int>(v.color_mode);
  if (ImGui::Combo("colour by", &mode, render::kColorModeNames, IM_ARRAYSIZE(render::kColorModeNames)))
    v.color_mode = static_cast<render::ColorMode>(mode);
  ImGui::Checkbox("moment arrows", &v.show_moments);
  ImGui::SameLine();
  ImGui::Checkbox("easy axes", &v.show_easy_axes);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Drawn (cyan) where the easy axis differs from the moment (yellow arrow).");
  ImGui::Checkbox("bonds", &v.show_bonds);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Intact beam bonds as green lines between centres, over the spheres.");
  ImGui::SameLine();
  ImGui::Checkbox("box", &v.show_box);
  ImGui::SameLine();
  ImGui::Checkbox("axes and field gizmo", &v.show_gizmo);
  ImGui::SliderFloat("arrow length [radii]", &v.arrow_length, 1.0f, 4.0f, "%.2f");
  ImGui::TextDisabled("drag: rotate  wheel: zoom  right/shift-drag: pan");
  ImGui::TextDisabled("double-click: focus  click: select  R: reset view");
  field_view_section(c);
}

}  // namespace lodestone::ui
