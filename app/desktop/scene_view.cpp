#include "app/desktop/scene_view.hpp"

#include "ui/panels.hpp"

#include <imgui.h>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cstdio>

namespace lodestone::desktop {
namespace {

render::ColorMode color_mode_from_name(const std::string& name) {
  if (name == "moment") return render::ColorMode::MomentAlignment;
  if (name == "speed") return render::ColorMode::Speed;
  if (name == "contacts") return render::ColorMode::Contacts;
  if (name == "cluster") return render::ColorMode::Cluster;
  return render::ColorMode::FieldAlignment;
}

glm::vec3 to_glm(const Vec3& v) { return {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())}; }

}  // namespace

SceneView::SceneView(SimulationThread& simulation, ui::UiState& state, const DesktopOptions& options)
    : simulation_(simulation), state_(state), options_(options) {
  send_ = [this](Command command) { simulation_.push(std::move(command)); };
  bridge_ = std::make_unique<ui::ImGuiBridge>(this);
  if (!options.color_mode.empty()) state_.view.color_mode = color_mode_from_name(options.color_mode);
  // Continuous rendering: every finished frame asks for the next one.
  connect(this, &QOpenGLWindow::frameSwapped, this, [this] {
    after_frame();
    update();
  });
  fps_clock_.start();
}

SceneView::~SceneView() {
  makeCurrent();
  bridge_->shutdown_gl();
  doneCurrent();
}

void SceneView::initializeGL() {
  renderer_ready_ = renderer_.initialize(renderer_error_);
  if (!renderer_ready_) std::fprintf(stderr, "lodestone: the renderer could not start: %s\n", renderer_error_.c_str());
  if (!bridge_->initialize_gl()) std::fprintf(stderr, "lodestone: the ImGui OpenGL 3 backend could not start\n");
}

void SceneView::resizeGL(int, int) { camera_.set_viewport(width(), height()); }

void SceneView::frame_box() {
  const Snapshot& s = simulation_.snapshot();
  if (!s.scene) return;
  camera_.set_viewport(width(), height());
  camera_.set_left_inset(ui::kSidebarWidth);
  camera_.frame_box(to_glm(s.scene->box.min), to_glm(s.scene->box.max));
  if (options_.yaw && options_.pitch) camera_.set_angles(*options_.yaw, *options_.pitch);
}

void SceneView::reset_camera() { frame_box(); }

void SceneView::paintGL() {
  simulation_.update_snapshot();
  const Snapshot& s = simulation_.snapshot();
  ui::adopt_snapshot(state_, s);
  if (s.scene_source != framed_source_) {  // a new scene: look at it
    framed_source_ = s.scene_source;
    frame_box();
  }
  camera_.set_viewport(width(), height());
  const qreal scale = devicePixelRatio();
  const int fb_width = static_cast<int>(width() * scale), fb_height = static_cast<int>(height() * scale);
  state_.view.gizmo_left = static_cast<int>((ui::kSidebarWidth + 8.0f) * scale);
  state_.view.selected = state_.selected;
  if (renderer_ready_) renderer_.draw(s, camera_, state_.view, fb_width, fb_height);

  bridge_->new_frame();
  ui::PanelContext context{s, state_, send_, renderer_, static_cast<float>(scale), options_.open_plots};
  ui::draw_panels(context);
  if (!renderer_ready_) {
    ImGui::SetNextWindowPos(ImVec2(400, 40), ImGuiCond_Always);
    ImGui::Begin("renderer error");
    ImGui::TextWrapped("The OpenGL renderer could not start: %s", renderer_error_.c_str());
    ImGui::End();
  }
  bridge_->render();
  ++frames_drawn_;
  ++fps_frames_;
}

void SceneView::after_frame() {
  const double seconds = static_cast<double>(fps_clock_.nsecsElapsed()) * 1e-9;
  if (seconds >= 0.5) {
    state_.frames_per_second = static_cast<float>(fps_frames_ / seconds);
    fps_frames_ = 0;
    fps_clock_.restart();
  }
  if (options_.frames > 0 && frames_drawn_ >= options_.frames) {
    options_.frames = 0;  // once
    const QImage image = grabFramebuffer();
    const bool saved = image.save(QString::fromStdString(options_.screenshot_path), "PNG");
    if (!saved) std::fprintf(stderr, "lodestone: cannot write %s\n", options_.screenshot_path.c_str());
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
      benchmark_clock_.restart();
    } else if (benchmark_first_step_ >= 0) {
      ++benchmark_frames_;
      const double elapsed = static_cast<double>(benchmark_clock_.nsecsElapsed()) * 1e-9;
      if (elapsed >= options_.benchmark_seconds) {
        std::printf("particles %zu frames_per_second %.2f steps_per_second %.1f seconds %.2f\n", s.particles.size(),
                    static_cast<double>(benchmark_frames_) / elapsed,
                    static_cast<double>(s.step - benchmark_first_step_) / elapsed, elapsed);
        std::fflush(stdout);
        options_.benchmark_seconds = 0.0;
        emit finished(0);
      }
    }
  }
}

void SceneView::mousePressEvent(QMouseEvent* event) {
  bridge_->mouse_press(event);
  if (bridge_->wants_mouse()) return;
  dragging_ = event->button();
  press_position_ = last_position_ = event->position().toPoint();
  moved_ = false;
}

void SceneView::mouseMoveEvent(QMouseEvent* event) {
  bridge_->mouse_move(event);
  if (dragging_ == Qt::NoButton) return;
  const QPoint position = event->position().toPoint();
  const QPoint delta = position - last_position_;
  last_position_ = position;
  if ((position - press_position_).manhattanLength() > 3) moved_ = true;
  const bool pan = dragging_ == Qt::RightButton || dragging_ == Qt::MiddleButton ||
                   (dragging_ == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
  if (pan)
    camera_.pan(static_cast<float>(delta.x()), static_cast<float>(delta.y()));
  else if (dragging_ == Qt::LeftButton)
    camera_.rotate(static_cast<float>(delta.x()), static_cast<float>(delta.y()));
}

void SceneView::mouseReleaseEvent(QMouseEvent* event) {
  bridge_->mouse_release(event);
  if (dragging_ == Qt::LeftButton && !moved_) {  // a click: select the sphere under the cursor
    const render::Ray ray = camera_.ray_through(static_cast<float>(event->position().x()), static_cast<float>(event->position().y()));
    state_.selected = render::pick_particle(simulation_.snapshot(), ray);
  }
  dragging_ = Qt::NoButton;
}

void SceneView::mouseDoubleClickEvent(QMouseEvent* event) {
  bridge_->mouse_press(event);
  if (bridge_->wants_mouse() || event->button() != Qt::LeftButton) return;
  const Snapshot& s = simulation_.snapshot();
  const render::Ray ray = camera_.ray_through(static_cast<float>(event->position().x()), static_cast<float>(event->position().y()));
  const auto hit = render::pick_particle(s, ray);
  if (!hit) return;
  const long i = s.particles.index_of(*hit);
  const auto k = static_cast<size_t>(i);
  camera_.focus(glm::vec3(s.particles.position[3 * k], s.particles.position[3 * k + 1], s.particles.position[3 * k + 2]));
  state_.selected = hit;
}

void SceneView::wheelEvent(QWheelEvent* event) {
  bridge_->wheel(event);
  if (!bridge_->wants_mouse()) camera_.zoom(static_cast<float>(event->angleDelta().y()) / 120.0f);
}

void SceneView::keyPressEvent(QKeyEvent* event) {
  bridge_->key_press(event);
  if (bridge_->wants_keyboard()) return;
  switch (event->key()) {
    case Qt::Key_R: reset_camera(); break;
    case Qt::Key_Space: send_(SetRunning{!simulation_.snapshot().running}); break;
    case Qt::Key_Escape: state_.selected.reset(); break;
    default: QOpenGLWindow::keyPressEvent(event);
  }
}

void SceneView::keyReleaseEvent(QKeyEvent* event) { bridge_->key_release(event); }

}  // namespace lodestone::desktop
