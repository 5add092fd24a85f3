#include "app/desktop/desktop_options.hpp"

#include "engine/core/version.hpp"
#include "ui/controls.hpp"
#include "ui/panels.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <sstream>

namespace lodestone::desktop {

bool asks_for_help_or_version(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h" || a == "--version") return true;
  }
  return false;
}

namespace {

// The arguments read as text (or flags) first and interpreted after parsing: into DesktopOptions, or refused.
struct RawArguments {
  std::string positional, named, size = "1280x800", camera, record_size;
  std::string frame = "particles";
  bool record_panels = false;
  bool no_overlay = false;
};

// The program's description, version and the footer of --help (the controls and the scripted runs).
void describe_app(CLI::App& app) {
  app.set_version_flag("--version", ui::version_text() + "\n" + lodestone_license_and_citation());
  app.footer(
      "Controls (also in the app: F1):\n" + ui::controls_text() +
      "\nScripted: lodestone --preset P --frames N --screenshot out.png renders N frames, saves the window\n"
      "and exits (works under Xvfb). --record movie.mp4 --frames N records N frames and exits. --benchmark S prints "
      "frames/s and steps/s after S seconds.");
}

// The options of the scene, the window and the camera, in the order --help lists them.
void declare_scene_and_window_options(CLI::App& app, DesktopOptions& o, RawArguments& raw) {
  app.add_option("PRESET", raw.positional, "Preset JSON file to open")->check(CLI::ExistingFile);
  app.add_option("--preset", raw.named, "Preset JSON file to open (same as PRESET)")->check(CLI::ExistingFile);
  app.add_flag("--paused", o.paused, "Start paused");
  app.add_option("--threads", o.engine_threads,
                 "Threads of the physics engine (default: the hardware threads minus one, which the software "
                 "renderer and the window use; at least 1)")
      ->check(CLI::Range(1, 256));
  app.add_option("--history-mib", o.history_mib,
                 "Memory kept for going back in the run (time slider, rewind, undo) in MiB; older moments are "
                 "thinned out beyond it (default: an eighth of this machine's memory, between 64 and 512)")
      ->check(CLI::Range(8, 1 << 20));
  app.add_option("--size", raw.size, "Window size WIDTHxHEIGHT in logical pixels");
  app.add_option("--camera", raw.camera, "Camera angles YAW,PITCH in degrees (default: the preset's view, -70,22)");
  app.add_option("--frame", raw.frame,
                 "What the camera frames when a scene loads: particles (default; it follows them while they "
                 "move, until you move the view) or box (the whole box, still)")
      ->check(CLI::IsMember({"particles", "box"}));
  app.add_option("--color", o.color_mode,
                 "Colour spheres by: alignment, moment, direction, speed, contacts, cluster (default: the preset's "
                 "view.color_mode)")
      ->check(CLI::IsMember({"alignment", "moment", "direction", "speed", "contacts", "cluster"}));
  app.add_option("--presets-dir", o.presets_directory, "Directory listed in the Presets panel");
  app.add_flag("--plots", o.open_plots, "Open the Plots window at start (it starts collapsed)");
  app.add_flag("--gallery", o.open_gallery,
               "Open the scene gallery at start (it opens by itself only at the very first start without a preset, "
               "never with --remote)");
  app.add_flag("--restore", o.restore,
               "Restore the session autosaved by a Lodestone that did not quit cleanly (a crash, a kill): the newest "
               "one in $XDG_STATE_HOME/lodestone (else ~/.local/state/lodestone), instead of opening PRESET");
  app.add_option("--autosave-seconds", o.autosave_seconds,
                 "Autosave the session every this many seconds of wall time while something changes, and at every "
                 "load and save (default 30; 0: never). A clean quit removes the autosaves")
      ->check(CLI::Range(0.0, 86400.0));
}

// The options of scripted runs: screenshots, movies, the remote commands and the benchmark, after the others.
void declare_scripted_options(CLI::App& app, DesktopOptions& o, RawArguments& raw) {
  app.add_option("--frames", o.frames, "Render this many frames, then save --screenshot and exit")
      ->check(CLI::PositiveNumber);
  app.add_option("--screenshot", o.screenshot_path, "PNG file written after --frames frames");
  app.add_option("--record", o.record.path,
                 "Record a movie from the first frame: FILE.mp4 (H.264 through ffmpeg) or FILE.png (numbered PNG "
                 "sequence FILE_000001.png, ...); ends after --frames frames, or when the app closes");
  app.add_option("--record-fps", o.record.fps, "Playback frame rate of the movie (default 30)")
      ->check(CLI::Range(ui::kMinRecordFps, ui::kMaxRecordFps));
  app.add_option("--record-size", raw.record_size, "Movie frame size WIDTHxHEIGHT in pixels (default: the 3-D view's)");
  app.add_option("--record-title", o.record.title, "Title painted at the top left of a movie of the 3-D view");
  app.add_flag("--record-no-overlay", raw.no_overlay,
               "Leave the simulated time and the colour legend off a movie of the 3-D view");
  app.add_option("--record-pace", o.record.simulated_per_movie_second,
                 "Simulated seconds per second of the movie: frames are taken as the simulated time moves on "
                 "(default 0: every frame the window draws)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--record-panels", raw.record_panels,
               "Record the whole window with its panels (default: the 3-D view only)");
  app.add_flag("--remote", o.remote,
               "Read commands from standard input, one per line (set PATH VALUE, get PATH, run, pause, reset, "
               "step N, load FILE, save FILE, status, quit): scripted sessions such as scripts/soak.sh");
  app.add_option("--benchmark", o.benchmark_seconds, "Run this many seconds, print frames/s and steps/s, exit")
      ->check(CLI::PositiveNumber);
}

// After parsing: the preset, the window size, the camera and the frame. Throws CLI::ValidationError naming the option.
void interpret_scene_and_window(const RawArguments& raw, DesktopOptions& o) {
  if (!raw.positional.empty() && !raw.named.empty() && raw.positional != raw.named)
    throw CLI::ValidationError("PRESET", "give the preset once, as PRESET or --preset");
  o.preset_path = raw.named.empty() ? raw.positional : raw.named;
  o.frame_box = raw.frame == "box";
  char x = 0;
  std::istringstream in(raw.size);
  if (!(in >> o.width >> x >> o.height) || x != 'x' || o.width < 100 || o.height < 100 || o.width > 16384 ||
      o.height > 16384)
    throw CLI::ValidationError("--size", "'" + raw.size + "' is not WIDTHxHEIGHT with both in [100, 16384]");
  if (!raw.camera.empty()) {
    float yaw = 0, pitch = 0;
    char comma = 0;
    std::istringstream angles(raw.camera);
    if (!(angles >> yaw >> comma >> pitch) || comma != ',')
      throw CLI::ValidationError("--camera", "'" + raw.camera + "' is not YAW,PITCH in degrees");
    o.yaw = yaw;
    o.pitch = pitch;
  }
}

// After parsing: the movie, the screenshot and the frames to render. Throws CLI::ValidationError naming the option.
void interpret_scripted(const RawArguments& raw, DesktopOptions& o) {
  if (!raw.record_size.empty()) {
    char times = 0;
    std::istringstream in_size(raw.record_size);
    if (!(in_size >> o.record.width >> times >> o.record.height) || times != 'x' || !in_size.eof())
      throw CLI::ValidationError("--record-size", "'" + raw.record_size + "' is not WIDTHxHEIGHT in pixels");
    if (o.record.path.empty()) throw CLI::ValidationError("--record-size", "needs --record FILE");
  }
  o.record.scene_only = !raw.record_panels;
  o.record.show_time_and_legend = !raw.no_overlay;
  if (!o.record.path.empty())
    if (const std::string problem = ui::check_record_settings(o.record); !problem.empty())
      throw CLI::ValidationError("--record", problem);
  if (o.frames > 0 && o.screenshot_path.empty() && o.record.path.empty())
    throw CLI::ValidationError("--frames", "needs --screenshot FILE or --record FILE to write");
  if (!o.screenshot_path.empty() && o.frames == 0) o.frames = 10;
}

}  // namespace

std::optional<int> parse_desktop_options(int argc, char** argv, DesktopOptions& o) {
  CLI::App app{
      "lodestone: interactive simulator of magnetic granular matter.\n"
      "Without PRESET it opens the built-in default scene."};
  describe_app(app);
  RawArguments raw;
  declare_scene_and_window_options(app, o, raw);
  declare_scripted_options(app, o, raw);
  try {
    app.parse(argc, argv);
    interpret_scene_and_window(raw, o);
    interpret_scripted(raw, o);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "lodestone: " << e.what() << "\nRun with --help for the options.\n";
    return 1;
  }
  return std::nullopt;
}

}  // namespace lodestone::desktop
