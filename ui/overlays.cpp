// Overlays drawn over the scene: the colour legend, the gizmo's axis labels, and the last notice.

#include "ui/panels.hpp"

#include <imgui.h>

#include <algorithm>

namespace lodestone::ui {

void overlays(PanelContext& c) {
  const ImGuiIO& io = ImGui::GetIO();
  const render::ColorScale& scale = c.renderer.legend();

  // Legend: a colour bar with its ends labelled, bottom right.
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 10.0f, io.DisplaySize.y - 10.0f), ImGuiCond_Always,
                          ImVec2(1.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.7f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("legend", nullptr, flags)) {
    ImGui::TextUnformatted(scale.title.c_str());
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = 200.0f, height = 14.0f;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const int segments = 32;
    if (scale.categorical) {
      // One swatch per category with a gap between them (cluster colours: no order between them).
      const float step = width / static_cast<float>(std::max<size_t>(scale.stops.size(), 1));
      for (size_t k = 0; k < scale.stops.size(); ++k) {
        const render::Rgb& rgb = scale.stops[k];
        const ImU32 colour = ImGui::ColorConvertFloat4ToU32(ImVec4(rgb[0], rgb[1], rgb[2], 1.0f));
        draw->AddRectFilled(ImVec2(origin.x + step * static_cast<float>(k) + 1.0f, origin.y),
                            ImVec2(origin.x + step * static_cast<float>(k + 1) - 1.0f, origin.y + height), colour);
      }
    }
    for (int k = 0; k < segments && !scale.categorical; ++k) {
      const render::Rgb a = scale.at(static_cast<float>(k) / segments),
                        b = scale.at(static_cast<float>(k + 1) / segments);
      const ImU32 ca = ImGui::ColorConvertFloat4ToU32(ImVec4(a[0], a[1], a[2], 1.0f));
      const ImU32 cb = ImGui::ColorConvertFloat4ToU32(ImVec4(b[0], b[1], b[2], 1.0f));
      draw->AddRectFilledMultiColor(ImVec2(origin.x + width * k / segments, origin.y),
                                    ImVec2(origin.x + width * (k + 1) / segments, origin.y + height), ca, cb, cb, ca);
    }
    ImGui::Dummy(ImVec2(width, height));
    ImGui::TextUnformatted(scale.low_label.c_str());
    ImGui::SameLine(width - ImGui::CalcTextSize(scale.high_label.c_str()).x + ImGui::GetStyle().WindowPadding.x);
    ImGui::TextUnformatted(scale.high_label.c_str());
    ImGui::TextColored(ImVec4(1.0f, 0.84f, 0.25f, 1.0f), "moment");
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.55f, 0.95f, 1.0f, 1.0f), "easy axis");
  }
  ImGui::End();

  // Gizmo labels (the renderer reports framebuffer pixels).
  const render::GizmoLabels& g = c.renderer.gizmo_labels();
  if (g.visible) {
    ImDrawList* fg = ImGui::GetForegroundDrawList();
    const float s = 1.0f / c.framebuffer_scale;
    fg->AddText(ImVec2(g.x.x * s, g.x.y * s), IM_COL32(242, 77, 77, 255), "x");
    fg->AddText(ImVec2(g.y.x * s, g.y.y * s), IM_COL32(90, 230, 90, 255), "y");
    fg->AddText(ImVec2(g.z.x * s, g.z.y * s), IM_COL32(102, 140, 255, 255), "z");
    fg->AddText(ImVec2(g.field.x * s, g.field.y * s), IM_COL32(255, 214, 64, 255), "B");
  }

  // The last notice (a refused command, a load or save result), top centre.
  if (!c.state.notice.empty()) {
    // Top left of the 3-D view (the plots window sits top right).
    ImGui::SetNextWindowPos(ImVec2(kSidebarWidth + 10.0f, 10.0f), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.85f);
    if (ImGui::Begin("notice", nullptr, flags & ~ImGuiWindowFlags_NoMove)) {
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
      ImGui::TextColored(c.state.notice_is_error ? ImVec4(1.0f, 0.5f, 0.45f, 1.0f) : ImVec4(0.7f, 0.95f, 0.7f, 1.0f),
                         "%s", c.state.notice.c_str());
      ImGui::PopTextWrapPos();
      if (ImGui::SmallButton("dismiss")) c.state.notice.clear();
    }
    ImGui::End();
  }
}

}  // namespace lodestone::ui
