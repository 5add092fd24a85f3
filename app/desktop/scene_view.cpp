#include "app/desktop/scene_view.hpp"

#include "app/desktop/movie_overlay.hpp"
#include "app/desktop/thumbnail_textures.hpp"
#include "ui/panels.hpp"
#include "ui/preset_view.hpp"

#include <QCoreApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSaveFile>
#include <QWheelEvent>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <variant>

#ifdef __linux__
#include <unistd.h>
#endif

namespace lodestone::desktop {
namespace {

// At rest the view looks for new snapshots this often [ms] (a pending remote reply, a step, an answer to an edit).
constexpr int kSnapshotWatchMilliseconds = 8;
// After a change the view keeps drawing this long [ms]: ImGui needs a few frames to settle (hovered items, popups
// opening, layouts measured), and a user who just moved the mouse is likely to go on.
constexpr qint64 kSettleMilliseconds = 500;

// [SECTION] benchmark: CPU time of the app's threads (Linux /proc), so that the cost of a frame can be told
// apart from the share of the machine the app was given: the GUI thread (this one; it also runs llvmpipe's
// vertex work and binning), llvmpipe's rasteriser threads, and the rest (the physics).
ThreadCpu thread_cpu() {
  ThreadCpu cpu;
#ifdef __linux__
  const double tick = 1.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
  const std::string self = std::to_string(getpid());
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
    std::ifstream stat_file(task.path() / "stat");
    std::string line;
    if (!std::getline(stat_file, line)) continue;
    // pid (comm) state ... utime stime: fields 14 and 15, counted after the comm's closing parenthesis.
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    const std::string comm = line.substr(line.find('(') + 1, close - line.find('(') - 1);
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    double utime = 0.0, stime = 0.0;
    for (int k = 3; k <= 15 && rest >> field; ++k) {
      if (k == 14) utime = std::stod(field);
      if (k == 15) stime = std::stod(field);
    }
    const double seconds = (utime + stime) * tick;
    if (task.path().filename() == self)
      cpu.gui += seconds;
    else if (comm.rfind("llvmpipe", 0) == 0)
      cpu.rasteriser += seconds;
    else
      cpu.other += seconds;
  }
#endif
  return cpu;
}

}  // namespace

SceneView::SceneView(SimulationThread& simulation, ui::UiState& state, const DesktopOptions& options)
    : simulation_(simulation), state_(state), options_(options) {
  send_ = [this](Command command) { simulation_.push(std::move(command)); };
  bridge_ = std::make_unique<ui::ImGuiBridge>(this);
  // A finished frame asks for the next one while something changes; at rest, new snapshots and input wake the view.
  connect(this, &QOpenGLWindow::frameSwapped, this, [this] {
    after_frame();
    // Going to rest takes one more frame, which says so in the Run panel (no frames/s to show then).
    const bool more = wants_next_frame();
    if (more || !state_.view_resting) update();
    state_.view_resting = !more;
  });
  connect(&snapshot_watch_, &QTimer::timeout, this, &SceneView::watch_snapshots);
  snapshot_watch_.start(kSnapshotWatchMilliseconds);
  fps_clock_.start();
  since_change_.start();
}

void SceneView::wake() {
  since_change_.restart();
  if (state_.view_resting) {  // frames/s counts from here, not over the rest
    fps_clock_.restart();
    fps_frames_ = 0;
  }
  state_.view_resting = false;
  update();  // Qt merges requests: one frame however many wakes
}

bool SceneView::event(QEvent* event) {
  switch (event->type()) {
    case QEvent::Resize:
    case QEvent::Expose:
    case QEvent::FocusIn:
    case QEvent::FocusOut:
    case QEvent::Enter:
    case QEvent::Leave:
    case QEvent::Show:
    case QEvent::WindowStateChange: wake(); break;
    default:
      if (event->isInputEvent()) wake();
  }
  return QOpenGLWindow::event(event);
}

void SceneView::watch_snapshots() {
  simulation_.update_snapshot();
  if (simulation_.snapshot().sequence != drawn_sequence_) wake();
}

bool SceneView::wants_next_frame() {
  const Snapshot& s = simulation_.snapshot();
  const ImGuiIO& io = ImGui::GetIO();
  // A success notice disappears after its time (ui/status_line.cpp): one frame then, not frames until then.
  if (!state_.notice.empty() && !state_.notice_is_error && state_.notice_since != notice_wake_for_) {
    notice_wake_for_ = state_.notice_since;
    const double left = ui::kSuccessNoticeSeconds - (ImGui::GetTime() - state_.notice_since);
    QTimer::singleShot(static_cast<int>(std::max(left, 0.0) * 1000.0) + 50, this, &SceneView::wake);
  }
  return s.running || s.sequence != drawn_sequence_ || recorder_.active() || options_.frames > 0 ||
         options_.benchmark_seconds > 0.0 || state_.screenshot_requested || io.WantTextInput ||
         ImGui::IsAnyItemActive() || since_change_.elapsed() < kSettleMilliseconds;
}

SceneView::~SceneView() {
  makeCurrent();
  release_thumbnail_textures(state_);
  bridge_->shutdown_gl();
  doneCurrent();
}

void SceneView::initializeGL() {
  renderer_ready_ = renderer_.initialize(renderer_error_);
  if (!renderer_ready_) std::fprintf(stderr, "lodestone: the renderer could not start: %s\n", renderer_error_.c_str());
  if (!bridge_->initialize_gl()) std::fprintf(stderr, "lodestone: the ImGui OpenGL 3 backend could not start\n");
}

void SceneView::resizeGL(int, int) {
  camera_.set_viewport(width(), height());
  // The window's first sizes come after the first frame: a camera the user has not moved frames again.
  if (state_.camera_follows && state_.camera_request == ui::UiState::CameraRequest::None)
    state_.camera_request = ui::UiState::CameraRequest::FrameAll;
}

void SceneView::undo() {
  send_(Undo{});
}

void SceneView::redo() {
  send_(Redo{});
}

void SceneView::paintGL() {
  simulation_.update_snapshot();
  emit frame_starting();
  const Snapshot& s = simulation_.snapshot();
  drawn_sequence_ = s.sequence;
  ui::adopt_snapshot(state_, s);
  if (s.scene && s.scene_loads != state_.view_applied_load) {  // a new scene: its view, then look at it
    const bool first = state_.view_applied_load == 0;
    state_.view_applied_load = s.scene_loads;
    ui::apply_preset_view(state_, *s.scene, render::has_moments(s.particles));
    if (first && !options_.color_mode.empty()) state_.view.color_mode = *ui::color_mode_from_key(options_.color_mode);
    if (first && options_.open_plots) state_.plots_open_request = true;
  }
  handle_camera_request();
  const qreal scale = devicePixelRatio();
  const int fb_width = static_cast<int>(width() * scale), fb_height = static_cast<int>(height() * scale);
  state_.view.gizmo_left = static_cast<int>((ui::sidebar_extent(state_) + 8.0f) * scale);
  state_.view.selected = state_.selected;
  const render::VisualScene& scene = scene_builder_.update(s, state_.view);
  if (renderer_ready_) renderer_.draw(scene, camera_, fb_width, fb_height);
  state_.legend_title = scene.legend.title;
  start_or_stop_recording(fb_width, fb_height);
  // A movie paced in simulated time takes a frame (or copies of it) as the simulated time moves on.
  const int movie_copies = recorder_.active() ? ui::frames_due(movie_settings_, s.time, movie_last_time_) : 0;
  if (movie_copies > 0 && recorder_.scene_only()) {
    // The 3-D view without the panels: the part right of the side bar, where the camera centres it; the
    // title, time and legend painted on.
    const int sidebar = std::min(static_cast<int>(ui::sidebar_extent(state_) * scale), fb_width / 2);
    QImage frame = read_view(fb_width, fb_height).copy(sidebar, 0, fb_width - sidebar, fb_height);
    paint_movie_overlay(frame, movie_settings_, s, scene.legend);
    for (int k = 0; k < movie_copies; ++k) record(frame);
  }

  if (state_.gallery_open) load_thumbnail_textures(state_);  // once each, the first time the gallery shows
  bridge_->new_frame();
  ui::PanelContext context{s, state_, send_, scene, renderer_.gizmo_labels(), static_cast<float>(scale)};
  ui::draw_panels(context);
  if (!renderer_ready_) {
    ImGui::SetNextWindowPos(ImVec2(400, 40), ImGuiCond_Always);
    ImGui::Begin("renderer error");
    ImGui::TextWrapped("The OpenGL renderer could not start: %s", renderer_error_.c_str());
    ImGui::End();
  }
  bridge_->render();
  if ((recorder_.active() && !recorder_.scene_only()) || state_.screenshot_requested) {
    const QImage whole = read_view(fb_width, fb_height);
    for (int k = 0; recorder_.active() && !recorder_.scene_only() && k < movie_copies; ++k) record(whole);
    if (state_.screenshot_requested) save_screenshot(whole);
  }
  ++frames_drawn_;
  ++state_.frames_drawn;
  ++fps_frames_;
}

void SceneView::after_frame() {
  // Requests the window handles (they may open a dialog, which must not happen inside paintGL).
  if (state_.open_request)
    emit open_requested(QString::fromStdString(*std::exchange(state_.open_request, std::nullopt)));
  if (state_.unsaved != shown_unsaved_) emit unsaved_changed(shown_unsaved_ = state_.unsaved);
  const double seconds = static_cast<double>(fps_clock_.nsecsElapsed()) * 1e-9;
  if (seconds >= 0.5) {
    state_.frames_per_second = static_cast<float>(fps_frames_ / seconds);
    fps_frames_ = 0;
    fps_clock_.restart();
  }
  if (options_.frames > 0 && frames_drawn_ >= options_.frames) {
    options_.frames = 0;  // once
    bool saved = true;
    if (!options_.record.path.empty()) saved = finish_recording();
    if (!options_.screenshot_path.empty()) {
      const QImage image = grabFramebuffer();
      if (!image.save(QString::fromStdString(options_.screenshot_path), "PNG")) {
        std::fprintf(stderr, "lodestone: cannot write %s\n", options_.screenshot_path.c_str());
        saved = false;
      }
    }
    emit finished(saved ? 0 : 4);
  }
  if (options_.benchmark_seconds > 0.0) {
    // One second of warm-up (shader compilation, first uploads), then count.
    const Snapshot& s = simulation_.snapshot();
    if (benchmark_first_step_ < 0 && frames_drawn_ > 1 && !benchmark_clock_.isValid()) {
      benchmark_clock_.start();
    } else if (benchmark_clock_.isValid() && benchmark_first_step_ < 0 && benchmark_clock_.elapsed() >= 1000) {
      benchmark_first_step_ = s.step;
      benchmark_frames_ = 0;
      benchmark_cpu_ = thread_cpu();
      benchmark_clock_.restart();
    } else if (benchmark_first_step_ >= 0) {
      ++benchmark_frames_;
      const double elapsed = static_cast<double>(benchmark_clock_.nsecsElapsed()) * 1e-9;
      if (elapsed >= options_.benchmark_seconds) {
        const ThreadCpu cpu = thread_cpu();
        const double frames = static_cast<double>(std::max(benchmark_frames_, 1LL));
        const double steps = static_cast<double>(std::max<std::int64_t>(s.step - benchmark_first_step_, 1));
        // Then the CPU milliseconds per frame of the GUI thread and of llvmpipe's rasterisers, and per step of the
        // other threads (the physics), from /proc (0 elsewhere).
        std::printf(
            "particles %zu frames_per_second %.2f steps_per_second %.1f seconds %.2f gui_ms_per_frame %.1f "
            "rasteriser_ms_per_frame %.1f physics_ms_per_step %.1f\n",
            s.particles.size(), static_cast<double>(benchmark_frames_) / elapsed,
            static_cast<double>(s.step - benchmark_first_step_) / elapsed, elapsed,
            1e3 * (cpu.gui - benchmark_cpu_.gui) / frames, 1e3 * (cpu.rasteriser - benchmark_cpu_.rasteriser) / frames,
            1e3 * (cpu.other - benchmark_cpu_.other) / steps);
        std::fflush(stdout);
        options_.benchmark_seconds = 0.0;
        emit finished(0);
      }
    }
  }
}

QImage SceneView::read_view(int fb_width, int fb_height) const {
  QOpenGLFunctions* gl = QOpenGLContext::currentContext()->functions();
  QImage image(fb_width, fb_height, QImage::Format_RGBA8888);
  gl->glBindFramebuffer(GL_FRAMEBUFFER, defaultFramebufferObject());
  gl->glPixelStorei(GL_PACK_ALIGNMENT, 4);  // RGBA rows are whole words
  gl->glReadPixels(0, 0, fb_width, fb_height, GL_RGBA, GL_UNSIGNED_BYTE, image.bits());
  return image.mirrored();  // OpenGL's rows run bottom-up
}

void SceneView::start_or_stop_recording(int fb_width, int fb_height) {
  ui::RecordingState& recording = state_.recording;
  if (!options_.record.path.empty() && frames_drawn_ == 0) {  // scripted: record from the first frame
    recording.settings = options_.record;
    recording.request = ui::RecordingState::Request::Start;
  }
  const auto request = std::exchange(recording.request, ui::RecordingState::Request::None);
  if (request == ui::RecordingState::Request::Start && !recorder_.active()) {
    const qreal scale = devicePixelRatio();
    const int sidebar = recording.settings.scene_only
                            ? std::min(static_cast<int>(ui::sidebar_extent(state_) * scale), fb_width / 2)
                            : 0;
    const std::string problem = recorder_.start(recording.settings, fb_width - sidebar, fb_height);
    movie_settings_ = recording.settings;
    movie_last_time_.reset();
    recording.status = problem.empty() ? "recording to " + recording.settings.path : "not recording: " + problem;
    recording.status_is_error = !problem.empty();
    if (!problem.empty()) {
      std::fprintf(stderr, "lodestone: %s\n", recording.status.c_str());
      if (!options_.record.path.empty()) emit finished(4);
    }
  } else if (request == ui::RecordingState::Request::Stop && recorder_.active()) {
    finish_recording();
  }
  recording.active = recorder_.active();
}

void SceneView::record(const QImage& frame) {
  if (!recorder_.add(frame)) {  // it stopped: say why, keep the frames written so far
    state_.recording.status =
        "recording stopped after " + std::to_string(recorder_.frames()) + " frames: " + recorder_.error();
    state_.recording.status_is_error = true;
    std::fprintf(stderr, "lodestone: %s\n", state_.recording.status.c_str());
  }
  state_.recording.active = recorder_.active();
  state_.recording.frames = recorder_.frames();
}

bool SceneView::finish_recording() {
  bool failed = false;
  ui::RecordingState& recording = state_.recording;
  recording.status = recorder_.stop(failed);
  recording.status_is_error = failed;
  recording.active = false;
  std::fprintf(failed ? stderr : stdout, "lodestone: %s\n", recording.status.c_str());
  return !failed;
}

void SceneView::save_screenshot(const QImage& frame) {
  state_.screenshot_requested = false;
  // Atomic: a temporary file renamed over the old one, which a failure leaves intact.
  QSaveFile file(QString::fromStdString(state_.screenshot_path));
  const bool saved = file.open(QIODevice::WriteOnly) &&
                     frame.convertToFormat(QImage::Format_RGB888).save(&file, "PNG") && file.commit();
  state_.notice = saved ? "screenshot saved to " + state_.screenshot_path
                        : "screenshot not saved to " + state_.screenshot_path + ": " + file.errorString().toStdString();
  state_.notice_is_error = !saved;
}

// [SECTION] Hands on (issue 22): Ctrl+drag pulls a particle with the drag spring toward the cursor, in the plane
// through the particle facing the camera; with the add tool on, a click adds where it meets the tool's
// horizontal plane. Commands only: the simulation thread applies and records them.

std::optional<Vec3> SceneView::touch_point(const QPointF& at, const glm::vec3& plane_point,
                                           const glm::vec3& plane_normal) const {
  const render::Ray ray = camera_.ray_through(static_cast<float>(at.x()), static_cast<float>(at.y()));
  const float facing = glm::dot(ray.direction, plane_normal);
  if (std::abs(facing) < 1e-6f) return std::nullopt;
  const float t = glm::dot(plane_point - ray.origin, plane_normal) / facing;
  if (t <= 0.0f) return std::nullopt;
  const glm::vec3 x = ray.origin + t * ray.direction;
  return Vec3(x.x, x.y, x.z);
}

bool SceneView::start_grab(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !(event->modifiers() & Qt::ControlModifier)) return false;
  const Snapshot& s = simulation_.snapshot();
  const render::Ray ray =
      camera_.ray_through(static_cast<float>(event->position().x()), static_cast<float>(event->position().y()));
  const auto hit = render::pick_particle(s, ray);
  if (!hit) return false;
  const auto i = static_cast<size_t>(s.particles.index_of(*hit));
  grab_ = *hit;
  grab_point_ =
      glm::vec3(s.particles.position[3 * i], s.particles.position[3 * i + 1], s.particles.position[3 * i + 2]);
  grab_normal_ = glm::normalize(camera_.eye() - grab_point_);
  state_.selected = hit;
  return true;
}

void SceneView::mousePressEvent(QMouseEvent* event) {
  bridge_->mouse_press(event);
  if (bridge_->wants_pointer()) return;
  if (start_grab(event)) return;
  dragging_ = event->button();
  press_position_ = last_position_ = event->position().toPoint();
  moved_ = false;
}

void SceneView::mouseMoveEvent(QMouseEvent* event) {
  bridge_->mouse_move(event);
  if (grab_) {
    if (const std::optional<Vec3> target = touch_point(event->position(), grab_point_, grab_normal_))
      send_(DragParticle{0, *grab_, *target, static_cast<double>(state_.touch.drag_stiffness)});
    return;
  }
  if (dragging_ == Qt::NoButton) return;
  const QPoint position = event->position().toPoint();
  const QPoint delta = position - last_position_;
  last_position_ = position;
  if ((position - press_position_).manhattanLength() > 3) moved_ = true;
  const bool pan = dragging_ == Qt::RightButton || dragging_ == Qt::MiddleButton ||
                   (dragging_ == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
  if (pan) {
    camera_.pan(static_cast<float>(delta.x()), static_cast<float>(delta.y()));
    state_.camera_follows = false;  // the user holds the camera now (F gives it back)
  } else if (dragging_ == Qt::LeftButton)
    camera_.rotate(static_cast<float>(delta.x()), static_cast<float>(delta.y()));
}

void SceneView::mouseReleaseEvent(QMouseEvent* event) {
  bridge_->mouse_release(event);
  if (grab_) {
    if (event->button() == Qt::LeftButton) {
      send_(ReleaseDrag{});
      grab_.reset();
    }
    return;
  }
  // The add tool: add where the click lands (not on the side bar: a quick click there can come before ImGui
  // has seen the cursor over it).
  if (dragging_ == Qt::LeftButton && !moved_ && state_.touch.placing && event->position().x() > ui::kSidebarWidth) {
    const glm::vec3 up(0.0f, 0.0f, 1.0f), on_plane(0.0f, 0.0f, static_cast<float>(state_.touch.plane_height));
    if (const std::optional<Vec3> point = touch_point(event->position(), on_plane, up)) {
      if (std::optional<Command> add = ui::add_command(state_, *point)) {
        std::visit(
            [this](auto& c) {
              if constexpr (requires { c.request; }) c.request = ui::next_touch_request(state_);
            },
            *add);
        send_(std::move(*add));
      }
    }
  } else if (dragging_ == Qt::LeftButton && !moved_) {  // a click: select the sphere under the cursor
    const render::Ray ray =
        camera_.ray_through(static_cast<float>(event->position().x()), static_cast<float>(event->position().y()));
    state_.selected = render::pick_particle(simulation_.snapshot(), ray);
  }
  dragging_ = Qt::NoButton;
}

void SceneView::mouseDoubleClickEvent(QMouseEvent* event) {
  bridge_->mouse_press(event);
  if (bridge_->wants_pointer() || event->button() != Qt::LeftButton) return;
  const Snapshot& s = simulation_.snapshot();
  const render::Ray ray =
      camera_.ray_through(static_cast<float>(event->position().x()), static_cast<float>(event->position().y()));
  const auto hit = render::pick_particle(s, ray);
  if (!hit) return;
  const long i = s.particles.index_of(*hit);
  const auto k = static_cast<size_t>(i);
  camera_.focus(
      glm::vec3(s.particles.position[3 * k], s.particles.position[3 * k + 1], s.particles.position[3 * k + 2]));
  state_.camera_follows = false;
  state_.selected = hit;
}

void SceneView::keyPressEvent(QKeyEvent* event) {
  bridge_->key_press(event);
  if (bridge_->wants_keyboard()) return;
  if (event->key() == Qt::Key_Escape && state_.gallery_open) {
    state_.gallery_open = false;  // closes the scene gallery, and only that: the selection and a step stay
    return;
  }
  const bool control = event->modifiers() & Qt::ControlModifier;
  const bool shift = event->modifiers() & Qt::ShiftModifier;
  if (control && (event->key() == Qt::Key_Z || event->key() == Qt::Key_Y)) {
    // Ctrl+Z undo, Ctrl+Shift+Z (or Ctrl+Y) redo; a text field being typed in keeps its own undo.
    if (event->key() == Qt::Key_Z && !shift)
      undo();
    else
      redo();
    return;
  }
  switch (event->key()) {
    case Qt::Key_R: reset_camera(); break;
    case Qt::Key_F:  // frame all; with Shift the selection (its cluster)
      state_.camera_request = (event->modifiers() & Qt::ShiftModifier) ? ui::UiState::CameraRequest::FrameSelection
                                                                       : ui::UiState::CameraRequest::FrameAll;
      break;
    case Qt::Key_Tab: state_.sidebar_hidden = !state_.sidebar_hidden; break;
    case Qt::Key_F1: state_.help_open = !state_.help_open; break;
    case Qt::Key_Space: {  // runs, or pauses a run or a step under way (the Steps button's)
      const Snapshot& s = simulation_.snapshot();
      send_(SetRunning{!s.running && !s.stepping});
      break;
    }
    case Qt::Key_Escape:  // lets go of the selection and the add tool, and stops a step under way
      state_.selected.reset();
      state_.touch.placing = false;
      if (simulation_.snapshot().stepping) send_(SetRunning{false});
      break;
    case Qt::Key_Delete:  // removes the selected particle (or its magnet); the answer comes as the notice
      if (state_.selected) {
        send_(DeleteBody{ui::next_touch_request(state_), *state_.selected});
      } else {
        state_.notice = "nothing selected to delete: click a particle first, then press Delete";
        state_.notice_is_error = false;
      }
      break;
    default: QOpenGLWindow::keyPressEvent(event);
  }
}

void SceneView::press_key(int key) {
  QKeyEvent press(QEvent::KeyPress, key, Qt::NoModifier), release(QEvent::KeyRelease, key, Qt::NoModifier);
  QCoreApplication::sendEvent(this, &press);
  QCoreApplication::sendEvent(this, &release);
  wake();
}

void SceneView::keyReleaseEvent(QKeyEvent* event) {
  bridge_->key_release(event);
}

}  // namespace lodestone::desktop
