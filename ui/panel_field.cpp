// Field panel: strength (in mT, kOe, ... switchable), direction (angles or axes), program
// (constant, ramp, rotating, oscillating) and its parameters, gradient.

#include "engine/scene/unit_values.hpp"
#include "ui/panels.hpp"

#include <imgui.h>

namespace lodestone::ui {

void field_panel(PanelContext& c) {
  UiState& state = c.state;
  FieldParameters& f = state.edited.field;
  EditorContext editor = editor_context(state);
  bool changed = false;

  // Display unit of field strengths (a preset setting: saved with the scene). A preset in reduced units shows its
  // values as its file holds them, in lj units.
  const char* units[] = {"mT", "T", "kOe", "Oe", "G"};
  int current = 0;
  for (int k = 0; k < IM_ARRAYSIZE(units); ++k)
    if (state.edited.units.field == units[k]) current = k;
  if (state.edited.units.system == UnitSystem::Lj) {
    note("Values in reduced (lj) units, as this preset's file holds them.");
  } else if (ImGui::Combo("shown in", &current, units, IM_ARRAYSIZE(units))) {
    state.edited.units.field = units[current];
    note_change(editor, "units.field");
    changed = true;
  }
  const Schema<FieldParameters>& schema = field_schema();
  changed |= edit_key(schema, "program", f, "field", editor);
  changed |= edit_key(schema, "strength", f, "field", editor);
  changed |= edit_key(schema, "direction", f, "field", editor);
  switch (f.program) {
    case FieldProgram::Ramp:
      changed |= edit_key(schema, "start_strength", f, "field", editor);
      changed |= edit_key(schema, "ramp_time", f, "field", editor);
      break;
    case FieldProgram::Rotating:
      changed |= edit_key(schema, "frequency", f, "field", editor);
      changed |= edit_key(schema, "rotation_axis", f, "field", editor);
      break;
    case FieldProgram::Oscillating:
      changed |= edit_key(schema, "frequency", f, "field", editor);
      changed |= edit_key(schema, "phase", f, "field", editor);
      break;
    case FieldProgram::Constant: break;
  }
  if (ImGui::TreeNode("field.advanced", "Advanced: field gradient")) {
    changed |= edit_key(schema, "gradient", f, "field", editor);
    changed |= edit_key(schema, "gradient_origin", f, "field", editor);
    ImGui::TreePop();
  }
  const DisplayUnits& shown = state.edited.units;
  const std::string unit = shown_unit(Quantity::FluxDensity, shown);
  const Vec3& b = c.snapshot.field;
  ImGui::TextDisabled("B now = (%.4g, %.4g, %.4g) %s", si_to_shown(b.x(), Quantity::FluxDensity, shown),
                      si_to_shown(b.y(), Quantity::FluxDensity, shown),
                      si_to_shown(b.z(), Quantity::FluxDensity, shown), unit.c_str());
  if (changed) send_parameters(state, c.send);
}

}  // namespace lodestone::ui
