#pragma once
// The vertex arrays the renderer draws lines from: x y z r g b per vertex, two vertices a line (GL_LINES), and
// element i of a flat float array of 3-vectors. Shared by the scene builder and the renderer's overlays.

#include "render/color_scale.hpp"

#include <glm/glm.hpp>

#include <cstddef>
#include <vector>

namespace lodestone::render {

inline glm::vec3 xyz(const std::vector<float>& values, size_t i) {
  return {values[3 * i], values[3 * i + 1], values[3 * i + 2]};
}

inline void push_vertex(std::vector<float>& out, const glm::vec3& p, const Rgb& color) {
  out.insert(out.end(), {p.x, p.y, p.z, color[0], color[1], color[2]});
}

inline void push_line(std::vector<float>& out, const glm::vec3& a, const glm::vec3& b, const Rgb& color) {
  push_vertex(out, a, color);
  push_vertex(out, b, color);
}

}  // namespace lodestone::render
