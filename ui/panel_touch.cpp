// Hands on panel (issue 22): the drag spring's stiffness, the add tool (what to add, where clicks land) and
// delete. Ctrl+drag and the clicks themselves are handled by the view (app/desktop/scene_view.cpp); every
// action is a command to the simulation thread, recorded in the scene's timeline (docs/session-log.md).

#include "engine/scene/unit_values.hpp"
#include "ui/panels.hpp"

#include <imgui.h>

#include <algorithm>

namespace lodestone::ui {
namespace {

// "Hold still" for the selected sphere: its position and orientation kept (engine/core/hold.hpp), sent as a touch.
void hold_checkbox(PanelContext& c, std::uint64_t selected) {
  const ParticleSnapshot& particles = c.snapshot.particles;
  const long i = particles.index_of(selected);
  const int held =
      i >= 0 && static_cast<size_t>(i) < particles.hold.size() ? particles.hold[static_cast<size_t>(i)] : 0;
  bool still = held == static_cast<int>(HoldKind::Both);
  if (ImGui::Checkbox("Hold still", &still))
    c.send(HoldParticle{ui::next_touch_request(c.state), selected, still ? HoldKind::Both : HoldKind::None});
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Keeps the selected sphere where it is and stops it turning, as a hand holding it would; the forces and "
        "torques on it are still computed. A magnet made of spheres cannot be held.");
  if (held == static_cast<int>(HoldKind::Position) || held == static_cast<int>(HoldKind::Orientation)) {
    ImGui::SameLine();
    ImGui::TextDisabled(held == static_cast<int>(HoldKind::Position) ? "(held in place, free to turn)"
                                                                     : "(kept from turning, free to move)");
  }
}

}  // namespace

void touch_panel(PanelContext& c) {
  UiState& state = c.state;
  TouchTool& t = state.touch;
  const Preset& p = state.edited;
  const std::string length_unit = shown_unit(Quantity::Length, p.units);
  ImGui::TextWrapped(
      "Ctrl+drag a particle to pull it on a spring; let go of the mouse to release it. Delete removes the "
      "selected particle or magnet; Hold still keeps it where it is. Ctrl+Z undoes a pull (back to the moment of the "
      "grab), an add, a delete or a hold.");
  ImGui::SliderFloat("drag stiffness", &t.drag_stiffness, 0.01f, 50.0f, "%.2f x", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Relative to the default feel; the spring follows the particle's mass, so a 20 nm grain and a "
        "10 mm magnet answer alike. Its work enters the energy balance.");

  ImGui::Separator();
  ImGui::Checkbox("click in the scene to add", &t.placing);
  const char* kinds[] = {"copy of the selected", "a sphere", "a bar magnet", "a cube magnet"};
  int kind = static_cast<int>(t.add_kind);
  if (ImGui::Combo("adds", &kind, kinds, IM_ARRAYSIZE(kinds))) t.add_kind = static_cast<AddKind>(kind);
  if (t.add_kind != AddKind::CopyOfSelected) {
    std::vector<const char*> names;
    for (const Material& m : p.materials) names.push_back(m.name.c_str());
    t.material = std::clamp(t.material, 0, static_cast<int>(names.size()) - 1);
    ImGui::Combo("material", &t.material, names.data(), static_cast<int>(names.size()));
    double radius = si_to_shown(t.radius, Quantity::Length, p.units);
    const std::string label = (t.add_kind == AddKind::Sphere ? "radius (" : "pebble radius (") + length_unit + ")";
    if (ImGui::InputDouble(label.c_str(), &radius, 0.0, 0.0, "%.4g") && radius > 0.0)
      t.radius = shown_to_si(radius, Quantity::Length, p.units);
    if (t.add_kind != AddKind::Sphere) {
      ImGui::SliderInt(t.add_kind == AddKind::BarMagnet ? "pebbles long" : "pebbles per edge", &t.pebbles, 2, 8);
      const char* axes[] = {"x", "y", "z"};
      ImGui::Combo("magnet axis", &t.axis, axes, 3);
    }
  }
  if (!t.plane_set) {  // through the selected particle, else a radius above the box bottom
    const long i = state.selected ? c.snapshot.particles.index_of(*state.selected) : -1;
    t.plane_height = i >= 0 ? c.snapshot.particles.position[3 * static_cast<size_t>(i) + 2]
                            : (c.snapshot.scene ? c.snapshot.scene->box.min.z() + 1.5 * t.radius : 0.0);
    t.plane_set = true;
  }
  double height = si_to_shown(t.plane_height, Quantity::Length, p.units);
  const std::string plane_label = "on the plane z (" + length_unit + ")";
  if (ImGui::InputDouble(plane_label.c_str(), &height, 0.0, 0.0, "%.4g"))
    t.plane_height = shown_to_si(height, Quantity::Length, p.units);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Clicks land on this horizontal plane; a magnet rests on it (its lowest pebbles' centres).");
  if (state.selected && ImGui::Button("plane through the selected")) t.plane_set = false;

  ImGui::Separator();
  if (state.selected) {
    if (ImGui::Button("Delete the selected")) c.send(DeleteBody{ui::next_touch_request(state), *state.selected});
    ImGui::SameLine();
    ImGui::TextDisabled("particle %llu", static_cast<unsigned long long>(*state.selected));
    hold_checkbox(c, *state.selected);
  } else {
    ImGui::TextDisabled("click a particle to select it");
  }
}

}  // namespace lodestone::ui
