#include "render/scene_renderer.hpp"

#include "render/line_vertices.hpp"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>

namespace lodestone::render {
namespace {

constexpr Rgb kBackground{0.11f, 0.12f, 0.14f};
constexpr Rgb kMomentColor{1.0f, 0.84f, 0.25f};     // moment arrows, and the field arrow of the gizmo
constexpr Rgb kDragSpringColor{1.0f, 0.55f, 0.1f};  // the user's drag spring
constexpr Rgb kGizmoX{0.95f, 0.3f, 0.3f}, kGizmoY{0.35f, 0.9f, 0.35f}, kGizmoZ{0.4f, 0.55f, 1.0f};
constexpr int kGizmoSize = 96;   // [framebuffer pixels]
constexpr int kGizmoBottom = 8;  // [framebuffer pixels] from the bottom edge

// A line through `center` along `direction`, with a two-line head at the + end (the gizmo's field arrow).
void push_arrow(std::vector<float>& out, const glm::vec3& center, const glm::vec3& direction, float half_length,
                const Rgb& color) {
  const glm::vec3 tip = center + half_length * direction;
  push_line(out, center - half_length * direction, tip, color);
  glm::vec3 side = glm::cross(direction, glm::vec3(0.0f, 0.0f, 1.0f));
  if (glm::dot(side, side) < 1e-6f) side = glm::cross(direction, glm::vec3(1.0f, 0.0f, 0.0f));
  side = glm::normalize(side);
  const float head_length = 0.35f * half_length;
  push_line(out, tip, tip - head_length * direction + 0.5f * head_length * side, color);
  push_line(out, tip, tip - head_length * direction - 0.5f * head_length * side, color);
}

// Shaders and programs report a failed compile or link alike, each through its own pair of queries:
// the status, then the log, which is appended to `error` after `what`.
using StatusQuery = void (QOpenGLFunctions_3_3_Core::*)(GLuint, GLenum, GLint*);
using LogQuery = void (QOpenGLFunctions_3_3_Core::*)(GLuint, GLsizei, GLsizei*, GLchar*);
void append_failure_log(QOpenGLFunctions_3_3_Core& gl, GLuint object, GLenum status, StatusQuery query_status,
                        LogQuery query_log, const std::string& what, std::string& error) {
  GLint ok = 0;
  (gl.*query_status)(object, status, &ok);
  if (ok) return;
  char log[2048];
  (gl.*query_log)(object, sizeof log, nullptr, log);
  error += what + log;
}

}  // namespace

GLuint SceneRenderer::compile(const std::string& vertex, const std::string& fragment, std::string& error) {
  auto stage = [&](GLenum type, const std::string& source) -> GLuint {
    const GLuint shader = gl_.glCreateShader(type);
    const char* text = source.c_str();
    gl_.glShaderSource(shader, 1, &text, nullptr);
    gl_.glCompileShader(shader);
    append_failure_log(gl_, shader, GL_COMPILE_STATUS, &QOpenGLFunctions_3_3_Core::glGetShaderiv,
                       &QOpenGLFunctions_3_3_Core::glGetShaderInfoLog,
                       std::string(type == GL_VERTEX_SHADER ? "vertex" : "fragment") + " shader: ", error);
    return shader;
  };
  const GLuint vs = stage(GL_VERTEX_SHADER, vertex), fs = stage(GL_FRAGMENT_SHADER, fragment);
  const GLuint program = gl_.glCreateProgram();
  gl_.glAttachShader(program, vs);
  gl_.glAttachShader(program, fs);
  gl_.glLinkProgram(program);
  append_failure_log(gl_, program, GL_LINK_STATUS, &QOpenGLFunctions_3_3_Core::glGetProgramiv,
                     &QOpenGLFunctions_3_3_Core::glGetProgramInfoLog, "link: ", error);
  gl_.glDeleteShader(vs);
  gl_.glDeleteShader(fs);
  return program;
}

bool SceneRenderer::initialize(std::string& error) {
  if (!gl_.initializeOpenGLFunctions()) {
    error = "OpenGL 3.3 core functions are not available in this context";
    return false;
  }
  sphere_program_ = compile(sphere_vertex_shader(), sphere_fragment_shader(), error);
  point_sphere_program_ = compile(point_sphere_vertex_shader(), point_sphere_fragment_shader(), error);
  line_program_ = compile(line_vertex_shader(), line_fragment_shader(), error);
  arrow_program_ = compile(arrow_vertex_shader(), line_fragment_shader(), error);
  if (!error.empty()) return false;
  // For measurements (bench/desktop.sh, docs/performance.md): LODESTONE_LOD=none draws every arrow with its cone
  // and culls nothing, =arrows only simplifies the arrows; unset (or anything else), both.
  if (const char* lod = std::getenv("LODESTONE_LOD")) {
    flat_arrows_allowed_ = std::strcmp(lod, "none") != 0;
    occlusion_culling_ = std::strcmp(lod, "none") != 0 && std::strcmp(lod, "arrows") != 0;
  }

  create_sphere_arrays();
  create_line_array();
  create_arrow_array();
  gl_.glBindVertexArray(0);
  return true;
}

// Spheres: a unit quad (triangle strip) and an instance buffer, read by two vertex arrays.
void SceneRenderer::create_sphere_arrays() {
  static const float corners[] = {-1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f};
  gl_.glGenVertexArrays(1, &sphere_vao_);
  gl_.glBindVertexArray(sphere_vao_);
  gl_.glGenBuffers(1, &corner_vbo_);
  gl_.glBindBuffer(GL_ARRAY_BUFFER, corner_vbo_);
  gl_.glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  gl_.glEnableVertexAttribArray(0);
  gl_.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  gl_.glGenBuffers(1, &instance_vbo_);
  gl_.glBindBuffer(GL_ARRAY_BUFFER, instance_vbo_);
  set_sphere_attributes(1);  // one quad per sphere (instanced)
  // Small spheres: the same buffer read as one point per sphere (not instanced).
  gl_.glGenVertexArrays(1, &point_vao_);
  gl_.glBindVertexArray(point_vao_);
  gl_.glBindBuffer(GL_ARRAY_BUFFER, instance_vbo_);
  set_sphere_attributes(0);
}

// The instance buffer's layout (kSphereFloats per sphere) in the bound vertex array.
void SceneRenderer::set_sphere_attributes(GLuint divisor) {
  const GLsizei stride = kSphereFloats * sizeof(float);
  const auto offset = [](size_t k) { return reinterpret_cast<void*>(k * sizeof(float)); };
  gl_.glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, offset(0));  // centre
  gl_.glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, stride, offset(3));  // radius
  gl_.glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, stride, offset(4));  // colour
  for (GLuint attribute : {1u, 2u, 3u}) {
    gl_.glEnableVertexAttribArray(attribute);
    gl_.glVertexAttribDivisor(attribute, divisor);
  }
}

// Lines: position + colour per vertex.
void SceneRenderer::create_line_array() {
  gl_.glGenVertexArrays(1, &line_vao_);
  gl_.glBindVertexArray(line_vao_);
  gl_.glGenBuffers(1, &line_vbo_);
  gl_.glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  gl_.glEnableVertexAttribArray(0);
  gl_.glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, kLineVertexFloats * sizeof(float), nullptr);
  gl_.glEnableVertexAttribArray(1);
  gl_.glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, kLineVertexFloats * sizeof(float),
                            reinterpret_cast<void*>(3 * sizeof(float)));
}

// Moment arrows: kArrowVertices vertices per instance (a shaft and a cone head), all from the instance attributes.
void SceneRenderer::create_arrow_array() {
  gl_.glGenVertexArrays(1, &arrow_vao_);
  gl_.glBindVertexArray(arrow_vao_);
  gl_.glGenBuffers(1, &arrow_vbo_);
  gl_.glBindBuffer(GL_ARRAY_BUFFER, arrow_vbo_);
  for (GLuint attribute : {0u, 1u, 2u}) {
    gl_.glEnableVertexAttribArray(attribute);
    gl_.glVertexAttribDivisor(attribute, 1);
  }
  set_arrow_attributes(0);
}

// The arrow attributes read from instance `first_instance` of arrow_vbo_ on (OpenGL 3.3 has no base instance).
void SceneRenderer::set_arrow_attributes(size_t first_instance) {
  for (GLuint attribute : {0u, 1u, 2u})
    gl_.glVertexAttribPointer(attribute, 3, GL_FLOAT, GL_FALSE, kArrowFloats * sizeof(float),
                              reinterpret_cast<void*>((kArrowFloats * first_instance + 3 * attribute) * sizeof(float)));
}

// The phases in drawing order: spheres; moment arrows, then the lines (easy axes, the box, field lines) and the |B|
// slice, all depth-tested; the overlay lines (bonds) and the drag spring over them; the gizmo in its own corner
// viewport.
void SceneRenderer::draw(const VisualScene& scene, const OrbitCamera& camera, int fb_width, int fb_height) {
  clear(fb_width, fb_height);
  const glm::mat4 view = camera.view(), projection = camera.projection();
  // [window pixels per metre at unit depth]: a sphere of radius r at depth d is r * this / d pixels in radius.
  const float pixels_per_unit =
      0.5f * static_cast<float>(camera.height()) / std::tan(glm::radians(0.5f * OrbitCamera::kFieldOfView));
  cull_hidden(scene, view, projection, pixels_per_unit, camera.width(), camera.height());
  upload_sphere_instances(scene, view, pixels_per_unit);
  draw_spheres(view, projection, pixels_per_unit * static_cast<float>(fb_height) / static_cast<float>(camera.height()));

  collect_arrows(scene, view, pixels_per_unit);
  draw_moment_arrows(view, projection);
  draw_lines(scene.lines, view, projection);
  draw_slice(scene.slice, view, projection);
  if (!scene.overlay_lines.empty()) {
    gl_.glDisable(GL_DEPTH_TEST);
    draw_lines(scene.overlay_lines, view, projection);
    gl_.glEnable(GL_DEPTH_TEST);
  }
  if (scene.has_spring) draw_drag_spring(scene.spring, view, projection);

  gizmo_labels_.visible = scene.show_gizmo;
  if (scene.show_gizmo) draw_gizmo(view, scene.field_direction, scene.gizmo_left, fb_width, fb_height);
  gl_.glBindVertexArray(0);
  gl_.glUseProgram(0);
}

// The |B| slice, translucent, after everything opaque: the particles it cuts through and those behind it show
// through (tinted), where an opaque slice hid them. Depth-tested, not written: the slice hides nothing drawn after.
void SceneRenderer::draw_slice(const std::vector<float>& triangles, const glm::mat4& view,
                               const glm::mat4& projection) {
  if (triangles.empty()) return;
  constexpr float kSliceOpacity = 0.6f;
  gl_.glEnable(GL_BLEND);
  gl_.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  gl_.glDepthMask(GL_FALSE);
  draw_lines(triangles, view, projection, GL_TRIANGLES, kSliceOpacity);  // coloured vertices: the line program
  gl_.glDepthMask(GL_TRUE);
  gl_.glDisable(GL_BLEND);
}

void SceneRenderer::clear(int fb_width, int fb_height) {
  gl_.glViewport(0, 0, fb_width, fb_height);
  gl_.glClearColor(kBackground[0], kBackground[1], kBackground[2], 1.0f);
  gl_.glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  gl_.glEnable(GL_DEPTH_TEST);
  gl_.glDepthFunc(GL_LESS);
  gl_.glDisable(GL_BLEND);
  gl_.glDisable(GL_CULL_FACE);
  gl_.glDisable(GL_SCISSOR_TEST);
}

void SceneRenderer::use_program(GLuint program, const glm::mat4& view, const glm::mat4& projection) {
  gl_.glUseProgram(program);
  gl_.glUniformMatrix4fv(gl_.glGetUniformLocation(program, "view"), 1, GL_FALSE, glm::value_ptr(view));
  gl_.glUniformMatrix4fv(gl_.glGetUniformLocation(program, "projection"), 1, GL_FALSE, glm::value_ptr(projection));
}

// Draws `vertices` as `mode` primitives: GL_LINES, or GL_TRIANGLES for the field slice, whose coloured vertices the
// line program draws as well. Nothing when it is empty.
void SceneRenderer::draw_lines(const std::vector<float>& vertices, const glm::mat4& view, const glm::mat4& projection,
                               GLenum mode, float alpha) {
  if (vertices.empty()) return;
  gl_.glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  gl_.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)), vertices.data(),
                   GL_STREAM_DRAW);
  use_program(line_program_, view, projection);
  gl_.glUniform1f(gl_.glGetUniformLocation(line_program_, "alpha"), alpha);
  gl_.glBindVertexArray(line_vao_);
  gl_.glDrawArrays(mode, 0, static_cast<GLsizei>(vertices.size() / kLineVertexFloats));
}

// [SECTION] occlusion culling
// Goes through the particles front to back (a counting sort on depth into 1024 slices: the order within a
// slice only changes how much is culled), marks what is hidden behind the spheres already drawn
// (render/occlusion.hpp), and lets each drawn sphere hide what is behind it. Rectangles are padded by 25 %
// and a pixel (a sphere off the axis projects a little larger than its disc; at the corners of a
// 35-degree view by 1 / cos 31 deg = 1.17) and occluders shrunk to 90 % of their disc. Spheres that reach
// the eye's plane are never culled, nor used as occluders; nor is a sphere whose centre is off screen
// (a point sprite is clipped by its centre). The draw order follows: front to back, which also lets the
// rasteriser's early depth test skip the shading of hidden fragments.
void SceneRenderer::cull_hidden(const VisualScene& scene, const glm::mat4& view, const glm::mat4& projection,
                                float pixels_per_unit, int width, int height) {
  const size_t n = scene.sphere_count();
  depth_.resize(n);
  shown_.assign(n, kSphereShown | kArrowShown);
  order_.resize(n);
  if (!occlusion_culling_) {  // the snapshot's order, nothing culled
    std::iota(order_.begin(), order_.end(), 0u);
    return;
  }
  float nearest = INFINITY, farthest = -INFINITY;
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3 c = xyz(scene.centers, i);
    depth_[i] = -(view[0][2] * c.x + view[1][2] * c.y + view[2][2] * c.z + view[3][2]);
    nearest = std::min(nearest, depth_[i]);
    farthest = std::max(farthest, depth_[i]);
  }
  constexpr size_t kSlices = 1024;
  bucket_start_.assign(kSlices + 1, 0);
  const float per_slice = farthest > nearest ? static_cast<float>(kSlices) / (farthest - nearest) : 0.0f;
  auto slice = [&](size_t i) { return std::min(static_cast<size_t>((depth_[i] - nearest) * per_slice), kSlices - 1); };
  for (size_t i = 0; i < n; ++i) ++bucket_start_[slice(i) + 1];
  for (size_t k = 0; k < kSlices; ++k) bucket_start_[k + 1] += bucket_start_[k];
  for (size_t i = 0; i < n; ++i) order_[bucket_start_[slice(i)]++] = static_cast<std::uint32_t>(i);

  occlusion_.reset(width, height);
  const glm::mat4 clip_from_world = projection * view;
  const float w = static_cast<float>(width), h = static_cast<float>(height);
  const bool arrows = !scene.arrows.empty();
  const glm::mat3 rotation(view);
  for (const std::uint32_t i : order_) {
    const float d = depth_[i], r = scene.radii[i];
    if (d <= r) continue;  // reaches the eye's plane: drawn whole
    const glm::vec3 c = xyz(scene.centers, i);
    const glm::vec4 clip = clip_from_world * glm::vec4(c, 1.0f);
    const float x = (clip.x / clip.w + 1.0f) * 0.5f * w, y = (1.0f - clip.y / clip.w) * 0.5f * h;
    // Off the axis by theta, a sphere's silhouette reaches 1 / cos(theta) times its disc to first order.
    const glm::vec3 c_view = rotation * c + glm::vec3(view[3]);
    const float stretch = 1.03f * glm::length(c_view) / d;
    const float radius_pixels = projected_pixels(r, d, pixels_per_unit);
    const float pad = stretch * radius_pixels + 1.0f;
    std::uint8_t shown = 0;
    if (!occlusion_.hidden(x - pad, y - pad, x + pad, y + pad, d - r)) shown |= kSphereShown;
    const glm::vec3 half_world = arrows ? xyz(scene.arrows, i) : glm::vec3(0.0f);
    const float half_length = glm::length(half_world);
    if (half_length > 0.0f && d > 1.05f * half_length) {  // 1.05: the head included
      // The arrow's rectangle: tail to tip on screen (the half vector seen at the arrow's nearest depth) and
      // the head's radius (0.2 half lengths, assets/shaders/arrow.vert) round it.
      const float near = d - 1.05f * half_length;
      const glm::vec3 half = rotation * half_world;
      const float scale = stretch * pixels_per_unit / near;
      const float around = 0.25f * half_length * scale + 1.0f;
      // Seen off the axis, the half vector's depth part moves the tip across the screen too.
      const float ex = (std::abs(half.x) + std::abs(half.z * c_view.x) / near) * scale + around;
      const float ey = (std::abs(half.y) + std::abs(half.z * c_view.y) / near) * scale + around;
      if (!occlusion_.hidden(x - ex, y - ey, x + ex, y + ey, near)) shown |= kArrowShown;
    } else {
      shown |= kArrowShown;
    }
    shown_[i] = shown;
    if ((shown & kSphereShown) && x >= 0.0f && x < w && y >= 0.0f && y < h)
      occlusion_.add_occluder(x, y, 0.9f * radius_pixels, d + r);
  }
}

// [SECTION] spheres
// Level of detail: spheres at least kExactDepthRadius pixels in radius on screen are ray-cast
// quads writing their exact depth (intersections and contacts look right up close); smaller ones
// are point sprites at the depth of their centre, a pixel's difference at that size. On a
// software rasteriser this halves the cost of 10 000 small spheres: one vertex instead of a
// quad's two triangles, and no gl_FragDepth (which turns off the early depth test).
void SceneRenderer::upload_sphere_instances(const VisualScene& scene, const glm::mat4& view, float pixels_per_unit) {
  const size_t n = scene.sphere_count();
  instances_.resize(kSphereFloats * n);
  size_t exact_count = 0, point_end = n;  // ray-cast quads from the front, points from the back
  for (const std::uint32_t i : order_) {
    if (!(shown_[i] & kSphereShown)) continue;
    const glm::vec3 centre = xyz(scene.centers, i), color = xyz(scene.colors, i);
    const float depth = -(view * glm::vec4(centre, 1.0f)).z;
    const bool exact = sphere_detail(projected_pixels(scene.radii[i], depth, pixels_per_unit)) == SphereDetail::RayCast;
    float* out = &instances_[kSphereFloats * (exact ? exact_count++ : --point_end)];
    out[0] = centre.x;
    out[1] = centre.y;
    out[2] = centre.z;
    out[3] = scene.radii[i];
    out[4] = color.r;
    out[5] = color.g;
    out[6] = color.b;
  }
  // Close the gap: the points (back to front from the end) right after the quads, and reversed, front to back.
  const size_t point_count = n - point_end;
  std::copy(instances_.begin() + static_cast<std::ptrdiff_t>(kSphereFloats * point_end), instances_.end(),
            instances_.begin() + static_cast<std::ptrdiff_t>(kSphereFloats * exact_count));
  instances_.resize(kSphereFloats * (exact_count + point_count));
  for (size_t a = exact_count, b = exact_count + point_count; a + 1 < b; ++a, --b)
    std::swap_ranges(&instances_[kSphereFloats * a], &instances_[kSphereFloats * (a + 1)],
                     &instances_[kSphereFloats * (b - 1)]);
  drawn_spheres_ = exact_count + point_count;
  exact_depth_spheres_ = exact_count;
  if (drawn_spheres_ == 0) return;
  gl_.glBindVertexArray(sphere_vao_);
  gl_.glBindBuffer(GL_ARRAY_BUFFER, instance_vbo_);
  gl_.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(instances_.size() * sizeof(float)), instances_.data(),
                   GL_STREAM_DRAW);
}

// Draws the instances uploaded: exact-depth quads first, then the point sprites.
void SceneRenderer::draw_spheres(const glm::mat4& view, const glm::mat4& projection, float fb_pixels_per_unit) {
  const GLsizei exact_count = static_cast<GLsizei>(exact_depth_spheres_);
  const GLsizei point_count = static_cast<GLsizei>(drawn_spheres_ - exact_depth_spheres_);
  const glm::vec3 light = glm::normalize(glm::vec3(0.4f, 0.6f, 0.7f));  // view space
  if (exact_count > 0) {
    use_program(sphere_program_, view, projection);
    gl_.glUniform3fv(gl_.glGetUniformLocation(sphere_program_, "light_direction"), 1, glm::value_ptr(light));
    gl_.glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, exact_count);
  }
  if (point_count > 0) {
    gl_.glEnable(GL_PROGRAM_POINT_SIZE);
    use_program(point_sphere_program_, view, projection);
    gl_.glUniform3fv(gl_.glGetUniformLocation(point_sphere_program_, "light_direction"), 1, glm::value_ptr(light));
    gl_.glUniform1f(gl_.glGetUniformLocation(point_sphere_program_, "pixels_per_unit"), fb_pixels_per_unit);
    gl_.glBindVertexArray(point_vao_);
    gl_.glDrawArrays(GL_POINTS, exact_count, point_count);
  }
}

// [SECTION] moment arrows
// One instance each in arrows_: those with the cone head first, then the flat ones; the smallest and the culled
// left out (render/level_of_detail.hpp).
void SceneRenderer::collect_arrows(const VisualScene& scene, const glm::mat4& view, float pixels_per_unit) {
  arrows_.clear();
  cone_arrows_ = flat_arrows_ = 0;
  if (scene.arrows.empty()) return;
  const size_t n = scene.sphere_count();
  arrows_.resize(kArrowFloats * n);
  size_t flat_begin = n;  // the flat arrows fill arrows_ from the back
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3 half = xyz(scene.arrows, i);
    const float half_length = glm::length(half);
    if (half_length == 0.0f || !(shown_[i] & kArrowShown)) continue;
    const glm::vec3 c = xyz(scene.centers, i);
    const float depth = -(view[0][2] * c.x + view[1][2] * c.y + view[2][2] * c.z + view[3][2]);
    const ArrowDetail detail = flat_arrows_allowed_
                                   ? arrow_detail(projected_pixels(2.0f * half_length, depth, pixels_per_unit))
                                   : ArrowDetail::Cone;
    if (detail == ArrowDetail::Hidden) continue;
    float* out = &arrows_[kArrowFloats * (detail == ArrowDetail::Cone ? cone_arrows_++ : --flat_begin)];
    const float values[kArrowFloats] = {
        c.x, c.y, c.z, half.x, half.y, half.z, kMomentColor[0], kMomentColor[1], kMomentColor[2]};
    std::copy(values, values + kArrowFloats, out);
  }
  // Close the gap: the flat arrows right after the cone ones.
  flat_arrows_ = n - flat_begin;
  std::copy(arrows_.begin() + static_cast<std::ptrdiff_t>(kArrowFloats * flat_begin), arrows_.end(),
            arrows_.begin() + static_cast<std::ptrdiff_t>(kArrowFloats * cone_arrows_));
  arrows_.resize(kArrowFloats * (cone_arrows_ + flat_arrows_));
}

void SceneRenderer::draw_moment_arrows(const glm::mat4& view, const glm::mat4& projection) {
  if (arrows_.empty()) return;
  use_program(arrow_program_, view, projection);
  const GLint flat_head = gl_.glGetUniformLocation(arrow_program_, "flat_head");
  gl_.glBindVertexArray(arrow_vao_);
  gl_.glBindBuffer(GL_ARRAY_BUFFER, arrow_vbo_);
  gl_.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(arrows_.size() * sizeof(float)), arrows_.data(),
                   GL_STREAM_DRAW);
  if (cone_arrows_ > 0) {
    set_arrow_attributes(0);
    gl_.glUniform1i(flat_head, 0);
    gl_.glDrawArraysInstanced(GL_TRIANGLES, 0, kArrowVertices, static_cast<GLsizei>(cone_arrows_));
  }
  if (flat_arrows_ > 0) {
    set_arrow_attributes(cone_arrows_);
    gl_.glUniform1i(flat_head, 1);
    gl_.glDrawArraysInstanced(GL_TRIANGLES, 0, kFlatArrowVertices, static_cast<GLsizei>(flat_arrows_));
  }
}

// [SECTION] drag spring
// The user's drag spring (Ctrl+drag, the remote `drag`): a zigzag from the particle's centre to the target in
// the plane facing the camera, and a cross at the target; drawn over everything, like the bonds.
void SceneRenderer::draw_drag_spring(const SpringShape& spring, const glm::mat4& view, const glm::mat4& projection) {
  const glm::vec3 anchor = spring.anchor, target = spring.target;
  const float radius = spring.radius;
  const glm::vec3 towards_eye(view[0][2], view[1][2], view[2][2]);  // the camera's z axis in the world
  lines_.clear();
  const glm::vec3 d = target - anchor;
  const float length = glm::length(d);
  glm::vec3 side = glm::cross(d, towards_eye);
  if (length > 0.0f && glm::length(side) > 0.0f) {
    side = 0.35f * radius * glm::normalize(side);
    constexpr int kZigs = 12;
    glm::vec3 previous = anchor;
    for (int k = 1; k <= kZigs; ++k) {
      const float t = static_cast<float>(k) / (kZigs + 1);
      const glm::vec3 next = anchor + t * d + (k % 2 == 1 ? side : -side);
      push_line(lines_, previous, next, kDragSpringColor);
      previous = next;
    }
    push_line(lines_, previous, target, kDragSpringColor);
  }
  const float arm = 0.6f * radius;
  for (int a = 0; a < 3; ++a) {
    glm::vec3 e(0.0f);
    e[a] = arm;
    push_line(lines_, target - e, target + e, kDragSpringColor);
  }
  gl_.glDisable(GL_DEPTH_TEST);
  draw_lines(lines_, view, projection);
  gl_.glEnable(GL_DEPTH_TEST);
}

// [SECTION] gizmo: axes and the field direction, rotated with the camera, bottom-left corner
void SceneRenderer::draw_gizmo(const glm::mat4& view, const glm::vec3& field, int wanted_left, int fb_width,
                               int fb_height) {
  const int size = std::min({kGizmoSize, fb_width, fb_height});
  const int left = std::clamp(wanted_left, 0, std::max(fb_width - size, 0));
  gl_.glViewport(left, kGizmoBottom, size, size);
  gl_.glClear(GL_DEPTH_BUFFER_BIT);
  glm::mat4 rotation = view;
  rotation[3] = glm::vec4(0.0f, 0.0f, -3.0f, 1.0f);  // keep the rotation, look from 3 units away
  const glm::mat4 ortho = glm::ortho(-1.3f, 1.3f, -1.3f, 1.3f, 0.1f, 10.0f);
  lines_.clear();
  push_line(lines_, glm::vec3(0.0f), glm::vec3(1, 0, 0), kGizmoX);
  push_line(lines_, glm::vec3(0.0f), glm::vec3(0, 1, 0), kGizmoY);
  push_line(lines_, glm::vec3(0.0f), glm::vec3(0, 0, 1), kGizmoZ);
  push_arrow(lines_, 0.45f * field, field, 0.45f, kMomentColor);
  draw_lines(lines_, rotation, ortho);
  place_gizmo_labels(ortho * rotation, field, left, size, fb_height);
  gl_.glViewport(0, 0, fb_width, fb_height);
}

// Label positions in window pixels (top-left origin) of framebuffer size.
void SceneRenderer::place_gizmo_labels(const glm::mat4& clip_from_world, const glm::vec3& field, int left, int size,
                                       int fb_height) {
  auto to_pixels = [&](const glm::vec3& world) {
    const glm::vec4 clip = clip_from_world * glm::vec4(world, 1.0f);
    return glm::vec2(static_cast<float>(left) + (clip.x + 1.0f) * 0.5f * static_cast<float>(size),
                     static_cast<float>(fb_height) -
                         (static_cast<float>(kGizmoBottom) + (clip.y + 1.0f) * 0.5f * static_cast<float>(size)));
  };
  gizmo_labels_.x = to_pixels({1.15f, 0, 0});
  gizmo_labels_.y = to_pixels({0, 1.15f, 0});
  gizmo_labels_.z = to_pixels({0, 0, 1.15f});
  gizmo_labels_.field = to_pixels(1.1f * field);
}

}  // namespace lodestone::render
