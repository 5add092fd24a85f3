// Export panel: writes the current frame (positions, velocities, orientations, moments, forces,
// alignment, clusters) to a file for ParaView, OVITO or LAMMPS. The simulation thread captures the
// frame on request (CaptureFrame); the file is written here, atomically (request_export).

#include <imgui.h>
#include <imgui_stdlib.h>

#include <filesystem>

#include "engine/export_frames.hpp"
#include "ui/panels.hpp"

namespace lodestone::ui {

void export_panel(PanelContext& c) {
  UiState& state = c.state;
  // The format combo rewrites the path's extension; the extension is what decides (as in lodestone-run).
  const std::optional<FrameFormat> chosen = frame_format_of(state.export_path);
  const char* names[kFrameFormatCount];
  for (int k = 0; k < kFrameFormatCount; ++k) names[k] = frame_format_name(static_cast<FrameFormat>(k));
  int format = chosen ? static_cast<int>(*chosen) : -1;
  if (ImGui::Combo("format##export", &format, names, kFrameFormatCount))
    state.export_path = std::filesystem::path(state.export_path)
                            .replace_extension(frame_format_extension(static_cast<FrameFormat>(format)))
                            .string();
  ImGui::InputText("file##export", &state.export_path);
  ImGui::BeginDisabled(state.pending_export.has_value());
  if (ImGui::Button("Export frame")) request_export(state, state.export_path, c.send);
  ImGui::EndDisabled();
  if (state.pending_export) {
    ImGui::SameLine();
    ImGui::TextDisabled("capturing...");
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (!chosen) ImGui::TextWrapped("Unknown extension: use .xyz, .vtp, .dump (or .lammpstrj) or .csv.");
  ImGui::TextWrapped(
      "The current frame, SI units (docs/outputs.md). .vtp: ParaView (Glyph filter for spheres); .xyz and .dump: "
      "OVITO; .dump: LAMMPS read_dump with units si; .csv: one row per particle. Atomic: a failed export keeps the old "
      "file.");
  ImGui::PopStyleColor();
}

}  // namespace lodestone::ui
