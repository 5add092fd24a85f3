// The top of the Run panel: what the scene shows in plain words (the description up to "For researchers:"),
// the research detail folded under "For researchers", and the Reset and Revert buttons, which say what they do.

#include "ui/panels.hpp"

#include <imgui.h>

namespace lodestone::ui {

std::pair<std::string, std::string> split_description(const std::string& description) {
  static const std::string kMarker = "For researchers:";
  const size_t at = description.find(kMarker);
  if (at == std::string::npos) return {description, ""};
  std::string plain = description.substr(0, at);
  while (!plain.empty() && (plain.back() == ' ' || plain.back() == '\n')) plain.pop_back();
  std::string detail = description.substr(at + kMarker.size());
  while (!detail.empty() && (detail.front() == ' ' || detail.front() == '\n')) detail.erase(0, 1);
  return {plain, detail};
}

void scene_summary(PanelContext& c) {
  const Snapshot& s = c.snapshot;
  if (!s.scene || s.scene->description.empty()) return;
  const auto [plain, detail] = split_description(s.scene->description);
  ImGui::TextWrapped("%s", plain.c_str());
  if (!detail.empty() && ImGui::TreeNode("For researchers")) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", detail.c_str());
    ImGui::PopStyleColor();
    ImGui::TreePop();
  }
}

void reset_buttons(PanelContext& c) {
  UiState& state = c.state;
  if (ImGui::Button("Reset")) {
    c.send(ResetScene{});
    state.notice.clear();  // a reset starts afresh: yesterday's messages go
  }
  wrapped_tooltip(
      "Starts the scene again from time 0: the particles are made anew, as the preset makes them; your edits "
      "to the parameters are kept.");
  // Beside Reset when it fits, else on the next line (a narrow side bar).
  ImGui::SameLine();
  const float revert_width = ImGui::CalcTextSize("Revert to preset").x + 2.0f * ImGui::GetStyle().FramePadding.x;
  if (ImGui::GetContentRegionAvail().x < revert_width) ImGui::NewLine();
  ImGui::BeginDisabled(!state.as_loaded);
  if (ImGui::Button("Revert to preset") && state.as_loaded) {
    c.send(LoadScene{*state.as_loaded, state.as_loaded_source});
    ++state.loads_sent;
    state.notice.clear();
    state.selected.reset();
  }
  ImGui::EndDisabled();
  wrapped_tooltip("Loads the preset again as it was loaded: your edits and the run so far are dropped.");
}

}  // namespace lodestone::ui
