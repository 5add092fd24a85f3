// Overlays drawn over the scene: the colour legend (what the colours and arrows mean), the gizmo's axis labels,
// the status line and the start hint (ui/status_line.cpp).

#include "ui/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>

namespace lodestone::ui {
namespace {

const ImVec4 kMomentColour(1.0f, 0.84f, 0.25f, 1.0f);                          // render/scene_renderer.cpp kMomentColor
const ImVec4 kEasyAxisColour(0.55f, 0.95f, 1.0f, 1.0f);                        // render/scene_builder.cpp kAxisColor
constexpr float kBarWidth = 200.0f, kBarHeight = 14.0f, kArrowLength = 28.0f;  // the legend's colour bar and arrows
const char* const kMomentText = "moment (tail to head)";
const char* const kEasyAxisText = "easy axis (no head: either way)";

// A legend row: a small arrow (shaft and a filled head; a plain line without `head`) and what it means.
void legend_arrow(const ImVec4& colour, const char* text, bool head = true) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeight(), length = kArrowLength, mid = at.y + 0.5f * h;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 c = ImGui::ColorConvertFloat4ToU32(colour);
  const float shaft_end = head ? at.x + length - 8.0f : at.x + length;
  draw->AddLine(ImVec2(at.x, mid), ImVec2(shaft_end, mid), c, 2.5f);
  if (head)
    draw->AddTriangleFilled(ImVec2(at.x + length, mid), ImVec2(shaft_end, mid - 4.5f), ImVec2(shaft_end, mid + 4.5f),
                            c);
  ImGui::Dummy(ImVec2(length + 4.0f, h));
  ImGui::SameLine();
  ImGui::TextColored(colour, "%s", text);
}

// The size the legend's rows below take, worked out before they are drawn: a window that fits itself to its content
// (AlwaysAutoResize) learns the size a frame late, and pinned by its bottom right corner it showed that frame clipped
// whenever the rows changed (clusters forming and breaking up change the title and the note many times a second).
ImVec2 legend_size(const render::ColorScale& scale, bool arrows, const render::ViewOptions& view) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeight(), gap = style.ItemSpacing.y;
  float width = std::max(kBarWidth, ImGui::CalcTextSize(scale.title.c_str()).x);
  float height = line + gap + kBarHeight + gap + line;  // title, bar, labels
  if (!scale.note.empty()) {
    const ImVec2 note = ImGui::CalcTextSize(scale.note.c_str());
    width = std::max(width, note.x);
    height += gap + note.y;
  }
  const auto arrow_row = [&](const char* text) {
    width = std::max(width, kArrowLength + 4.0f + style.ItemSpacing.x + ImGui::CalcTextSize(text).x);
    height += gap + line;
  };
  if (arrows && view.show_moments) arrow_row(kMomentText);
  if (arrows && view.show_easy_axes) arrow_row(kEasyAxisText);
  return ImVec2(width + 2.0f * style.WindowPadding.x, height + 2.0f * style.WindowPadding.y);
}

}  // namespace

void overlays(PanelContext& c) {
  const ImGuiIO& io = ImGui::GetIO();
  const render::ColorScale& scale = c.scene.legend;

  // Legend: a colour bar with its ends labelled, bottom right.
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 10.0f, io.DisplaySize.y - 10.0f), ImGuiCond_Always,
                          ImVec2(1.0f, 1.0f));
  ImGui::SetNextWindowSizeConstraints(legend_size(scale, render::has_moments(c.snapshot.particles), c.state.view),
                                      ImVec2(FLT_MAX, FLT_MAX));
  ImGui::SetNextWindowBgAlpha(0.7f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("legend", nullptr, flags)) {
    ImGui::TextUnformatted(scale.title.c_str());
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = kBarWidth, height = kBarHeight;
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
    if (!scale.ticks.empty()) {
      // Labels spread evenly under the bar, each centred on its place.
      const float y = ImGui::GetCursorScreenPos().y;
      for (size_t k = 0; k < scale.ticks.size(); ++k) {
        const float at =
            width * static_cast<float>(k) / static_cast<float>(std::max<size_t>(scale.ticks.size() - 1, 1));
        const float w = ImGui::CalcTextSize(scale.ticks[k].c_str()).x;
        draw->AddText(ImVec2(origin.x + std::clamp(at - 0.5f * w, 0.0f, width - w), y),
                      ImGui::GetColorU32(ImGuiCol_Text), scale.ticks[k].c_str());
      }
      ImGui::Dummy(ImVec2(width, ImGui::GetTextLineHeight()));
    } else {
      ImGui::TextUnformatted(scale.low_label.c_str());
      ImGui::SameLine(width - ImGui::CalcTextSize(scale.high_label.c_str()).x + ImGui::GetStyle().WindowPadding.x);
      ImGui::TextUnformatted(scale.high_label.c_str());
    }
    if (!scale.note.empty()) ImGui::TextDisabled("%s", scale.note.c_str());
    // The arrows, each with a small arrow in its colour; only in a scene whose particles carry moments.
    if (render::has_moments(c.snapshot.particles)) {
      const render::ViewOptions& v = c.state.view;
      if (v.show_moments) legend_arrow(kMomentColour, kMomentText);
      if (v.show_easy_axes) legend_arrow(kEasyAxisColour, kEasyAxisText, false);
    }
  }
  c.state.legend_top = ImGui::GetWindowPos().y;   // the |B| legend goes above it (panel_field_view.cpp)
  c.state.legend_left = ImGui::GetWindowPos().x;  // the status line ends left of it (status_line.cpp)
  ImGui::End();

  // Gizmo labels (the renderer reports framebuffer pixels).
  const render::GizmoLabels& g = c.gizmo_labels;
  if (g.visible) {
    ImDrawList* fg = ImGui::GetForegroundDrawList();
    const float s = 1.0f / c.framebuffer_scale;
    fg->AddText(ImVec2(g.x.x * s, g.x.y * s), IM_COL32(242, 77, 77, 255), "x");
    fg->AddText(ImVec2(g.y.x * s, g.y.y * s), IM_COL32(90, 230, 90, 255), "y");
    fg->AddText(ImVec2(g.z.x * s, g.z.y * s), IM_COL32(102, 140, 255, 255), "z");
    fg->AddText(ImVec2(g.field.x * s, g.field.y * s), IM_COL32(255, 214, 64, 255), "B");
  }

  status_line(c);
  start_hint(c);
  try_hints(c);
  restore_offer(c);
}

}  // namespace lodestone::ui
