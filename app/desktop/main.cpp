// lodestone: the desktop app. A Qt 6 window with an OpenGL 3.3 view and Dear ImGui panels; the
// engine runs on its own thread (engine/live/simulation_thread.hpp).

#include "app/desktop/autosave_keeper.hpp"
#include "app/desktop/desktop_options.hpp"
#include "app/desktop/main_window.hpp"
#include "app/desktop/remote_control.hpp"
#include "engine/live/simulation_thread.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/scene/preset_locations.hpp"
#include "engine/session/history_budget.hpp"

#include <QApplication>
#include <QSettings>
#include <QSurfaceFormat>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

using namespace lodestone;

namespace {

// --restore: the newest session a crashed program autosaved, or a notice (and a line on stderr) saying why none was.
void restore_at_start(desktop::AutosaveKeeper& keeper, desktop::MainWindow& window, ui::UiState& state) {
  try {
    keeper.restore(window.view()->sink());
  } catch (const AutosaveError& e) {
    std::cerr << "lodestone: --restore: " << e.what() << "\n";
    state.notice = std::string("nothing restored: ") + e.what();
    state.notice_is_error = true;
  }
}

// The scene gallery opens by itself once: at the first start with no preset asked for (a flag in the user's settings,
// QSettings "gallery_shown"), never in a scripted or remote run unless --gallery asks for it.
bool gallery_at_start(const desktop::DesktopOptions& options, bool scripted) {
  if (options.open_gallery) return true;
  if (!options.preset_path.empty() || options.remote || options.restore || scripted) return false;
  QSettings settings;
  if (settings.value("gallery_shown", false).toBool()) return false;
  settings.setValue("gallery_shown", true);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // Mesa's software rasteriser (llvmpipe) starts one drawing thread per core. The physics thread
  // runs flat out on a core of its own, so leave it one (docs/performance.md: with 2 cores this
  // costs the window a few frames/s and gives the physics back the steps/s it lost). Read at the
  // first OpenGL context; a value the user set wins; other drivers ignore it.
  if (qEnvironmentVariableIsEmpty("LP_NUM_THREADS")) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    qputenv("LP_NUM_THREADS", QByteArray::number(std::max(1u, cores - 1)));
  }
  // --help and --version need no window: answered before Qt looks for a display (its platform plugin
  // aborts without one).
  if (desktop::asks_for_help_or_version(argc, argv)) {
    desktop::DesktopOptions options;
    return desktop::parse_desktop_options(argc, argv, options).value_or(0);
  }
  // The default surface format must be set before the application object exists.
  bool benchmark = false;
  for (int i = 1; i < argc; ++i) benchmark = benchmark || std::strcmp(argv[i], "--benchmark") == 0;
  QSurfaceFormat format;
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  format.setSwapInterval(benchmark ? 0 : 1);
  QSurfaceFormat::setDefaultFormat(format);

  QApplication application(argc, argv);  // takes Qt's own options out of argv
  QApplication::setApplicationName("Lodestone");
  QApplication::setOrganizationName("Lodestone");

  desktop::DesktopOptions options;
  if (auto code = desktop::parse_desktop_options(argc, argv, options)) return *code;
  const bool scripted = options.frames > 0 || options.benchmark_seconds > 0.0;

  ui::UiState state;
  Preset preset = default_preset();
  std::string source = "built-in default preset";
  if (!options.preset_path.empty()) {
    options.preset_path = resolve_preset_argument(options.preset_path, LODESTONE_PRESETS_DIR);  // a file or a name
    try {
      preset = load_preset_file(options.preset_path);
      source = options.preset_path;
    } catch (const PresetError& e) {
      std::cerr << "lodestone: bad preset: " << e.what() << "\n";
      if (scripted) return 2;
      state.notice = std::string("not loaded, showing the default scene instead: ") + e.what();
      state.notice_is_error = true;
    }
  }
  // The "Try this" strip is for the scene a newcomer meets first, the default one (framed clear of it); a scene asked
  // for by name is someone's choice, and the strip could sit over its magnets.
  state.try_hints_hidden =
      source != "built-in default preset" && std::filesystem::path(source).filename() != "default.json";
  std::string presets = options.presets_directory;
  // ./presets (a checkout), else the installed share/lodestone/presets, else the source tree's (build tree).
  if (presets.empty())
    presets = std::filesystem::is_directory("presets") ? "presets" : presets_directory(LODESTONE_PRESETS_DIR);
  ui::scan_presets(state, presets);
  state.gallery_open = gallery_at_start(options, scripted);

  std::unique_ptr<SimulationThread> simulation;
  try {
    const int hardware = static_cast<int>(std::thread::hardware_concurrency());
    const int engine_threads = options.engine_threads > 0 ? options.engine_threads : std::max(1, hardware - 1);
    const std::size_t history_budget = options.history_mib > 0 ? static_cast<std::size_t>(options.history_mib) << 20
                                                               : history_budget_for(physical_memory_bytes());
    simulation = std::make_unique<SimulationThread>(preset, source, !options.paused, engine_threads, history_budget);
  } catch (const PresetError& e) {
    std::cerr << "lodestone: bad preset: " << source << " " << e.what() << "\n";
    return 2;
  }

  // Autosave (issue 41): not in scripted runs (screenshots, movies, benchmarks), which leave nothing behind.
  desktop::AutosaveSettings autosave;
  autosave.seconds = scripted ? 0.0 : options.autosave_seconds;
  autosave.offer = !scripted && !options.restore;
  desktop::AutosaveKeeper keeper(*simulation, state, autosave);

  desktop::MainWindow window(*simulation, state, options);
  window.keep_autosaves(keeper);
  window.resize(options.width, options.height);
  if (options.restore) restore_at_start(keeper, window, state);
  QObject::connect(window.view(), &desktop::SceneView::finished, &application,
                   [](int code) { QCoreApplication::exit(code); });
  std::unique_ptr<desktop::RemoteControl> remote;
  if (options.remote) {
    remote = std::make_unique<desktop::RemoteControl>(*simulation, state, window.view()->sink(), keeper);
    QObject::connect(remote.get(), &desktop::RemoteControl::quit_requested, &application,
                     [] { QCoreApplication::exit(0); });
    QObject::connect(remote.get(), &desktop::RemoteControl::acted, window.view(), &desktop::SceneView::wake);
    QObject::connect(remote.get(), &desktop::RemoteControl::key_requested, window.view(),
                     &desktop::SceneView::press_key);
    QObject::connect(window.view(), &desktop::SceneView::frame_starting, remote.get(), &desktop::RemoteControl::poll);
  }
  window.show();
  const int code = application.exec();
  keeper.quit_cleanly();  // a clean quit: the autosaves go (a crash or a kill never gets here and keeps them)
  return code;
}
