// The restore offer (issue 41): after a program did not quit cleanly (a crash, a kill, the power), a bar across the
// top of the 3-D view says so in plain words and offers its autosave back. It does not block: the scene the app
// opened on runs meanwhile, and the offer stays until answered. The window acts on the answer
// (app/desktop/autosave_keeper.hpp, main_window.cpp).

#include "ui/panels.hpp"

#include <imgui.h>

#include <algorithm>

namespace lodestone::ui {

void restore_offer(PanelContext& c) {
  UiState& state = c.state;
  UiState::RestoreOffer& offer = state.restore_offer;
  if (offer.what.empty() || offer.answer != UiState::RestoreOffer::Answer::None) return;
  // Where the "Try this" strip goes (hidden meanwhile): below the start hint's place, left of the Plots header.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float left = sidebar_extent(state) + 10.0f;
  const float width = std::clamp(display.x - left - 400.0f, 280.0f, 520.0f);
  ImGui::SetNextWindowPos(ImVec2(left, 10.0f + 2.0f * ImGui::GetTextLineHeightWithSpacing()), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0.0f), ImVec2(width, display.y));
  ImGui::SetNextWindowBgAlpha(0.92f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("restore offer", nullptr, flags)) {
    ImGui::PushTextWrapPos(width - ImGui::GetStyle().WindowPadding.x);
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.45f, 1.0f), "Restore your last session?");
    ImGui::TextWrapped("%s", offer.what.c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::Button(offer.button.c_str())) offer.answer = UiState::RestoreOffer::Answer::Restore;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Go on from where it stopped: the same particles, values and changes (paused)");
    // The other two beside it when they fit, else below it.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float others = ImGui::CalcTextSize("Discard it").x + ImGui::CalcTextSize("Not now").x +
                         4.0f * style.FramePadding.x + 2.0f * style.ItemSpacing.x;
    if (ImGui::GetContentRegionAvail().x - ImGui::GetItemRectSize().x > others) ImGui::SameLine();
    if (ImGui::Button("Discard it")) offer.answer = UiState::RestoreOffer::Answer::Discard;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Delete the autosaved session; it cannot be brought back");
    ImGui::SameLine();
    if (ImGui::Button("Not now")) offer.answer = UiState::RestoreOffer::Answer::Later;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hide this; the session is offered again at the next start");
  }
  ImGui::End();
}

}  // namespace lodestone::ui
