#pragma once
// What the renderer draws (render/scene_renderer.hpp), as plain arrays in world coordinates [m]: spheres with their
// colours and arrows, lines, the |B| slice, the drag spring, the gizmo and the legend. Filled from a snapshot by
// render/scene_builder.hpp, as MuJoCo's mjv_updateScene fills an mjvScene; the renderer reads nothing else, so
// it knows no engine type and a test can hand it a scene of its own.

#include "render/color_scale.hpp"

#include <glm/glm.hpp>

#include <cstddef>
#include <vector>

namespace lodestone::render {

// Floats per line vertex in VisualScene::lines, overlay_lines and slice: position (3), colour (3).
inline constexpr std::size_t kLineVertexFloats = 6;

// The user's drag spring (engine/bodies/touch.hpp): from the dragged sphere's centre to the target.
struct SpringShape {
  glm::vec3 anchor{0.0f}, target{0.0f};
  float radius = 0.0f;  // of the dragged sphere: the zigzag's width and the target cross scale with it
};

struct VisualScene {
  // Spheres, in the snapshot's order: 3 floats per sphere in centres, colours and arrows.
  std::vector<float> centers, radii, colors;
  // Moment arrows: the vector from the centre to the tip (the arrow runs from centre - it to centre + it), zero
  // for a sphere without one; empty when arrows are hidden.
  std::vector<float> arrows;
  std::vector<float> lines;          // depth-tested segments, kLineVertexFloats per vertex: easy axes, box, field lines
  std::vector<float> slice;          // the |B| slice: triangles, kLineVertexFloats per vertex
  std::vector<float> overlay_lines;  // segments drawn over everything (bonds)
  bool has_spring = false;
  SpringShape spring;
  // The axes gizmo in the bottom-left corner, with the field's direction (unit vector).
  bool show_gizmo = true;
  int gizmo_left = 8;  // [framebuffer pixels]
  glm::vec3 field_direction{0.0f, 0.0f, 1.0f};
  ColorScale legend;  // what the sphere colours mean

  std::size_t sphere_count() const { return radii.size(); }
  void clear();
};

// What the renderer reports back for the overlays: the screen positions (framebuffer pixels, origin top-left) of the
// gizmo's axis tips, for their labels.
struct GizmoLabels {
  bool visible = false;
  glm::vec2 x{0.0f}, y{0.0f}, z{0.0f}, field{0.0f};
};

}  // namespace lodestone::render
