// Field panel: strength (in mT, kOe, ... switchable), direction (angles or axes), program
// (constant, ramp, rotating, oscillating) and its parameters, gradient.

#include "ui/panels.hpp"

#include <imgui.h>

namespace lodestone::ui {

void field_panel(PanelContext& c) {
  UiState& state = c.state;
  FieldParameters& f = state.edited.field;
  EditorContext editor = editor_context(state);
  bool changed = false;

  // Display unit of field strengths (a preset setting: saved with the scene).
  const char* units[] = {"mT", "T", "kOe", "Oe", "G"};
  int current = 0;
  for (int k = 0; k < IM_ARRAYSIZE(units); ++k)
    if (state.edited.units.field == units[k]) current = k;
  if (ImGui::Combo("shown in", &current, units, IM_ARRAYSIZE(units))) {
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
  const std::string unit = display_unit(Quantity::FluxDensity, state.edited.units);
  const Vec3& b = c.snapshot.field;
  ImGui::TextDisabled("B now = (%.4g, %.4g, %.4g) %s", si_to_unit(b.x(), Quantity::FluxDensity, unit),
                      si_to_unit(b.y(), Quantity::FluxDensity, unit), si_to_unit(b.z(), Quantity::FluxDensity, unit),
                      unit.c_str());
  if (changed) send_parameters(state, c.send);
}

}  // namespace lodestone::ui
