#pragma once
// Orbit camera (z up): drag to rotate, wheel to zoom, pan in the view plane, focus on a point,
// reset to frame the box. GLM, float: it only feeds the GPU and the picking ray.

#include <glm/glm.hpp>

#include <algorithm>
#include <vector>

namespace lodestone::render {

struct Ray {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, 0.0f, -1.0f};  // unit
};

class OrbitCamera {
 public:
  static constexpr float kDefaultYaw = -70.0f;   // [deg] seen from -y, a little from +x
  static constexpr float kDefaultPitch = 22.0f;  // [deg] above the horizon
  static constexpr float kFieldOfView = 35.0f;   // [deg] vertical

  // Looks at the centre of the box from the default direction, far enough to see all of it.
  void frame_box(const glm::vec3& lo, const glm::vec3& hi);
  // The size of the whole scene (the box diagonal), which sets the near and far planes and the zoom limits.
  void set_scene_extent(float diagonal) { scene_size_ = std::max(diagonal, 1e-12f); }
  // Looks at the centre of a bounding box (the particles') from the current direction, as close as shows
  // all of it in the free part of the view (right of the inset).
  void fit(const glm::vec3& lo, const glm::vec3& hi);
  // The distance at which a sphere of this radius just fits the free part of the view.
  float fitting_distance(float radius) const;
  // Looks at the centre of the spheres' bounding box (centre xyz, radius w) from the current direction, as
  // close as shows every sphere whole in the free part of the view, with `margin` to spare (1.05: 5 %).
  // Returns false (and changes nothing) when there are none.
  bool fit_spheres(const std::vector<glm::vec4>& spheres, float margin = 1.05f);
  // The distance fit_spheres would choose for this target, without moving.
  float distance_to_show(const std::vector<glm::vec4>& spheres, const glm::vec3& target, float margin) const;
  void set_angles(float yaw_degrees, float pitch_degrees);
  void set_viewport(int width, int height);
  // Pixels on the left covered by a panel: the view is centred on (and framed to) the rest.
  void set_left_inset(float pixels) { inset_ = pixels; }
  float left_inset() const { return inset_; }
  // Pixels at the right the view does not show the scene in (the open Plots window): framing fits the particles in
  // what is left between the insets and centres them there.
  void set_right_inset(float pixels) { right_inset_ = pixels; }

  void rotate(float dx_pixels, float dy_pixels);  // a drag across the view turns by 180 degrees
  void zoom(float wheel_steps);                   // one step = 15 % closer
  // Zooms toward the point under the pixel (x, y) (origin top-left, logical pixels): the point of the
  // plane through the target facing the camera that lies under the cursor stays under it.
  void zoom_toward(float wheel_steps, float x, float y);
  void set_distance(float distance) { distance_ = distance; }
  void pan(float dx_pixels, float dy_pixels);  // the point under the cursor follows it
  void focus(const glm::vec3& point) { target_ = point; }

  glm::mat4 view() const;
  glm::mat4 projection() const;
  glm::vec3 eye() const;
  const glm::vec3& target() const { return target_; }
  float distance() const { return distance_; }
  float yaw() const { return yaw_; }
  float pitch() const { return pitch_; }
  int width() const { return width_; }
  int height() const { return height_; }

  // The ray through a pixel (origin top-left, logical pixels).
  Ray ray_through(float x, float y) const;
  // Pixel position of a world point (origin top-left); z in [0, 1] is depth, < 0 or > 1 clipped.
  glm::vec3 project(const glm::vec3& world) const;

 private:
  glm::vec3 target_{0.0f};
  float distance_ = 1.0f;
  float yaw_ = kDefaultYaw;
  float pitch_ = kDefaultPitch;
  float scene_size_ = 1.0f;  // box diagonal, for near/far planes
  int width_ = 1, height_ = 1;
  float inset_ = 0.0f;
  float right_inset_ = 0.0f;
  float free_width() const;  // between the insets, at least a quarter of the view
};

}  // namespace lodestone::render
