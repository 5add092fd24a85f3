// Contact panel: the law, its parameters (from its field table), rolling and twisting resistance
// for the linear and Hertz-Mindlin laws, and per material the properties the law uses.

#include "ui/panels.hpp"

#include <imgui.h>

namespace lodestone::ui {

namespace {

template <class S>
bool edit_all(const Schema<S>& schema, S& object, const std::string& id_prefix, EditorContext& editor) {
  bool changed = false;
  for (const auto& f : schema) changed |= edit_field(f, object, id_prefix, editor);
  return changed;
}

}  // namespace

void contact_panel(PanelContext& c) {
  UiState& state = c.state;
  Preset& p = state.edited;
  EditorContext editor = editor_context(state);
  bool changed = edit_key(contact_schema(), "law", p.contact, "contact", editor);
  const ContactLaw law = p.contact.law;
  switch (law) {
    case ContactLaw::Linear:
      changed |= edit_all(linear_law_schema(), p.contact.linear, "contact.linear", editor);
      break;
    case ContactLaw::HertzMindlin:
      changed |= edit_all(hertz_mindlin_schema(), p.contact.hertz_mindlin, "contact.hertz_mindlin", editor);
      break;
    case ContactLaw::HertzCoulomb:
      changed |= edit_all(hertz_coulomb_schema(), p.contact.hertz_coulomb, "contact.hertz_coulomb", editor);
      break;
    case ContactLaw::Sand: changed |= edit_all(sand_law_schema(), p.contact.sand, "contact.sand", editor); break;
  }
  if ((law == ContactLaw::Linear || law == ContactLaw::HertzMindlin) &&
      ImGui::TreeNode("contact.rolling", "rolling and twisting resistance")) {
    changed |= edit_all(rolling_schema(), p.contact.rolling, "contact.rolling", editor);
    ImGui::TreePop();
  }
  for (size_t m = 0; m < p.materials.size(); ++m) {
    Material& material = p.materials[m];
    const std::string id = "materials[" + std::to_string(m) + "]";
    if (!ImGui::TreeNode(id.c_str(), "material: %s", material.name.c_str())) continue;
    const Schema<Material>& schema = material_schema();
    if (law == ContactLaw::Linear) {
      changed |= edit_key(schema, "kn", material, id, editor);
      changed |= edit_key(schema, "ks", material, id, editor);
    } else {
      changed |= edit_key(schema, "youngs_modulus", material, id, editor);
      changed |= edit_key(schema, "poisson_ratio", material, id, editor);
    }
    if (law == ContactLaw::Sand)
      changed |= edit_key(schema, "surface_energy", material, id, editor);
    else
      changed |= edit_key(schema, "friction", material, id, editor);
    changed |= edit_key(schema, "density", material, id, editor);
    ImGui::TreePop();
  }
  if (changed) send_parameters(state, c.send);
}

}  // namespace lodestone::ui
