#include "render/camera.hpp"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace lodestone::render {

void OrbitCamera::frame_box(const glm::vec3& lo, const glm::vec3& hi) {
  set_scene_extent(glm::length(hi - lo));
  yaw_ = kDefaultYaw;
  pitch_ = kDefaultPitch;
  fit(lo, hi);
}

float OrbitCamera::free_width() const {
  const float w = static_cast<float>(width_);
  return std::max(w - inset_ - right_inset_, 0.25f * w);
}

float OrbitCamera::fitting_distance(float radius) const {
  // The bounding sphere fits the vertical field of view (and the horizontal one when narrower).
  const float half_fov = glm::radians(0.5f * kFieldOfView);
  const float aspect = free_width() / static_cast<float>(std::max(height_, 1));
  const float half_fov_x = std::atan(std::tan(half_fov) * aspect);
  return 1.05f * radius / std::sin(std::min(half_fov, half_fov_x));
}

void OrbitCamera::fit(const glm::vec3& lo, const glm::vec3& hi) {
  target_ = 0.5f * (lo + hi);
  distance_ = fitting_distance(std::max(0.5f * glm::length(hi - lo), 1e-12f));
}

float OrbitCamera::distance_to_show(const std::vector<glm::vec4>& spheres, const glm::vec3& target,
                                    float margin) const {
  // In the camera's frame: a sphere at (x, y) across the view and z toward the eye, radius r, lies inside the
  // vertical field of view from distance d when |y| + r / cos(half angle) <= (d - z) tan(half angle), and
  // likewise across with the free part's aspect.
  const float tan_y = std::tan(glm::radians(0.5f * kFieldOfView));
  const float tan_x = tan_y * free_width() / static_cast<float>(std::max(height_, 1));
  const float grow_y = std::sqrt(1.0f + tan_y * tan_y), grow_x = std::sqrt(1.0f + tan_x * tan_x);
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]), back(v[0][2], v[1][2], v[2][2]);
  float needed = 0.0f;
  for (const glm::vec4& sphere : spheres) {
    const glm::vec3 offset = glm::vec3(sphere) - target;
    const float x = glm::dot(offset, right), y = glm::dot(offset, up), z = glm::dot(offset, back);
    needed = std::max({needed, z + (margin * std::abs(y) + margin * sphere.w * grow_y) / tan_y,
                       z + (margin * std::abs(x) + margin * sphere.w * grow_x) / tan_x, z + 2.0f * sphere.w});
  }
  return needed;
}

bool OrbitCamera::fit_spheres(const std::vector<glm::vec4>& spheres, float margin) {
  if (spheres.empty()) return false;
  glm::vec3 lo(spheres.front()), hi(spheres.front());
  for (const glm::vec4& s : spheres) {
    lo = glm::min(lo, glm::vec3(s) - s.w);
    hi = glm::max(hi, glm::vec3(s) + s.w);
  }
  target_ = 0.5f * (lo + hi);
  distance_ = std::max(distance_to_show(spheres, target_, margin), 1e-3f * scene_size_);
  // Under perspective the near end of the particles looks larger than the far end: move the target across
  // the view so that the image of the particles is centred, and fit again (a few rounds settle it).
  for (int round = 0; round < 4; ++round) {
    const glm::mat4 v = view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]), back(v[0][2], v[1][2], v[2][2]);
    float x_lo = 1e30f, x_hi = -1e30f, y_lo = 1e30f, y_hi = -1e30f;
    for (const glm::vec4& sphere : spheres) {
      const glm::vec3 offset = glm::vec3(sphere) - target_;
      const float depth = std::max(distance_ - glm::dot(offset, back), 1e-12f);
      const float x = glm::dot(offset, right) / depth, y = glm::dot(offset, up) / depth, r = sphere.w / depth;
      x_lo = std::min(x_lo, x - r);
      x_hi = std::max(x_hi, x + r);
      y_lo = std::min(y_lo, y - r);
      y_hi = std::max(y_hi, y + r);
    }
    // Centres of the image in tangent units, turned into a shift of the target at its depth.
    target_ += distance_ * (0.5f * (x_lo + x_hi) * right + 0.5f * (y_lo + y_hi) * up);
    distance_ = std::max(distance_to_show(spheres, target_, margin), 1e-3f * scene_size_);
  }
  return true;
}

void OrbitCamera::set_angles(float yaw_degrees, float pitch_degrees) {
  yaw_ = yaw_degrees;
  pitch_ = std::clamp(pitch_degrees, -89.0f, 89.0f);
}

void OrbitCamera::set_viewport(int width, int height) {
  width_ = std::max(width, 1);
  height_ = std::max(height, 1);
}

void OrbitCamera::rotate(float dx, float dy) {
  yaw_ -= 180.0f * dx / static_cast<float>(width_);
  pitch_ = std::clamp(pitch_ + 180.0f * dy / static_cast<float>(height_), -89.0f, 89.0f);
}

void OrbitCamera::zoom(float steps) {
  distance_ *= std::pow(0.85f, steps);
  distance_ = std::clamp(distance_, 1e-3f * scene_size_, 1e3f * scene_size_);
}

void OrbitCamera::zoom_toward(float steps, float x, float y) {
  const float before = distance_;
  zoom(steps);
  const float factor = distance_ / before;
  // The cursor's point on the plane through the target that faces the camera: scaling eye and target about
  // it keeps its image where it is.
  const Ray ray = ray_through(x, y);
  const glm::vec3 forward = glm::normalize(target_ - eye());
  const float along = glm::dot(ray.direction, forward);
  if (along <= 1e-6f) return;
  // ray_through uses the new distance: its eye is target + distance * direction.
  const glm::vec3 eye_now = eye();
  const glm::vec3 old_eye = target_ + (eye_now - target_) / factor;
  const Ray old_ray{old_eye, ray.direction};
  const float t = glm::dot(target_ - old_ray.origin, forward) / along;
  const glm::vec3 point = old_ray.origin + t * old_ray.direction;
  target_ = point + factor * (target_ - point);
}

void OrbitCamera::pan(float dx, float dy) {
  // World size of one pixel at the target's depth.
  const float pixel = 2.0f * distance_ * std::tan(glm::radians(0.5f * kFieldOfView)) / static_cast<float>(height_);
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  target_ += pixel * (-dx * right + dy * up);
}

glm::vec3 OrbitCamera::eye() const {
  const float yaw = glm::radians(yaw_), pitch = glm::radians(pitch_);
  const glm::vec3 direction(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw), std::sin(pitch));
  return target_ + distance_ * direction;
}

glm::mat4 OrbitCamera::view() const {
  return glm::lookAt(eye(), target_, glm::vec3(0.0f, 0.0f, 1.0f));
}

glm::mat4 OrbitCamera::projection() const {
  const float aspect = static_cast<float>(width_) / static_cast<float>(height_);
  const float near_plane = std::max(distance_ - scene_size_, 1e-3f * distance_);
  const float far_plane = distance_ + 2.0f * scene_size_;
  // Shift the image by half the difference of the insets so its centre is the centre of the free area.
  const float w = static_cast<float>(width_);
  const float left = std::min(inset_, 0.75f * w), right = std::min(right_inset_, w - left - free_width());
  const float shift = (left - right) / w;
  const glm::mat4 offset = glm::translate(glm::mat4(1.0f), glm::vec3(shift, 0.0f, 0.0f));
  return offset * glm::perspective(glm::radians(kFieldOfView), aspect, near_plane, far_plane);
}

Ray OrbitCamera::ray_through(float x, float y) const {
  const glm::mat4 inverse = glm::inverse(projection() * view());
  const float nx = 2.0f * x / static_cast<float>(width_) - 1.0f;
  const float ny = 1.0f - 2.0f * y / static_cast<float>(height_);
  glm::vec4 near_point = inverse * glm::vec4(nx, ny, -1.0f, 1.0f);
  glm::vec4 far_point = inverse * glm::vec4(nx, ny, 1.0f, 1.0f);
  near_point /= near_point.w;
  far_point /= far_point.w;
  Ray ray;
  ray.origin = eye();
  ray.direction = glm::normalize(glm::vec3(far_point) - glm::vec3(near_point));
  return ray;
}

glm::vec3 OrbitCamera::project(const glm::vec3& world) const {
  glm::vec4 clip = projection() * view() * glm::vec4(world, 1.0f);
  clip /= clip.w;
  return {(clip.x + 1.0f) * 0.5f * static_cast<float>(width_), (1.0f - clip.y) * 0.5f * static_cast<float>(height_),
          0.5f * clip.z + 0.5f};
}

}  // namespace lodestone::render
