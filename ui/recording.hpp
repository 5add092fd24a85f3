#pragma once
// Movies and screenshots from the app: what the user asks for (the Export panel or the command
// line), checked here without Qt; app/desktop/frame_recorder.* does the writing.
//
// A movie is every frame the window draws while recording (so a camera move over a paused scene
// is recorded too), played back at `fps`. The frames go to a numbered PNG sequence
// (movie.png -> movie_000001.png, movie_000002.png, ...) or, through ffmpeg when it is installed,
// to an H.264 MP4 file.

#include <optional>
#include <string>

namespace lodestone::ui {

enum class RecordFormat { PngSequence, Mp4 };

struct RecordSettings {
  std::string path = "movie.mp4";  // .mp4: H.264 through ffmpeg; .png: a numbered PNG sequence
  int fps = 30;                    // playback frame rate [frames/s], 1..240
  int width = 0, height = 0;       // frame size [px]; 0 and 0: the 3-D view's size
  bool scene_only = true;          // the 3-D view without the panels (cropped right of the side bar)
  // What a movie of the 3-D view carries over the scene: a title (top left, none when empty), the simulated
  // time and the colour legend (bottom).
  std::string title;
  bool show_time_and_legend = true;
  // Simulated seconds per second of the movie (0: every frame the window draws): frames are taken when the
  // simulated time has moved on by this / fps, so that playback speed means something.
  double simulated_per_movie_second = 0.0;
};

// How many copies of the current frame a movie paced in simulated time takes (0 or more), given the
// simulated time now and of the last frame taken (updated); every drawn frame counts once when unpaced. A
// jump back in time (a reset) starts the count again.
int frames_due(const RecordSettings& settings, double simulated_time, std::optional<double>& last_taken);

inline constexpr int kMinRecordFps = 1, kMaxRecordFps = 240;
inline constexpr int kMinRecordSide = 16, kMaxRecordSide = 8192;

// The format of a recording path, by extension (case-insensitive); nullopt for any other.
std::optional<RecordFormat> record_format_of(const std::string& path);
// Empty when `settings` can be recorded; otherwise what is wrong, naming the setting, its value
// and what is allowed.
std::string check_record_settings(const RecordSettings& settings);
// The file of frame `index` (from 1) of a PNG sequence: "dir/movie.png" -> "dir/movie_000042.png".
std::string png_sequence_path(const std::string& path, long long index);
// The frame size for a view of view_width x view_height pixels: the asked size, or the view's
// (rounded down to even numbers for MP4, whose 4:2:0 colour needs them).
std::pair<int, int> record_frame_size(const RecordSettings& settings, int view_width, int view_height);

// The Export panel's movie controls and what the view reports back (GUI thread only).
struct RecordingState {
  RecordSettings settings;
  enum class Request { None, Start, Stop } request = Request::None;
  bool active = false;
  long long frames = 0;  // frames written (or queued to ffmpeg) so far
  std::string status;    // last result: where the movie went, or why it stopped
  bool status_is_error = false;
};

}  // namespace lodestone::ui
