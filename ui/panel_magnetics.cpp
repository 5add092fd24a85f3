// Magnetics panel: moment model and its parameters, dipole method, cap, cutoff, activity distance,
// induced iterations and the multiple-time-step interval (an approximation, named when on).

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
  // Issue 7: an approximation is never on silently. force_interval (default 1, exact) is listed above.
  if (p.magnetics.force_interval > 1 && p.magnetics.method != DipoleMethod::Off)
    ImGui::TextWrapped(
        "Approximation: dipole forces are computed every %d steps and extrapolated in between "
        "(seed 002 App. A.8; force_interval 1 is exact).",
        p.magnetics.force_interval);
  if (changed) send_parameters(state, c.send);
}

}  // namespace lodestone::ui
