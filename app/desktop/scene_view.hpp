#pragma once
// The central OpenGL view (a QOpenGLWindow inside a window container: it draws straight into its
// own surface, where a QOpenGLWidget would be composed with the rest of the window every frame,
// which costs a third of the frame on a software renderer): draws the newest snapshot and the ImGui panels on top,
// turns mouse and keys into camera moves, selection and commands. Draws while something changes (a run, a new
// snapshot, input, a recording) and rests otherwise, so that a paused scene costs nothing and a remote command is
// answered at once instead of after the frame being drawn; the simulation runs on its own thread and never waits for
// a frame.

#include "app/desktop/desktop_options.hpp"
#include "app/desktop/frame_recorder.hpp"
#include "engine/live/simulation_thread.hpp"
#include "render/camera.hpp"
#include "render/scene_builder.hpp"
#include "render/scene_renderer.hpp"
#include "ui/imgui_bridge.hpp"
#include "ui/ui_state.hpp"

#include <QElapsedTimer>
#include <QOpenGLWindow>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <optional>

namespace lodestone::desktop {

// CPU seconds used so far by the app's threads (--benchmark).
struct ThreadCpu {
  double gui = 0.0, rasteriser = 0.0, other = 0.0;
};

class SceneView : public QOpenGLWindow {
  Q_OBJECT

 public:
  SceneView(SimulationThread& simulation, ui::UiState& state, const DesktopOptions& options);
  ~SceneView() override;

  void reset_camera();
  // The last edit undone / redone (the answer shows in the notice; Edit menu, Ctrl+Z, Ctrl+Shift+Z).
  void undo();
  void redo();
  const ui::CommandSink& sink() const { return send_; }
  // Something the view shows may have changed (a menu's action, a remote command): draw, and keep drawing for a
  // moment while ImGui settles.
  void wake();
  // A press and release of `key` (a Qt::Key) as the keyboard sends them (the remote `key` verb).
  void press_key(int key);

 signals:
  void finished(int exit_code);              // scripted runs: screenshot saved or benchmark done
  void open_requested(const QString& path);  // the Presets panel's Load (the window confirms first)
  void unsaved_changed(bool unsaved);
  void frame_starting();  // before a frame is drawn, its snapshot fetched (RemoteControl::poll answers first)

 protected:
  void initializeGL() override;
  void paintGL() override;
  void resizeGL(int width, int height) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void keyReleaseEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;  // input, resizes and focus wake the view

 private:
  void after_frame();
  // [SECTION] resting: whether the frame just drawn needs another (a run, a recording, a scripted run, a text
  // field being typed in, a change under a moment ago), and the check for new snapshots while resting.
  bool wants_next_frame();
  void watch_snapshots();
  // [SECTION] camera (scene_view_camera.cpp)
  // Frames the particles from the scene's view direction (or --camera), in the free part of the view.
  void frame_box();
  // Half an arrow's length in radii when moment arrows are drawn, else 0: what framing leaves room for.
  float arrow_reach() const;
  void update_camera_inset();  // the side bar's width now
  // Carries out UiState::camera_request (a load, F, Shift+F) and, while following, keeps the particles in view.
  void handle_camera_request();
  // Movies and screenshots: the view's pixels as the user sees them (the default framebuffer).
  QImage read_view(int fb_width, int fb_height) const;
  void start_or_stop_recording(int fb_width, int fb_height);
  void record(const QImage& frame);
  void save_screenshot(const QImage& frame);
  // Ends a recording; the summary goes to the notice (and stdout in scripted runs). False if it failed.
  bool finish_recording();

  SimulationThread& simulation_;
  ui::UiState& state_;
  DesktopOptions options_;
  ui::CommandSink send_;
  std::unique_ptr<ui::ImGuiBridge> bridge_;
  render::SceneBuilder scene_builder_;  // the snapshot as the renderer draws it
  render::SceneRenderer renderer_;
  render::OrbitCamera camera_;
  bool renderer_ready_ = false;
  std::string renderer_error_;
  FrameRecorder recorder_;
  ui::RecordSettings movie_settings_;      // of the recording running (title, overlay, pace in simulated time)
  std::optional<double> movie_last_time_;  // simulated time of the last frame taken [s]
  bool shown_unsaved_ = false;
  QTimer snapshot_watch_;             // while resting: a new snapshot wakes the view
  QElapsedTimer since_change_;        // since the last wake()
  std::uint64_t drawn_sequence_ = 0;  // Snapshot::sequence of the last frame drawn
  float framed_plots_extent_ = 0.0f;  // the Plots window's strip the camera last framed around
  double notice_wake_for_ = -1.0;     // the success notice a wake is set for (ui/status_line.cpp hides it)
  // Mouse gestures
  QPoint press_position_, last_position_;
  Qt::MouseButton dragging_ = Qt::NoButton;
  bool moved_ = false;
  // Hands on: the particle being pulled (Ctrl+drag) and the plane the cursor moves its target in.
  std::optional<std::uint64_t> grab_;
  glm::vec3 grab_point_{0.0f}, grab_normal_{0.0f, 0.0f, 1.0f};
  bool start_grab(QMouseEvent* event);
  // Where the cursor's ray meets a plane, or nothing (parallel, or behind the camera).
  std::optional<Vec3> touch_point(const QPointF& at, const glm::vec3& plane_point, const glm::vec3& plane_normal) const;
  // Frame rate
  QElapsedTimer fps_clock_;
  int fps_frames_ = 0;
  long long frames_drawn_ = 0;
  // Benchmark
  QElapsedTimer benchmark_clock_;
  long long benchmark_frames_ = 0;
  std::int64_t benchmark_first_step_ = -1;
  ThreadCpu benchmark_cpu_;
};

}  // namespace lodestone::desktop
