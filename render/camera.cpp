#include "render/camera.hpp"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace lodestone::render {

void OrbitCamera::frame_box(const glm::vec3& lo, const glm::vec3& hi) {
  target_ = 0.5f * (lo + hi);
  scene_size_ = std::max(glm::length(hi - lo), 1e-12f);
  yaw_ = kDefaultYaw;
  pitch_ = kDefaultPitch;
  // The bounding sphere fits the vertical field of view (and the horizontal one when narrower).
  const float radius = 0.5f * scene_size_;
  const float half_fov = glm::radians(0.5f * kFieldOfView);
  const float free_width = std::max(static_cast<float>(width_) - inset_, 0.25f * static_cast<float>(width_));
  const float aspect = free_width / static_cast<float>(std::max(height_, 1));
  const float half_fov_x = std::atan(std::tan(half_fov) * aspect);
  distance_ = 1.05f * radius / std::sin(std::min(half_fov, half_fov_x));
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
  // Shift the image right by half the inset so its centre is the centre of the free area.
  const float shift = std::min(inset_, 0.75f * static_cast<float>(width_)) / static_cast<float>(width_);
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
