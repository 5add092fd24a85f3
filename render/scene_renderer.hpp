#pragma once
// Draws a VisualScene (render/visual_scene.hpp) with OpenGL 3.3 core: spheres as instanced ray-cast impostors with
// exact depth, or as point sprites when they are only a few pixels across; lit and coloured by the chosen mode; moments
// as arrows (a cone head up close, a flat head when small, none when a few pixels: render/level_of_detail.hpp) and easy
// axes as lines (lines are several times cheaper than meshes on a software renderer); the box; an axes gizmo with the
// field direction in a corner. Knows no engine type: what it draws comes from render/scene_builder.hpp.

#include "render/camera.hpp"
#include "render/level_of_detail.hpp"
#include "render/occlusion.hpp"
#include "render/visual_scene.hpp"

#include <QOpenGLFunctions_3_3_Core>
#include <cstdint>
#include <string>
#include <vector>

namespace lodestone::render {

class SceneRenderer {
 public:
  // Needs a current OpenGL 3.3 core context. Returns false and a message when shaders fail.
  bool initialize(std::string& error);
  // Draws into the bound framebuffer of size (framebuffer_width, framebuffer_height).
  void draw(const VisualScene& scene, const OrbitCamera& camera, int framebuffer_width, int framebuffer_height);
  const GizmoLabels& gizmo_labels() const { return gizmo_labels_; }
  size_t drawn_spheres() const { return drawn_spheres_; }  // not hidden behind others (render/occlusion.hpp)
  size_t exact_depth_spheres() const { return exact_depth_spheres_; }  // drawn ray-cast, not as points
  size_t cone_arrows() const { return cone_arrows_; }                  // moment arrows with the cone head
  size_t flat_arrows() const { return flat_arrows_; }                  // moment arrows drawn flat

 private:
  GLuint compile(const std::string& vertex, const std::string& fragment, std::string& error);
  // The vertex arrays and buffers of initialize().
  void create_sphere_arrays();
  void set_sphere_attributes(GLuint divisor);
  void create_line_array();
  void create_arrow_array();
  // The phases of draw(), in order.
  void clear(int framebuffer_width, int framebuffer_height);
  void cull_hidden(const VisualScene& scene, const glm::mat4& view, const glm::mat4& projection, float pixels_per_unit,
                   int width, int height);
  void upload_sphere_instances(const VisualScene& scene, const glm::mat4& view, float pixels_per_unit);
  void draw_spheres(const glm::mat4& view, const glm::mat4& projection, float framebuffer_pixels_per_unit);
  void collect_arrows(const VisualScene& scene, const glm::mat4& view, float pixels_per_unit);
  void set_arrow_attributes(size_t first_instance);
  void draw_moment_arrows(const glm::mat4& view, const glm::mat4& projection);
  void draw_drag_spring(const SpringShape& spring, const glm::mat4& view, const glm::mat4& projection);
  void draw_gizmo(const glm::mat4& view, const glm::vec3& field_direction, int wanted_left, int framebuffer_width,
                  int framebuffer_height);
  void place_gizmo_labels(const glm::mat4& clip_from_world, const glm::vec3& field_direction, int left, int size,
                          int framebuffer_height);
  // Shared by the phases.
  void use_program(GLuint program, const glm::mat4& view, const glm::mat4& projection);
  // Draws `vertices` (kLineVertexFloats per vertex) as `mode` primitives, `alpha` their opacity.
  void draw_lines(const std::vector<float>& vertices, const glm::mat4& view, const glm::mat4& projection,
                  GLenum mode = GL_LINES, float alpha = 1.0f);
  void draw_slice(const std::vector<float>& triangles, const glm::mat4& view, const glm::mat4& projection);

  QOpenGLFunctions_3_3_Core gl_;
  static constexpr size_t kSphereFloats = 7;        // per sphere: centre (3), radius, colour (3)
  static constexpr size_t kArrowFloats = 9;         // per moment arrow: centre (3), half vector (3), colour (3)
  static constexpr int kArrowVertices = 6 + 3 * 8;  // assets/shaders/arrow.vert: a shaft quad and an 8-sided cone
  static constexpr int kFlatArrowVertices = 6 + 3;  // the same shaft and a flat head
  GLuint sphere_program_ = 0, point_sphere_program_ = 0, line_program_ = 0, arrow_program_ = 0;
  GLuint sphere_vao_ = 0, point_vao_ = 0, corner_vbo_ = 0, instance_vbo_ = 0;
  GLuint line_vao_ = 0, line_vbo_ = 0;
  GLuint arrow_vao_ = 0, arrow_vbo_ = 0;
  std::vector<float> instances_;  // kSphereFloats per sphere, exact-depth spheres first
  std::vector<float> lines_;      // kLineVertexFloats per vertex: the spring and the gizmo
  std::vector<float> arrows_;     // kArrowFloats per moment arrow: cone_arrows_ with the cone head, then the flat ones
  GizmoLabels gizmo_labels_;
  size_t drawn_spheres_ = 0, exact_depth_spheres_ = 0;
  size_t cone_arrows_ = 0, flat_arrows_ = 0;
  // Occlusion culling (cull_hidden): the particles roughly front to back, and what of each is drawn.
  static constexpr std::uint8_t kSphereShown = 1, kArrowShown = 2;
  OcclusionGrid occlusion_;
  std::vector<std::uint32_t> order_, bucket_start_;
  std::vector<float> depth_;
  std::vector<std::uint8_t> shown_;
  bool flat_arrows_allowed_ = true, occlusion_culling_ = true;  // LODESTONE_LOD (initialize())
};

// Shader sources, embedded at build time from assets/shaders/.
const std::string& sphere_vertex_shader();
const std::string& sphere_fragment_shader();
const std::string& line_vertex_shader();
const std::string& line_fragment_shader();
const std::string& arrow_vertex_shader();
const std::string& point_sphere_vertex_shader();
const std::string& point_sphere_fragment_shader();

}  // namespace lodestone::render
