// SceneView's camera: framing the particles (not the box) in the part of the window the side bar leaves
// free when a scene loads, F (frame all) and Shift+F (frame the selection), following the particles until
// the user moves the camera, and the wheel zooming toward the cursor.

#include "app/desktop/scene_view.hpp"
#include "ui/preset_view.hpp"

#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <utility>

namespace lodestone::desktop {
namespace {

// The particles as spheres (centre, radius); with a label, only the members of that cluster (or the one
// particle when it is alone). With `arrow_length` > 0 (moment arrows shown, half length in radii) each
// moment's arrow tips too, as small spheres the size of the cone head, so that no arrow sticks out of the view.
std::vector<glm::vec4> particle_spheres(const ParticleSnapshot& p, std::optional<std::uint64_t> only_id = {},
                                        float arrow_length = 0.0f) {
  std::vector<glm::vec4> spheres;
  long only = -1;
  if (only_id) only = p.index_of(*only_id);
  if (only_id && only < 0) return spheres;
  const bool clusters = p.cluster.size() == p.size() && p.cluster_size.size() == p.size();
  for (size_t i = 0; i < p.size(); ++i) {
    if (only >= 0) {
      const auto k = static_cast<size_t>(only);
      const bool member = i == k || (clusters && p.cluster_size[k] > 1 && p.cluster[i] == p.cluster[k]);
      if (!member) continue;
    }
    const glm::vec3 centre(p.position[3 * i], p.position[3 * i + 1], p.position[3 * i + 2]);
    spheres.emplace_back(centre, p.radius[i]);
    if (arrow_length > 1.0f && p.moment.size() == 3 * p.size()) {
      const glm::vec3 m(p.moment[3 * i], p.moment[3 * i + 1], p.moment[3 * i + 2]);
      if (glm::dot(m, m) > 0.0f) {
        const glm::vec3 reach = arrow_length * p.radius[i] * glm::normalize(m);
        spheres.emplace_back(centre + reach, 0.3f * p.radius[i]);
        spheres.emplace_back(centre - reach, 0.3f * p.radius[i]);
      }
    }
  }
  return spheres;
}

}  // namespace

float SceneView::arrow_reach() const {
  return state_.view.show_moments ? state_.view.arrow_length : 0.0f;
}

void SceneView::update_camera_inset() {
  camera_.set_viewport(width(), height());
  camera_.set_left_inset(ui::sidebar_extent(state_));
  camera_.set_right_inset(state_.plots_right_extent);
}

void SceneView::frame_box() {
  const Snapshot& s = simulation_.snapshot();
  if (!s.scene) return;
  update_camera_inset();
  camera_.set_scene_extent(static_cast<float>((s.scene->box.max - s.scene->box.min).norm()));
  const float yaw = options_.yaw ? *options_.yaw : state_.camera_yaw_degrees;
  const float pitch = options_.pitch ? *options_.pitch : state_.camera_pitch_degrees;
  camera_.set_angles(yaw, pitch);
  const bool particles = !options_.frame_box && camera_.fit_spheres(particle_spheres(s.particles, {}, arrow_reach()));
  if (!particles)
    camera_.fit(glm::vec3(s.scene->box.min.x(), s.scene->box.min.y(), s.scene->box.min.z()),
                glm::vec3(s.scene->box.max.x(), s.scene->box.max.y(), s.scene->box.max.z()));
  state_.camera_follows = particles;
}

void SceneView::reset_camera() {
  // Back to the scene's own direction (its view.camera_yaw and camera_pitch), not the one the user turned to:
  // camera_yaw_degrees follows the camera (what a save writes).
  if (const Snapshot& s = simulation_.snapshot(); s.scene) {
    state_.camera_yaw_degrees = static_cast<float>(s.scene->view.camera_yaw * 180.0 / pi);
    state_.camera_pitch_degrees = static_cast<float>(s.scene->view.camera_pitch * 180.0 / pi);
  }
  frame_box();
}

void SceneView::handle_camera_request() {
  const Snapshot& s = simulation_.snapshot();
  using Request = ui::UiState::CameraRequest;
  // The Plots window opened or closed at the right edge: a camera the user has not moved frames the new free area.
  if (std::abs(state_.plots_right_extent - framed_plots_extent_) > 1.0f) {
    framed_plots_extent_ = state_.plots_right_extent;
    if (state_.camera_follows && state_.camera_request == Request::None) state_.camera_request = Request::FrameAll;
  }
  const Request request = std::exchange(state_.camera_request, Request::None);
  update_camera_inset();
  if (request == Request::Load) {
    frame_box();
  } else if (request == Request::FrameAll) {
    state_.camera_follows = camera_.fit_spheres(particle_spheres(s.particles, {}, arrow_reach()));
  } else if (request == Request::FrameSelection && state_.selected) {
    // The selected particle's cluster, or the particle with room around it.
    std::vector<glm::vec4> spheres = particle_spheres(s.particles, state_.selected);
    if (spheres.size() == 1) spheres.front().w *= 4.0f;
    if (camera_.fit_spheres(spheres)) state_.camera_follows = false;
  }
  // Following: the camera glides toward the framing of all particles (a tenth of the way each frame), so
  // that falling or spreading particles stay in view, until the user pans or zooms.
  if (request == Request::None && state_.camera_follows && s.running) {
    const std::vector<glm::vec4> spheres = particle_spheres(s.particles, {}, arrow_reach());
    if (!spheres.empty()) {
      glm::vec3 lo(spheres.front()), hi(spheres.front());
      for (const glm::vec4& p : spheres) {
        lo = glm::min(lo, glm::vec3(p) - p.w);
        hi = glm::max(hi, glm::vec3(p) + p.w);
      }
      const glm::vec3 target = camera_.target() + 0.1f * (0.5f * (lo + hi) - camera_.target());
      const float wanted = camera_.distance_to_show(spheres, target, 1.05f);
      camera_.focus(target);
      camera_.set_distance(camera_.distance() + 0.1f * (std::max(wanted, 1e-9f) - camera_.distance()));
    }
  }
  state_.camera_yaw_degrees = camera_.yaw();
  state_.camera_pitch_degrees = camera_.pitch();
}

void SceneView::wheelEvent(QWheelEvent* event) {
  bridge_->wheel(event);
  if (bridge_->wants_pointer()) return;
  update_camera_inset();
  camera_.zoom_toward(static_cast<float>(event->angleDelta().y()) / 120.0f, static_cast<float>(event->position().x()),
                      static_cast<float>(event->position().y()));
  state_.camera_follows = false;
}

}  // namespace lodestone::desktop
