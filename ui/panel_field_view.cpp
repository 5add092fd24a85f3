// The field view (issue 22): the View panel's toggles for |B| on a slice and field lines, and the legend of the
// colour map in mT. The field is evaluated by the simulation thread (ComputeFieldView) from its own state and
// comes back in the snapshot; update_field_view (ui_state.cpp) asks for the next one once the last is in.

#include "engine/scene/unit_values.hpp"
#include "render/colors.hpp"
#include "ui/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lodestone::ui {

void field_view_section(PanelContext& c) {
  render::ViewOptions& v = c.state.view;
  FieldViewTool& f = c.state.field_view;
  ImGui::Separator();
  ImGui::TextUnformatted("magnetic field");
  bool changed = ImGui::Checkbox("|B| on a slice", &v.show_field_slice);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("field lines", &v.show_field_lines);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Lines of the total field B (applied + every moment) from seeds on the slice's plane.");
  if (!v.show_field_slice && !v.show_field_lines) {
    if (changed) f.settings_changed = true;
    return;
  }
  ImGui::Checkbox("log scale", &v.field_log_scale);
  const char* axes[] = {"x", "y", "z"};
  ImGui::SameLine();
  ImGui::SetNextItemWidth(60.0f);
  if (ImGui::Combo("plane normal", &f.axis, axes, 3)) {
    f.at_set = false;  // through the middle of the box along the new axis
    changed = true;
  }
  if (c.snapshot.scene) {
    const BoxParameters& box = c.snapshot.scene->box;
    const DisplayUnits& shown = c.state.edited.units;
    const std::string unit = shown_unit(Quantity::Length, shown);
    float at = static_cast<float>(si_to_shown(f.at, Quantity::Length, shown));
    const float lo = static_cast<float>(si_to_shown(box.min[f.axis], Quantity::Length, shown));
    const float hi = static_cast<float>(si_to_shown(box.max[f.axis], Quantity::Length, shown));
    const std::string label = std::string("slice at ") + axes[f.axis] + " (" + unit + ")";
    if (ImGui::SliderFloat(label.c_str(), &at, lo, hi, "%.3g")) {
      f.at = shown_to_si(at, Quantity::Length, shown);
      changed = true;
    }
  }
  changed |= ImGui::SliderInt("slice points", &f.resolution, 16, 160);
  if (ImGui::SmallButton("refit colours")) changed = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "The colours keep their |B| while the run goes on (the range only widens); this fits them to the "
        "field now.");
  if (changed) f.settings_changed = true;
  if (const FieldView* view = c.snapshot.field_view.get()) {
    char rate[96];
    std::snprintf(rate, sizeof rate, "%.1f updates a second; the last took %.0f ms", f.updates_per_second,
                  1e3 * view->seconds);
    note(rate);
  }
}

void field_view_legend(PanelContext& c) {
  const render::ViewOptions& v = c.state.view;
  const FieldView* view = c.snapshot.field_view.get();
  if (!v.show_field_slice || !view || view->magnitude.empty()) return;
  // Bottom right, on top of the colour legend: clear of the Plots window at the top right, which covered it.
  const ImGuiViewport* screen = ImGui::GetMainViewport();
  const float bottom = c.state.legend_top > 0.0f ? c.state.legend_top - 8.0f : screen->WorkPos.y + screen->WorkSize.y;
  ImGui::SetNextWindowPos(ImVec2(screen->WorkPos.x + screen->WorkSize.x - 10.0f, bottom), ImGuiCond_Always,
                          ImVec2(1.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.75f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
  if (!ImGui::Begin("|B| legend", nullptr, flags)) {
    ImGui::End();
    return;
  }
  const bool held = v.field_high > 0.0f;  // the range the slice is drawn with (ui_state.cpp hold_field_range)
  const float low = held ? v.field_low : view->low, high = held ? v.field_high : view->high;
  ImGui::Text("|B| on the slice (mT)%s", v.field_log_scale && low > 0.0f ? ", log scale" : "");
  const float width = 220.0f * c.framebuffer_scale / std::max(c.framebuffer_scale, 1.0f), height = 14.0f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  constexpr int kSegments = 32;
  for (int k = 0; k < kSegments; ++k) {
    const render::Rgb a = render::field_map_color(static_cast<float>(k) / kSegments);
    const render::Rgb b = render::field_map_color(static_cast<float>(k + 1) / kSegments);
    const ImU32 ca = ImGui::ColorConvertFloat4ToU32(ImVec4(a[0], a[1], a[2], 1.0f));
    const ImU32 cb = ImGui::ColorConvertFloat4ToU32(ImVec4(b[0], b[1], b[2], 1.0f));
    const float x0 = origin.x + width * k / kSegments, x1 = origin.x + width * (k + 1) / kSegments;
    draw->AddRectFilledMultiColor(ImVec2(x0, origin.y), ImVec2(x1, origin.y + height), ca, cb, cb, ca);
  }
  ImGui::Dummy(ImVec2(width, height));
  // The values at the ends and the middle of the bar (the middle is the geometric mean on a log scale).
  const bool log_scale = v.field_log_scale && low > 0.0f && high > low;
  const float middle = log_scale ? std::sqrt(low * high) : 0.5f * (low + high);
  ImGui::Text("%.3g", 1e3 * low);
  ImGui::SameLine(width * 0.5f - 10.0f);
  ImGui::Text("%.3g", 1e3 * middle);
  ImGui::SameLine(width - 20.0f);
  ImGui::Text("%.3g", 1e3 * high);
  ImGui::TextDisabled("inside particles: top colour");
  ImGui::End();
}

}  // namespace lodestone::ui
