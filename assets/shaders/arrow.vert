#version 330 core
// Moment arrow: one flat dart per particle (instanced, two triangles), facing the camera: a point at
// the tail, widest at 7/8 of its length, a point at the tip. Two triangles where a line arrow with
// a head takes three lines: cheaper on a software rasteriser, and it reads at any size.
layout(location = 0) in vec3 center;       // world [m]
layout(location = 1) in vec3 half_vector;  // world [m], from the centre to the tip
layout(location = 2) in vec3 color;

uniform mat4 view;
uniform mat4 projection;

out vec3 v_color;

void main() {
  vec3 c = (view * vec4(center, 1.0)).xyz;
  vec3 v = mat3(view) * half_vector;
  // Across the arrow and the line of sight. Zero when the arrow points at the eye: the needle
  // collapses to nothing, as a foreshortened arrow should.
  vec3 side = cross(v, c);
  float norm = length(side);
  side = norm > 0.0 ? side * (0.28 * length(v) / norm) : vec3(0.0);
  // Triangles (tail, left, right) and (left, tip, right).
  const int corners[6] = int[6](0, 1, 2, 1, 3, 2);  // 0 tail, 1 left, 2 right, 3 tip
  int corner = corners[gl_VertexID];
  vec3 widest = c + 0.75 * v;
  vec3 p = corner == 0 ? c - v : corner == 3 ? c + v : widest + (corner == 1 ? side : -side);
  v_color = corner == 0 ? 0.55 * color : color;  // darker towards the tail
  gl_Position = projection * vec4(p, 1.0);
}
