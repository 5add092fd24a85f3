// Inspector: the selected particle's id, radius, position, velocity, omega, easy axis, moment,
// the angle between them, and contacts.

#include "engine/scene/unit_values.hpp"
#include "ui/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace lodestone::ui {

void inspector_window(PanelContext& c) {
  UiState& state = c.state;
  if (!state.selected) return;
  const ParticleSnapshot& p = c.snapshot.particles;
  const long i = p.index_of(*state.selected);
  const ImGuiIO& io = ImGui::GetIO();
  // Above the legend, in the bottom-right corner, left of an open Plots window there (it opened over it, issue 39),
  // each time it appears; always inside the window (moved back in when it would stick out, e.g. after the window
  // shrank).
  const float right = io.DisplaySize.x - 10.0f - state.plots_right_extent;
  ImGui::SetNextWindowPos(ImVec2(right, io.DisplaySize.y - 170.0f), ImGuiCond_Appearing, ImVec2(1.0f, 1.0f));
  bool open = true;
  if (ImGui::Begin("Inspector", &open, ImGuiWindowFlags_AlwaysAutoResize | appear_behind_popups())) {
    const ImVec2 size = ImGui::GetWindowSize(), at = ImGui::GetWindowPos();
    const ImVec2 inside(std::clamp(at.x, 0.0f, std::max(0.0f, io.DisplaySize.x - size.x)),
                        std::clamp(at.y, 0.0f, std::max(0.0f, io.DisplaySize.y - size.y)));
    if (inside.x != at.x || inside.y != at.y) ImGui::SetWindowPos(inside);
    if (i < 0) {
      ImGui::Text("particle %llu no longer exists", static_cast<unsigned long long>(*state.selected));
    } else {
      const auto k = static_cast<size_t>(i);
      auto vec = [&](const std::vector<float>& v) { return Vec3(v[3 * k], v[3 * k + 1], v[3 * k + 2]); };
      const Vec3 x = vec(p.position), v = vec(p.velocity), w = vec(p.angular_velocity), n = vec(p.easy_axis),
                 m = vec(p.moment);
      const std::string lu = shown_unit(Quantity::Length, state.edited.units);
      auto len = [&](double s) { return si_to_shown(s, Quantity::Length, state.edited.units); };
      ImGui::Text("id %llu", static_cast<unsigned long long>(p.id[k]));
      ImGui::Text("radius      %.5g %s", len(p.radius[k]), lu.c_str());
      ImGui::Text("position    (%.5g, %.5g, %.5g) %s", len(x.x()), len(x.y()), len(x.z()), lu.c_str());
      // A vector in the unit the panels show its quantity in (SI here, lj in a preset in reduced units).
      auto shown_vector = [&](const char* name, const Vec3& u, Quantity q) {
        const DisplayUnits& units = state.edited.units;
        ImGui::Text("%s(%.4g, %.4g, %.4g) %s", name, si_to_shown(u.x(), q, units), si_to_shown(u.y(), q, units),
                    si_to_shown(u.z(), q, units), shown_unit(q, units).c_str());
      };
      shown_vector("velocity    ", v, Quantity::Velocity);
      shown_vector("omega       ", w, Quantity::AngularVelocity);
      ImGui::Text("easy axis   (%.4f, %.4f, %.4f)", n.x(), n.y(), n.z());
      shown_vector("moment      ", m, Quantity::MagneticMoment);
      const double m_norm = m.norm();
      if (m_norm > 0.0)
        ImGui::Text("angle easy axis - moment  %.3f deg",
                    std::acos(std::clamp(n.dot(m / m_norm), -1.0, 1.0)) * 180.0 / pi);
      const Vec3& b = c.snapshot.field_direction;
      ImGui::Text("angle easy axis - field   %.3f deg",
                  std::acos(std::clamp(std::abs(n.dot(b)), 0.0, 1.0)) * 180.0 / pi);
      ImGui::Text("contacts    %u", static_cast<unsigned>(p.contacts[k]));
      const int held = k < p.hold.size() ? p.hold[k] : 0;
      if (held != 0)  // the Hands on panel's "Hold still", a preset's particles[].fixed or the remote's hold
        ImGui::Text("held        %s", held == static_cast<int>(HoldKind::Both)       ? "still (in place, not turning)"
                                      : held == static_cast<int>(HoldKind::Position) ? "in place (free to turn)"
                                                                                     : "from turning (free to move)");
    }
  }
  ImGui::End();
  if (!open) state.selected.reset();
}

}  // namespace lodestone::ui
