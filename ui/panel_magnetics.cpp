// Magnetics panel: moment model and its parameters, dipole method, cap, cutoff, activity distance.

#include "ui/panels.hpp"

#include <imgui.h>

namespace lodestone::ui {

void magnetics_panel(PanelContext& c) {
  UiState& state = c.state;
  Preset& p = state.edited;
  EditorContext editor = editor_context(state);
  bool changed = false;
  ImGui::TextDisabled("moment model: rigid dipole (moment fixed in the body)");
  for (size_t m = 0; m < p.materials.size(); ++m) {
    const std::string id = "materials[" + std::to_string(m) + "]";
    ImGui::PushID(id.c_str());
    ImGui::TextUnformatted(p.materials[m].name.c_str());
    changed |= edit_key(material_schema(), "magnetization", p.materials[m], id, editor);
    ImGui::PopID();
  }
  for (const auto& f : magnetics_schema()) changed |= edit_field(f, p.magnetics, "magnetics", editor);
  if (changed) send_parameters(state, c.send);
}

}  // namespace lodestone::ui
