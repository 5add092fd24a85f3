#pragma once
// A Dear ImGui context needing no window and no OpenGL, for the UI tests: a display size, a time step and a
// built font atlas are all that NewFrame asks for.

#include <imgui.h>

namespace lodestone::ui::test {

class HeadlessImGui {
 public:
  explicit HeadlessImGui(ImVec2 display) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini in the working directory
    io.LogFilename = nullptr;
    io.DisplaySize = display;
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  }
  ~HeadlessImGui() { ImGui::DestroyContext(); }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;
};

}  // namespace lodestone::ui::test
