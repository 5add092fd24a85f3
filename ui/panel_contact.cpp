// Contact panel: law (linear / Hertz-Mindlin), its parameters, and per material kn, ks or E, nu,
// and friction.

#include "ui/panels.hpp"

#include <imgui.h>

namespace lodestone::ui {

void contact_panel(PanelContext& c) {
  UiState& state = c.state;
  Preset& p = state.edited;
  EditorContext editor = editor_context(state);
  bool changed = edit_key(contact_schema(), "law", p.contact, "contact", editor);
  const bool linear = p.contact.law == ContactLaw::Linear;
  if (linear) {
    for (const auto& f : linear_law_schema()) changed |= edit_field(f, p.contact.linear, "contact.linear", editor);
  } else {
    for (const auto& f : hertz_mindlin_schema())
      changed |= edit_field(f, p.contact.hertz_mindlin, "contact.hertz_mindlin", editor);
  }
  for (size_t m = 0; m < p.materials.size(); ++m) {
    Material& material = p.materials[m];
    const std::string id = "materials[" + std::to_string(m) + "]";
    if (!ImGui::TreeNode(id.c_str(), "material: %s", material.name.c_str())) continue;
    const Schema<Material>& schema = material_schema();
    if (linear) {
      changed |= edit_key(schema, "kn", material, id, editor);
      changed |= edit_key(schema, "ks", material, id, editor);
    } else {
      changed |= edit_key(schema, "youngs_modulus", material, id, editor);
      changed |= edit_key(schema, "poisson_ratio", material, id, editor);
    }
    changed |= edit_key(schema, "friction", material, id, editor);
    changed |= edit_key(schema, "density", material, id, editor);
    ImGui::TreePop();
  }
  ImGui::TextDisabled("rolling resistance: not in this version's contact laws");
  if (changed) send_parameters(state, c.send);
}

}  // namespace lodestone::ui
