// Help: the controls (F1, Help > Controls) and About (version, build date, the contact laws this build has).

#include "engine/core/version.hpp"
#include "engine/scene/preset_io.hpp"
#include "ui/controls.hpp"
#include "ui/panels.hpp"

#include <imgui.h>

#include <string>

namespace lodestone::ui {

std::string contact_laws_text() {
  std::string laws;
  for (const auto& f : contact_schema())
    if (f.key == "law")
      for (const std::string& name : f.choices) laws += (laws.empty() ? "" : ", ") + name;
  return laws;
}

std::string version_text() {
  return std::string("Lodestone ") + LODESTONE_VERSION + ", built " + __DATE__ + " " + __TIME__;
}

void help_windows(PanelContext& c) {
  UiState& state = c.state;
  const ImGuiIO& io = ImGui::GetIO();
  const float left = sidebar_extent(state) + 20.0f;
  if (state.help_open) {
    // Inside the window, right of the side bar, at most as large as the free part.
    ImGui::SetNextWindowPos(ImVec2(left, 20.0f), ImGuiCond_Appearing);
    ImGui::SetNextWindowSizeConstraints(
        ImVec2(200.0f, 100.0f), ImVec2(std::max(200.0f, io.DisplaySize.x - left - 20.0f), io.DisplaySize.y - 40.0f));
    if (ImGui::Begin("Controls (F1)", &state.help_open, ImGuiWindowFlags_AlwaysAutoResize | appear_behind_popups())) {
      if (ImGui::BeginTable("controls", 2, ImGuiTableFlags_RowBg)) {
        for (const auto& [key, what] : kControls) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(key);
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(what);
        }
        ImGui::EndTable();
      }
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 460.0f);
      note(
          "On the scene the app opens with, a \"Try this\" strip at the top of the view lists what a hand can "
          "do; it goes away at your first change (x hides it).");
      note(
          "More scenes: File > Scenes opens the gallery, every preset with a picture, a title and a line on what it "
          "shows, grouped Teaching / Research / Benchmarks (\"more\" under a scene unfolds its research text); "
          "click a picture to open it. The Presets panel and File > Open list the same files.");
      note(
          "A scene that waits for you (field-switch-on) shows its button at the top of the Run panel, e.g. "
          "\"Switch the field on\"; the run stays in that phase until you press it.");
      ImGui::PopTextWrapPos();
    }
    ImGui::End();
  }
  if (state.about_open) {
    ImGui::SetNextWindowPos(ImVec2(left, 60.0f), ImGuiCond_Appearing);
    ImGui::SetNextWindowSizeConstraints(
        ImVec2(200.0f, 100.0f), ImVec2(std::max(200.0f, io.DisplaySize.x - left - 20.0f), io.DisplaySize.y - 80.0f));
    if (ImGui::Begin("About Lodestone", &state.about_open,
                     ImGuiWindowFlags_AlwaysAutoResize | appear_behind_popups())) {
      ImGui::TextUnformatted(version_text().c_str());
      ImGui::TextUnformatted("An interactive simulator of magnetic granular matter.");
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 460.0f);
      ImGui::TextWrapped("%s", lodestone_license_and_citation().c_str());
      ImGui::TextWrapped("Contact laws in this build: %s.", contact_laws_text().c_str());
      ImGui::TextWrapped(
          "Also: magnetic dipoles (direct sum, cut-off or tree), rigid clumps, beam bonds, a frictional floor, "
          "external field programs, gravity, walls, Brownian motion. Physics and its sources: docs/physics.md; "
          "preset fields: docs/presets.md.");
      ImGui::PopTextWrapPos();
    }
    ImGui::End();
  }
}

}  // namespace lodestone::ui
