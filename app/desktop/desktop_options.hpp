#pragma once
// Command line of the desktop app (parsed with CLI11 after QApplication took its own options).

#include "ui/recording.hpp"

#include <optional>
#include <string>

namespace lodestone::desktop {

struct DesktopOptions {
  std::string preset_path;          // empty: the built-in default preset
  bool paused = false;              // start paused
  int engine_threads = 0;           // threads of the physics (0: the hardware threads minus one, at least 1)
  int history_mib = 0;              // memory for the run's history (rewind, the time slider) [MiB]; 0: by machine
  int width = 1280, height = 800;   // window size [logical pixels]
  std::optional<float> yaw, pitch;  // camera angles [deg]
  bool frame_box = false;           // the camera frames the whole box on load (default: the particles)
  std::string color_mode;           // "alignment", "moment", "direction", "speed", "contacts", "cluster"
  std::string presets_directory;    // listed in the Presets panel
  bool open_plots = false;          // the Plots window starts open (it starts collapsed)
  bool open_gallery = false;        // the scene gallery starts open (ui/gallery.hpp)
  bool restore = false;             // restore the autosave a crashed program left (app/desktop/autosave_keeper.hpp)
  double autosave_seconds = 30.0;   // [s] between autosaves while something changes; 0: none
  // Scripted runs (tests, benchmarks): render this many frames, then save a screenshot and exit.
  int frames = 0;
  std::string screenshot_path;
  // Record a movie from the first frame (path empty: no); with `frames`, it ends there.
  ui::RecordSettings record = [] {
    ui::RecordSettings none;
    none.path.clear();
    return none;
  }();
  bool remote = false;  // read commands from standard input (app/desktop/remote_control.hpp)
  // Benchmark: run this many seconds, print frames/s and steps/s, exit.
  double benchmark_seconds = 0.0;
};

// Returns an exit code when the program should stop (help printed, bad arguments).
// True when the arguments ask only for --help or --version: answered before Qt starts, so without a display.
bool asks_for_help_or_version(int argc, char** argv);
std::optional<int> parse_desktop_options(int argc, char** argv, DesktopOptions& options);

}  // namespace lodestone::desktop
