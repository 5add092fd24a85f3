// Contact panel: the everyday controls first (per material: friction, stiffness or Young's modulus, density;
// the law's damping), then under "Advanced" the law's expert settings, rolling and twisting resistance and
// the rest of each material. Labels are plain words (ui/plain_labels.hpp); each tooltip names the preset key.

#include "ui/panels.hpp"
#include "ui/plain_labels.hpp"

#include <imgui.h>

namespace lodestone::ui {

namespace {

// The fields of `schema` that are (advanced) or are not (everyday) expert settings.
template <class S>
bool edit_some(const Schema<S>& schema, S& object, const std::string& id_prefix, bool advanced, EditorContext& editor) {
  bool changed = false;
  for (const auto& f : schema)
    if (is_advanced(id_prefix + "." + f.key) == advanced) changed |= edit_field(f, object, id_prefix, editor);
  return changed;
}

// The law's own fields: everyday ones or expert ones.
bool edit_law(ContactParameters& contact, bool advanced, EditorContext& editor) {
  switch (contact.law) {
    case ContactLaw::Linear: return edit_some(linear_law_schema(), contact.linear, "contact.linear", advanced, editor);
    case ContactLaw::HertzMindlin:
      return edit_some(hertz_mindlin_schema(), contact.hertz_mindlin, "contact.hertz_mindlin", advanced, editor);
    case ContactLaw::HertzCoulomb:
      return edit_some(hertz_coulomb_schema(), contact.hertz_coulomb, "contact.hertz_coulomb", advanced, editor);
    case ContactLaw::Sand: return edit_some(sand_law_schema(), contact.sand, "contact.sand", advanced, editor);
  }
  return false;
}

// The material properties the law uses, everyday ones first.
bool edit_material(Material& material, const std::string& id, ContactLaw law, bool advanced, EditorContext& editor) {
  const Schema<Material>& schema = material_schema();
  bool changed = false;
  if (!advanced) {
    if (law == ContactLaw::Sand)
      changed |= edit_key(schema, "surface_energy", material, id, editor);
    else
      changed |= edit_key(schema, "friction", material, id, editor);
    changed |= edit_key(schema, law == ContactLaw::Linear ? "kn" : "youngs_modulus", material, id, editor);
    changed |= edit_key(schema, "density", material, id, editor);
  } else {
    if (law == ContactLaw::Linear)
      changed |= edit_key(schema, "ks", material, id, editor);
    else
      changed |= edit_key(schema, "poisson_ratio", material, id, editor);
  }
  return changed;
}

}  // namespace

void contact_panel(PanelContext& c) {
  UiState& state = c.state;
  Preset& p = state.edited;
  EditorContext editor = editor_context(state);
  bool changed = edit_key(contact_schema(), "law", p.contact, "contact", editor);
  const ContactLaw law = p.contact.law;
  const bool several = p.materials.size() > 1;
  for (size_t m = 0; m < p.materials.size(); ++m) {
    Material& material = p.materials[m];
    const std::string id = "materials[" + std::to_string(m) + "]";
    ImGui::PushID(id.c_str());
    if (several) ImGui::TextDisabled("%s", material.name.c_str());
    changed |= edit_material(material, id, law, false, editor);
    ImGui::PopID();
  }
  changed |= edit_law(p.contact, false, editor);
  if (ImGui::TreeNode("contact.advanced", "Advanced")) {
    changed |= edit_law(p.contact, true, editor);
    for (size_t m = 0; m < p.materials.size(); ++m) {
      const std::string id = "materials[" + std::to_string(m) + "]";
      ImGui::PushID(id.c_str());
      if (several) ImGui::TextDisabled("%s", p.materials[m].name.c_str());
      changed |= edit_material(p.materials[m], id, law, true, editor);
      ImGui::PopID();
    }
    if ((law == ContactLaw::Linear || law == ContactLaw::HertzMindlin) &&
        ImGui::TreeNode("contact.rolling", "rolling and twisting resistance")) {
      changed |= edit_some(rolling_schema(), p.contact.rolling, "contact.rolling", false, editor);
      changed |= edit_some(rolling_schema(), p.contact.rolling, "contact.rolling", true, editor);
      ImGui::TreePop();
    }
    ImGui::TreePop();
  }
  if (changed) send_parameters(state, c.send);
}

}  // namespace lodestone::ui
