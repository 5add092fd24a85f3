// Export panel: writes the current frame (positions, velocities, orientations, moments, forces,
// alignment, clusters) to a file for ParaView, OVITO or LAMMPS. The simulation thread captures the
// frame on request (CaptureFrame); the file is written here, atomically (request_export).
// Below it: a screenshot of the window and movies (ui/recording.hpp), which the view writes.

#include "engine/output/export_frames.hpp"
#include "ui/panels.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <filesystem>

namespace lodestone::ui {

namespace {

void movie_controls(RecordingState& recording) {
  RecordSettings& settings = recording.settings;
  ImGui::BeginDisabled(recording.active);  // the settings of a running recording are fixed
  ImGui::InputText("movie##record", &settings.path);
  ImGui::InputInt("frames/s##record", &settings.fps);
  int size[2] = {settings.width, settings.height};
  if (ImGui::InputInt2("size px##record", size)) {
    settings.width = size[0];
    settings.height = size[1];
  }
  ImGui::Checkbox("3-D view only (no panels)##record", &settings.scene_only);
  ImGui::InputText("title##record", &settings.title);
  wrapped_tooltip("Painted at the top left of a movie of the 3-D view (none when empty).");
  ImGui::Checkbox("simulated time and legend##record", &settings.show_time_and_legend);
  ImGui::InputDouble("sim. s per movie s##record", &settings.simulated_per_movie_second, 0.0, 0.0, "%.4g");
  wrapped_tooltip(
      "Simulated seconds per second of the movie: a frame is taken each time the simulation has moved on by "
      "this / frames per second, so that playback speed means something. 0: every frame the window draws.");
  ImGui::EndDisabled();
  const std::string problem = recording.active ? std::string() : check_record_settings(settings);
  if (!recording.active) {
    ImGui::BeginDisabled(!problem.empty());
    if (ImGui::Button("Start recording")) recording.request = RecordingState::Request::Start;
    ImGui::EndDisabled();
  } else {
    if (ImGui::Button("Stop recording")) recording.request = RecordingState::Request::Stop;
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "REC %lld frames", recording.frames);
  }
  if (!problem.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", problem.c_str());
    ImGui::PopStyleColor();
  } else if (!recording.status.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, recording.status_is_error ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f)
                                                                   : ImGui::GetStyleColorVec4(ImGuiCol_Text));
    ImGui::TextWrapped("%s", recording.status.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "Every frame the window draws, played back at the frame rate. .mp4: H.264 through ffmpeg (must be installed); "
      ".png: numbered files name_000001.png, ... Size 0 x 0: the view's own. The MP4 appears when recording stops.");
  ImGui::PopStyleColor();
}

}  // namespace

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
  if (chosen == FrameFormat::VtkPolyData) {
    const char* encodings[kVtkEncodingCount];
    for (int k = 0; k < kVtkEncodingCount; ++k) encodings[k] = vtk_encoding_name(static_cast<VtkEncoding>(k));
    ImGui::Combo("encoding##export", &state.export_vtk_encoding, encodings, kVtkEncodingCount);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("ascii: text; base64: binary inline; raw: binary appended, smallest (large scenes)");
  }
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

  ImGui::Separator();
  ImGui::TextUnformatted("Screenshot and movie");
  ImGui::InputText("image##screenshot", &state.screenshot_path);
  if (ImGui::Button("Save screenshot")) state.screenshot_requested = true;
  ImGui::SameLine();
  ImGui::TextDisabled("PNG of the window");
  movie_controls(state.recording);
}

}  // namespace lodestone::ui
