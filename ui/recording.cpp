#include "ui/recording.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace lodestone::ui {

std::optional<RecordFormat> record_format_of(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".png") return RecordFormat::PngSequence;
  if (extension == ".mp4") return RecordFormat::Mp4;
  return std::nullopt;
}

std::string check_record_settings(const RecordSettings& s) {
  const std::optional<RecordFormat> format = record_format_of(s.path);
  const std::filesystem::path path(s.path);
  if (!format)
    return "movie file '" + s.path +
           "': the extension must be .mp4 (H.264 through ffmpeg) or .png (a numbered PNG sequence)";
  if (path.stem().empty()) return "movie file '" + s.path + "': needs a name before the extension";
  if (s.fps < kMinRecordFps || s.fps > kMaxRecordFps)
    return "frame rate " + std::to_string(s.fps) + ": allowed " + std::to_string(kMinRecordFps) + " to " +
           std::to_string(kMaxRecordFps) + " frames/s";
  const bool window_size = s.width == 0 && s.height == 0;
  if (!window_size) {
    for (const auto& [name, value] : {std::pair{"width", s.width}, std::pair{"height", s.height}}) {
      if (value < kMinRecordSide || value > kMaxRecordSide)
        return std::string("frame ") + name + " " + std::to_string(value) + ": allowed " +
               std::to_string(kMinRecordSide) + " to " + std::to_string(kMaxRecordSide) +
               " px (or width and height both 0 for the view's size)";
      if (*format == RecordFormat::Mp4 && value % 2 != 0)
        return std::string("frame ") + name + " " + std::to_string(value) +
               ": an MP4 (H.264, 4:2:0 colour) needs even sizes; allowed " + std::to_string(value - 1) + " or " +
               std::to_string(value + 1);
    }
  }
  if (!(s.simulated_per_movie_second >= 0.0))
    return "simulated time per movie second " + std::to_string(s.simulated_per_movie_second) +
           ": allowed 0 (every frame drawn) or more";
  const std::filesystem::path directory = path.parent_path();
  if (!directory.empty() && !std::filesystem::is_directory(directory))
    return "movie file '" + s.path + "': the folder '" + directory.string() + "' does not exist";
  return {};
}

std::string png_sequence_path(const std::string& path, long long index) {
  std::filesystem::path p(path);
  char number[32];
  std::snprintf(number, sizeof number, "_%06lld", index);
  const std::string name = p.stem().string() + number + p.extension().string();
  return (p.parent_path() / name).string();
}

std::pair<int, int> record_frame_size(const RecordSettings& s, int view_width, int view_height) {
  if (s.width > 0 && s.height > 0) return {s.width, s.height};
  const bool even = record_format_of(s.path) == RecordFormat::Mp4;
  auto fit = [even](int side) { return std::max(even ? side - side % 2 : side, kMinRecordSide); };
  return {fit(view_width), fit(view_height)};
}

int frames_due(const RecordSettings& settings, double time, std::optional<double>& last_taken) {
  if (settings.simulated_per_movie_second <= 0.0) return 1;
  if (!last_taken || time < *last_taken) {  // the first frame, or the run was reset
    last_taken = time;
    return 1;
  }
  const double per_frame = settings.simulated_per_movie_second / static_cast<double>(settings.fps);
  const double due = std::floor((time - *last_taken) / per_frame);
  if (due < 1.0) return 0;
  // At most a second of movie at once (a long jump, e.g. stepping while paused, is not a minute of stills).
  const int copies = static_cast<int>(std::min(due, static_cast<double>(settings.fps)));
  *last_taken += due * per_frame;
  return copies;
}

}  // namespace lodestone::ui
