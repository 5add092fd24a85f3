#pragma once
// What the GUI thread keeps between frames: its copy of the scene parameters (the panels edit it
// and send it as a command), view options, plot history, selection, preset list, messages.

#include "engine/live/commands.hpp"
#include "engine/live/snapshot.hpp"
#include "render/view_options.hpp"
#include "ui/recording.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lodestone::ui {

using CommandSink = std::function<void(Command)>;

// Time series for the plots, thinned by half whenever it fills up (the whole run stays visible).
struct PlotHistory {
  static constexpr size_t kCapacity = 2000;
  std::vector<float> time, alignment, kinetic, potential, balance, contacts;
  std::vector<float> mean_cluster_size;  // S(t) of [Dominik-Nubold] eq. 17
  std::int64_t last_step = -1;
  int stride = 1;  // keep one snapshot in `stride`
  int skipped = 0;
  void clear();
  void add(const Snapshot& s);
};

struct PresetEntry {
  std::string path;
  std::string name;
  std::string description;  // or the error that stops it from loading
  bool loadable = false;
  // The scene gallery's (ui/gallery.hpp), from the preset's view section: its group, plain title (the name when
  // the preset has none) and one line; the thumbnail file when there is one ("" else).
  GalleryGroup group = GalleryGroup::Research;
  std::string title;
  std::string summary;
  std::string thumbnail;
};

// Hands on the particles (issue 22): Ctrl+drag pulls a particle with the drag spring; the add tool places a
// particle or a magnet where a click meets a horizontal plane; Delete removes the selected one. Each is a
// command to the simulation thread, recorded in the scene's timeline.
enum class AddKind : int { CopyOfSelected, Sphere, BarMagnet, CubeMagnet };
struct TouchTool {
  float drag_stiffness = 1.0f;  // relative to the default feel (engine/bodies/touch.hpp), 0.01 to 50
  bool placing = false;         // a click in the scene adds (instead of selecting)
  AddKind add_kind = AddKind::CopyOfSelected;
  double plane_height = 0.0;  // [m] the horizontal plane clicks are placed on
  bool plane_set = false;     // false: put it through the selected particle (or the box bottom) first
  double radius = 5e-4;       // [m] a sphere's, a magnet's pebbles'
  int material = 0;           // index into the parameters' materials
  int pebbles = 4;            // a bar's length, a cube's edge, in pebbles
  int axis = 0;               // 0 x, 1 y, 2 z: the magnet's axis (its moments); lying down fits a table scene
};

// The View panel's field view (issue 22): what to show and the requests in flight. The simulation thread
// evaluates the field (ComputeFieldView) and publishes it in the snapshot; update_field_view asks again as
// soon as the last answer came and the scene moved on (at most kFieldViewRate a second).
struct FieldViewTool {
  static constexpr double kFieldViewRate = 20.0;  // [1/s] most updates asked for
  int axis = 2;                                   // the slice's normal: 0 x, 1 y, 2 z
  double at = 0.0;                                // [m] its position along the normal (a load re-centres it)
  bool at_set = false;                            // false: through the box's middle first
  int resolution = 64;                            // slice points along each in-plane axis
  std::uint64_t last_request = 0;
  std::int64_t requested_step = -1;  // the step the last request was sent at
  bool settings_changed = true;
  // The colour map's range (UiState::view.field_low / field_high): fitted to the answer of the first request after
  // a change of the slice (its axis, position or points, the View panel's "refit colours") or a load, then only
  // widened, so that a colour keeps its meaning while the run goes on.
  std::uint64_t refit_at_request = 0;  // fit to this request's answer (0: widen only)
  std::uint64_t ranged_request = 0;    // the answer the range last took in
  double last_sent = -1.0;             // [s] ImGui time of the last request
  double updates_per_second = 0.0;     // measured: answers a second
  double rate_start = -1.0;
  int rate_count = 0;
};

struct UiState {
  Preset edited;                                    // parameters in force, as the panels show and edit them
  std::shared_ptr<const Preset> document;           // the scene as a save writes it (protocol, edits folded in)
  std::uint64_t adopted_revision = 0;               // snapshot scene revision copied into `edited`
  std::uint64_t last_edit_id = 0;                   // ApplyParameters sent
  std::vector<std::string> changed_paths;           // dotted paths the panels changed this frame (send_parameters)
  std::map<std::string, std::string> field_errors;  // refused typed values, by field id
  render::ViewOptions view;
  PlotHistory history;
  std::optional<std::uint64_t> selected;
  std::vector<PresetEntry> presets;
  std::string preset_directory;
  std::string save_path = "my-scene.json";
  // Unsaved changes: the document as last loaded or saved and the load it belongs to
  // (Snapshot::scene_loads); `unsaved` when the document now differs (parameter edits). The app
  // asks before discarding them.
  std::shared_ptr<const Preset> saved_document;
  std::uint64_t saved_load = 0;
  bool unsaved = false;
  std::optional<std::string> open_request;  // the Presets panel asks to load this file (the window confirms)
  std::string export_path = "frame.vtp";    // Export panel: where the current frame goes (format by extension)
  int export_vtk_encoding = 0;              // Export panel: a .vtp's arrays, VtkEncoding (ascii, base64, raw)
  // An export asked of the simulation thread (CaptureFrame) and not yet written: the request id
  // and the path it goes to.
  struct PendingExport {
    std::uint64_t request = 0;
    std::string path;
  };
  std::optional<PendingExport> pending_export;
  std::uint64_t last_export_request = 0;
  RecordingState recording;  // Export panel: movie settings, start/stop, progress
  std::string screenshot_path = "screenshot.png";
  bool screenshot_requested = false;  // the view saves the next frame it draws, then clears this
  std::string notice;                 // last message for the user (refusal, save or export result)
  bool notice_is_error = false;
  bool notice_from_refusal = false;  // a refused command's message: cleared once a later edit is accepted
  std::uint64_t refused_edit = 0;    // the last edit acknowledged when that message came
  std::string notice_shown;          // the notice the status line shows, and since when [ImGui time, s]
  double notice_since = 0.0;
  std::uint64_t seen_message_revision = 0;
  float frames_per_second = 0.0f;
  bool view_resting = false;
  float legend_left = 0.0f;  // [logical px] its left edge: the status line ends before it
  float legend_top = 0.0f;   // [logical px] the top edge of the colour legend (bottom right), 0 before it is drawn  //
                             // the view draws nothing until something changes (app/desktop/scene_view.hpp)
  TouchTool touch;
  FieldViewTool field_view;
  // Commands answered in Snapshot::reply carry a request id from one count (the panels' and the remote's).
  // Touches (DeleteBody, AddParticle, ...; the remote's too): the last sent, and the last answer shown as the
  // notice.
  std::uint64_t last_request_id = 0;
  std::uint64_t last_touch_request = 0;
  std::uint64_t seen_touch_request = 0;

  // Run panel time controls (panel_history.cpp)
  std::optional<int> scrub_index;           // the time slider's position while it is dragged
  bool scrub_resume = false;                // the run was running when the drag began
  int step_count = 100;                     // "Steps" button
  std::string step_span = "1 ms";           // "Advance" button, simulated time
  std::string go_back_span;                 // "Go back by" after a failed check ("" until one)
  std::uint64_t answered_confirmation = 0;  // the held edit the user answered (applied or cancelled)

  // [SECTION] the view around the scene (ui/preset_view.hpp)
  // The side bar: its width [logical pixels] (dragged at its right edge), and hidden with Tab.
  float sidebar_width = 380.0f;
  bool sidebar_hidden = false;
  // A scene's `view` applies once per load (Snapshot::scene_loads); the preset as it was loaded, for
  // "Revert to preset".
  std::uint64_t view_applied_load = 0;
  std::shared_ptr<const Preset> as_loaded;
  std::string as_loaded_source;
  std::optional<bool> plots_open_request;  // the Plots window opens (true) or collapses on the next frame
  bool plots_open = false;                 // the Plots window is open (not collapsed) now
  // The camera: asked of the 3-D view (F, Shift+F, the View panel, the remote verb `frame`), and its angles
  // as the view last drew them [deg], which a save writes into the preset's view.
  enum class CameraRequest { None, Load, FrameAll, FrameSelection };
  CameraRequest camera_request = CameraRequest::None;
  bool camera_follows = true;  // the camera keeps the particles in view until the user moves it
  float camera_yaw_degrees = -70.0f, camera_pitch_degrees = 22.0f;
  SetPace pace;                    // as the simulation thread runs it (adopted from the snapshot), for a save
  std::string legend_title;        // what the colours mean now (the renderer's legend), for the remote verb `view`
  std::uint64_t frames_drawn = 0;  // by the window, counted for the remote verb sync
  std::uint64_t loads_sent = 0;    // LoadScene commands sent (load_preset, Revert to preset)
  bool try_hints_hidden = false;
  float plots_right_extent = 0.0f;  // [px] the open Plots window's width at the right edge (framing leaves it free) //
                                    // the "Try this" strip (status_line.cpp try_hints): closed by the user
  // The restore offer (issue 41, ui/restore_offer.cpp): an autosave a program left when it did not quit cleanly, in
  // plain words ("" when there is none), and the user's answer, acted on by the window (app/desktop/autosave_keeper).
  struct RestoreOffer {
    std::string what;    // "Lodestone did not close properly on 3 May at 14:32. ..."
    std::string button;  // "Restore the session of 14:32 (t = 0.35 s)"
    enum class Answer { None, Restore, Discard, Later } answer = Answer::None;
  };
  RestoreOffer restore_offer;
  std::uint64_t saves_done = 0;  // scenes saved (save_preset): an autosave follows each
  // The scene gallery (File > Scenes, and at the first start; ui/gallery.hpp): open or not, and the thumbnails' OpenGL
  // textures by file, which the view loads while it is open (0: the file could not be read; the title shows instead).
  bool gallery_open = false;
  std::map<std::string, std::uint64_t> thumbnail_textures;
  bool help_open = false;   // F1: the controls
  bool about_open = false;  // Help > About
};

// Asks the simulation thread for a new field view when the View panel shows one and the last answer is in
// (and the scene moved on or the settings changed); `now` [s] is the GUI clock.
void update_field_view(UiState& state, const Snapshot& snapshot, const CommandSink& send, double now);
// Takes the newest field view's |B| range into the colour map's held range (FieldViewTool::refit_at_request).
void hold_field_range(UiState& state, const Snapshot& snapshot);

// The command that adds what the touch tool is set to at `point` [m] (a copy of the selected particle, a
// sphere, a bar or a cube magnet), or nothing with a notice saying why (no particle selected).
std::optional<Command> add_command(UiState& state, const Vec3& point);

// A request id for a touch command: its answer becomes the notice.
inline std::uint64_t next_touch_request(UiState& state) {
  return state.last_touch_request = ++state.last_request_id;
}
// Width of the side bar now: 0 while hidden.
// The "Try this" strip is shown on the scene the app opened with until the user closes it, loads another, edits a
// value or touches a particle: it is for the first minute.
// While running at a pace in simulated time: the share of it kept (simulated seconds per wall second over the pace);
// nothing when paused, running flat out or not yet measured. The Run panel says so below 90 % (issue 39: a
// scene got 40 % of its pace and nothing said it).
inline std::optional<double> pace_kept(const Snapshot& s) {
  if (!s.running || s.pace.mode != PaceMode::RealTime || !(s.pace.value > 0.0) || !(s.steps_per_second > 0.0))
    return std::nullopt;
  return s.steps_per_second * s.time_step / s.pace.value;
}

inline bool try_hints_shown(const UiState& state) {
  // Not under the restore offer, which takes the top of the view.
  return !state.try_hints_hidden && state.loads_sent == 0 && state.last_edit_id == 0 && state.last_touch_request == 0 &&
         state.restore_offer.what.empty() && !state.gallery_open;  // nor under the gallery, which covers the view
}

inline float sidebar_extent(const UiState& state) {
  return state.sidebar_hidden ? 0.0f : state.sidebar_width;
}
// Two scene documents the same for unsaved changes: the view section left out (moving the camera is not
// an unsaved change of the scene).
bool same_document(const Preset& a, const Preset& b);

// Brings the GUI copy in step with a new snapshot: the scene parameters (once all edits are
// acknowledged), the plot history, and refusal messages.
void adopt_snapshot(UiState& state, const Snapshot& snapshot);
// Sends the values the panels changed (changed_paths, each with its value in `edited`) as one edit; it applies on
// the next step.
void send_parameters(UiState& state, const CommandSink& send);
// Parses a preset file in the GUI thread: a clear message on a bad file, the scene kept.
void load_preset(UiState& state, const std::string& path, const CommandSink& send);
// The same in two halves, so that the window can ask about a big scene in between: the file read (nothing on a bad
// file, the message in the notice), then the scene sent.
std::optional<Preset> read_scene_file(UiState& state, const std::string& path);
void send_scene(UiState& state, Preset preset, const std::string& path, const CommandSink& send);
// Sphere-frames a second the view draws when nothing was measured (20 000 spheres at 15 frames/s with Mesa's software
// renderer on the 2-core development machine: docs/performance.md, "Desktop app").
inline constexpr double kSphereFramesPerSecond = 3e5;
// Before loading a scene the view would draw at under 5 frames/s (estimated from the frames/s measured now with
// `particles_now` spheres, else kSphereFramesPerSecond): what to tell the user; nothing for a smaller scene.
std::optional<std::string> big_scene_warning(const Preset& preset, double frames_per_second_now, size_t particles_now);
// Atomic save of the scene document (the running protocol with the edits made so far); on success
// the document is the saved one (no unsaved changes).
void save_preset(UiState& state, const std::string& path);
// Exports the current frame to `path` in the format of its extension (engine/output/export_frames.hpp):
// asks the simulation thread for the frame (the GUI never reads its state); adopt_snapshot
// writes the file, atomically, when the frame arrives. An unknown extension is refused at once.
void request_export(UiState& state, const std::string& path, const CommandSink& send);
// Writes a pending export whose frame `snapshot` carries; the result (or why it failed) goes to
// the notice. Called by adopt_snapshot.
void finish_export(UiState& state, const Snapshot& snapshot);
// Lists the presets of `directory` with their descriptions, gallery groups, titles, lines and thumbnails.
void scan_presets(UiState& state, const std::string& directory);
// Where the thumbnails of the presets in `presets_directory` are (share/lodestone/thumbnails installed,
// assets/thumbnails in the source tree), or "" when there are none.
std::string thumbnail_directory(const std::string& presets_directory);

}  // namespace lodestone::ui
