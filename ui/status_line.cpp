// The status line and the start hint: fixed places at the bottom and the top left of the 3-D view, so
// that a message never moves a control under the mouse or covers the Plots window's header.

#include "ui/panels.hpp"
#include "ui/step_progress.hpp"

#include <imgui.h>

#include <algorithm>

namespace lodestone::ui {
namespace {
constexpr float kLegendRoom = 270.0f;  // [px] the legend's width at the bottom right, and a gap
constexpr float kGizmoRoom = 120.0f;   // [px] the axes gizmo at the bottom left of the view, and a gap
}  // namespace

ImVec4 status_line_rect(const UiState& state, ImVec2 display) {
  const float left = sidebar_extent(state) + kGizmoRoom;
  // Left of the legend as drawn in the last frame (its width follows its title), or of the room it usually takes.
  const float legend = state.legend_left > 0.0f ? state.legend_left - 10.0f : display.x - kLegendRoom;
  const float right = std::max(left + 120.0f, std::min(display.x - kLegendRoom, legend));
  const float height = 3.0f * ImGui::GetTextLineHeightWithSpacing() + 12.0f;
  return ImVec4(left, display.y - 10.0f - height, right, display.y - 10.0f);
}

void status_line(PanelContext& c) {
  UiState& state = c.state;
  if (state.notice != state.notice_shown) {
    state.notice_shown = state.notice;
    state.notice_since = ImGui::GetTime();
  }
  if (!state.notice_is_error && !state.notice.empty() && ImGui::GetTime() - state.notice_since > kSuccessNoticeSeconds)
    state.notice.clear();
  // A step or advance that takes a while (the History panel's, or the remote's) shows its progress here too.
  const std::optional<StepProgress>& stepping = c.snapshot.stepping;
  const std::string progress = stepping && stepping->wall_seconds_left >= 1.0
                                   ? "Stepping: " + step_progress_text(*stepping) + " (space stops it)"
                                   : "";
  if (state.notice.empty() && progress.empty()) return;
  const ImVec4 r = status_line_rect(state, ImGui::GetIO().DisplaySize);
  // Anchored at its bottom edge: up to three lines, wrapped to the width between the side bar and the legend.
  ImGui::SetNextWindowPos(ImVec2(r.x, r.w), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(r.z - r.x, r.w - r.y));
  ImGui::SetNextWindowBgAlpha(0.85f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("status", nullptr, flags)) {
    ImGui::PushTextWrapPos(r.z - r.x - ImGui::GetStyle().WindowPadding.x);
    if (!state.notice.empty()) {
      if (ImGui::SmallButton("x")) state.notice.clear();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Dismiss this message");
      ImGui::SameLine();
      ImGui::TextColored(state.notice_is_error ? ImVec4(1.0f, 0.5f, 0.45f, 1.0f) : ImVec4(0.7f, 0.95f, 0.7f, 1.0f),
                         "%s", state.notice.c_str());
    }
    if (!progress.empty()) ImGui::TextUnformatted(progress.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

void start_hint(PanelContext& c) {
  const Snapshot& s = c.snapshot;
  if (s.running || s.step != 0 || !s.scene || !s.scene->view.start_paused) return;
  // At the top left of the 3-D view, beside the side bar: scenes are framed in the middle of the view, and
  // what happens first is often at the bottom (the chain of chain-falls lands there; the hint used to sit on
  // it). Short, so that it ends left of the Plots header even at 1024 px.
  ImGui::SetNextWindowPos(ImVec2(sidebar_extent(c.state) + 10.0f, 10.0f), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("start hint", nullptr, flags))
    ImGui::TextColored(ImVec4(1.0f, 0.9f, 0.5f, 1.0f), "Paused: press space to start");
  ImGui::End();
}

void try_hints(PanelContext& c) {
  UiState& state = c.state;
  if (!try_hints_shown(state)) return;
  // Below the start hint's place, left of the Plots header: wrapped to at most 440 px.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float left = sidebar_extent(state) + 10.0f;
  const float width = std::clamp(display.x - left - 400.0f, 200.0f, 440.0f);
  ImGui::SetNextWindowPos(ImVec2(left, 10.0f + 2.0f * ImGui::GetTextLineHeightWithSpacing()), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(width, display.y));
  ImGui::SetNextWindowBgAlpha(0.75f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("try this", nullptr, flags)) {
    if (ImGui::SmallButton("x")) state.try_hints_hidden = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hide these hints");
    ImGui::SameLine();
    ImGui::PushTextWrapPos(width - ImGui::GetStyle().WindowPadding.x);
    ImGui::TextColored(ImVec4(1.0f, 0.9f, 0.5f, 1.0f), "Try this:");
    ImGui::TextWrapped("- Ctrl+drag a bead to pull it on a spring");
    ImGui::TextWrapped("- change the field's strength or direction in the Field panel");
    ImGui::TextWrapped("- space pauses and runs; F1: every control");
    ImGui::TextWrapped("- more scenes, with pictures:");
    ImGui::Indent();  // on a line of its own: the strip may be narrower than the line and the button together
    if (ImGui::SmallButton("Scene gallery")) state.gallery_open = true;  // also File > Scenes
    ImGui::Unindent();
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace lodestone::ui
