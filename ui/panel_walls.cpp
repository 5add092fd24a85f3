// Pressure and walls panel: lid pressure (when the preset has a lid), gravity, wall friction,
// global damping, beam bonds and the frictional floor ([Voxel-beams]), and the box.

#include "ui/panels.hpp"

#include <imgui.h>

namespace lodestone::ui {

void walls_panel(PanelContext& c) {
  UiState& state = c.state;
  Preset& p = state.edited;
  EditorContext editor = editor_context(state);
  bool changed = false;

  const char* units[] = {"atm", "Pa", "kPa", "bar"};
  int current = 0;
  for (int k = 0; k < IM_ARRAYSIZE(units); ++k)
    if (p.units.pressure == units[k]) current = k;
  if (ImGui::Combo("pressure shown in", &current, units, IM_ARRAYSIZE(units))) {
    p.units.pressure = units[current];
    changed = true;
  }
  ImGui::TextDisabled("lid pressure: this preset has no lid");

  for (const auto& f : environment_schema()) changed |= edit_field(f, p.environment, "environment", editor);

  const int wall = material_index(p.materials, p.box.wall_material);
  if (wall >= 0) {
    Material& material = p.materials[static_cast<size_t>(wall)];
    ImGui::TextDisabled("walls are material '%s'", material.name.c_str());
    const std::string id = "materials[" + std::to_string(wall) + "]";
    if (edit_real(id + ".wall_friction", "wall friction", material.friction, Quantity::Dimensionless,
                  ranges::non_negative(), "Friction coefficient of the wall material (shared with particles of it).",
                  editor))
      changed = true;
  }
  // [Voxel-beams]: bond properties apply to the bonds the scene has (they are made when it is built), and
  // the frictional floor. Fields from the preset tables, like every panel.
  if (ImGui::TreeNode("beam bonds")) {
    note("made when the scene is built (create, list, touch tolerance: in the preset)");
    for (const auto& f : bonds_schema())
      if (f.key != "create" && f.key != "list" && f.key != "touch_tolerance")
        changed |= edit_field(f, p.bonds, "bonds", editor);
    ImGui::TreePop();
  }
  if (ImGui::TreeNode("floor with friction")) {
    for (const auto& f : floor_schema()) changed |= edit_field(f, p.floor, "floor", editor);
    ImGui::TreePop();
  }
  if (ImGui::TreeNode("box")) {
    const std::string unit = display_unit(Quantity::Length, p.units);
    ImGui::Text("from (%.4g, %.4g, %.4g) to (%.4g, %.4g, %.4g) %s", si_to_unit(p.box.min.x(), Quantity::Length, unit),
                si_to_unit(p.box.min.y(), Quantity::Length, unit), si_to_unit(p.box.min.z(), Quantity::Length, unit),
                si_to_unit(p.box.max.x(), Quantity::Length, unit), si_to_unit(p.box.max.y(), Quantity::Length, unit),
                si_to_unit(p.box.max.z(), Quantity::Length, unit), unit.c_str());
    const char* kinds[] = {"wall", "open", "periodic"};
    for (int a = 0; a < 3; ++a)
      ImGui::Text("%c: %s / %s", "xyz"[a], kinds[static_cast<int>(p.box.side(a, 0))],
                  kinds[static_cast<int>(p.box.side(a, 1))]);
    ImGui::TreePop();
  }
  if (changed) send_parameters(state, c.send);
}

}  // namespace lodestone::ui
