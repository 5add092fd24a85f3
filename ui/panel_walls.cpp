// Pressure and walls panel: the pressure on the packing (a lid added, edited, removed; the top-layer force),
// gravity, wall friction,
// global damping, beam bonds and the frictional floor ([Voxel-beams]), and the box.

#include "engine/scene/unit_values.hpp"
#include "ui/panels.hpp"

#include <imgui.h>

#include <cmath>

namespace lodestone::ui {
namespace {

// Where the lid is and how hard it presses now, in words a newcomer reads: before it reaches the particles (a
// pressure of round-off, -1e-13 atm, said nothing), while it settles toward the pressure asked for, and once there.
void lid_state_line(const Observables& o, const Preset& p, double area, const std::string& unit) {
  const std::string length_unit = shown_unit(Quantity::Length, p.units);
  const double height = si_to_shown(o.lid_height, Quantity::Length, p.units);
  const double target = p.pressure.pressure;
  const double now = area > 0.0 ? o.lid_force / area : 0.0;
  if (!(std::abs(now) > 1e-6 * std::abs(target)))
    ImGui::TextWrapped("lid at z = %.4g %s, not touching the particles yet: it comes down onto the highest one", height,
                       length_unit.c_str());
  else if (std::abs(now - target) > 0.1 * std::abs(target))
    ImGui::TextWrapped("lid at z = %.4g %s, pressing %.3g %s now, settling toward %.3g %s", height, length_unit.c_str(),
                       si_to_shown(now, Quantity::Pressure, p.units), unit.c_str(),
                       si_to_shown(target, Quantity::Pressure, p.units), unit.c_str());
  else
    ImGui::TextWrapped("lid at z = %.4g %s, pressing %.3g %s now", height, length_unit.c_str(),
                       si_to_shown(now, Quantity::Pressure, p.units), unit.c_str());
}

}  // namespace

namespace {

constexpr double kNewLidPressure = 1000.0;  // [Pa] a lid's first pressure (about 0.01 atm), then edited

// Pressure on the packing: the lid (added to any box whose top is not periodic, its pressure edited, taken
// off) or [Erokhin-Berkov]'s top-layer force, each with its value now. True when the parameters changed.
bool pressure_section(PanelContext& c, EditorContext& editor) {
  Preset& p = c.state.edited;
  const Observables& o = c.snapshot.observables;
  const std::string unit = shown_unit(Quantity::Pressure, p.units);
  const double area = (p.box.max.x() - p.box.min.x()) * (p.box.max.y() - p.box.min.y());
  bool changed = false;
  switch (p.pressure.method) {
    case PressureMethod::None:
      if (p.box.z_max == SideKind::Periodic) {
        note("no pressure (a lid needs a box top that is not periodic)");
        break;
      }
      note("no pressure on the packing");
      if (ImGui::Button("Add a lid")) {
        p.box.z_max = SideKind::Wall;  // the lid replaces the top side
        p.pressure.method = PressureMethod::Lid;
        if (p.pressure.pressure <= 0.0) p.pressure.pressure = kNewLidPressure;
        for (const char* path : {"box.z_max", "pressure.method", "pressure.pressure"}) note_change(editor, path);
        changed = true;
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A lid comes down onto the highest particle and presses with the pressure below (a servo).");
      break;
    case PressureMethod::Lid:
      lid_state_line(o, p, area, unit);
      for (const auto& f : pressure_schema())
        if (f.key == "pressure" || f.key == "lid_damping") changed |= edit_field(f, p.pressure, "pressure", editor);
      if (ImGui::Button("Remove the lid")) {
        p.pressure.method = PressureMethod::None;
        note_change(editor, "pressure.method");
        changed = true;
      }
      break;
    case PressureMethod::TopLayer:
      ImGui::TextWrapped("pressing the top layer: %.4g %s",
                         si_to_shown(p.pressure.pressure, Quantity::Pressure, p.units), unit.c_str());
      note("each particle of the top layer is pushed down by pi R^2 P (the powder protocol's way to press)");
      for (const auto& f : pressure_schema())
        if (f.key == "pressure" || f.key == "top_fraction") changed |= edit_field(f, p.pressure, "pressure", editor);
      if (ImGui::Button("Stop pressing")) {
        p.pressure.method = PressureMethod::None;
        note_change(editor, "pressure.method");
        changed = true;
      }
      break;
  }
  return changed;
}

}  // namespace

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
    note_change(editor, "units.pressure");
    changed = true;
  }
  changed |= pressure_section(c, editor);

  for (const auto& f : environment_schema()) changed |= edit_field(f, p.environment, "environment", editor);

  const int wall = material_index(p.materials, p.box.wall_material);
  if (wall >= 0) {
    Material& material = p.materials[static_cast<size_t>(wall)];
    ImGui::TextDisabled("walls are material '%s'", material.name.c_str());
    const std::string id = "materials[" + std::to_string(wall) + "]";
    if (edit_real(id + ".wall_friction", "wall friction", material.friction, Quantity::Dimensionless,
                  ranges::non_negative(), "Friction coefficient of the wall material (shared with particles of it).",
                  editor)) {
      note_change(editor, id + ".friction");
      changed = true;
    }
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
    const std::string unit = shown_unit(Quantity::Length, p.units);
    ImGui::Text(
        "from (%.4g, %.4g, %.4g) to (%.4g, %.4g, %.4g) %s", si_to_shown(p.box.min.x(), Quantity::Length, p.units),
        si_to_shown(p.box.min.y(), Quantity::Length, p.units), si_to_shown(p.box.min.z(), Quantity::Length, p.units),
        si_to_shown(p.box.max.x(), Quantity::Length, p.units), si_to_shown(p.box.max.y(), Quantity::Length, p.units),
        si_to_shown(p.box.max.z(), Quantity::Length, p.units), unit.c_str());
    const char* kinds[] = {"wall", "open", "periodic"};
    for (int a = 0; a < 3; ++a)
      ImGui::Text("%c: %s / %s", "xyz"[a], kinds[static_cast<int>(p.box.side(a, 0))],
                  kinds[static_cast<int>(p.box.side(a, 1))]);
    ImGui::TreePop();
  }
  if (changed) send_parameters(state, c.send);
}

}  // namespace lodestone::ui
