#version 330 core
// Sphere impostor: one camera-facing quad per sphere (instanced); the fragment shader ray-casts
// the sphere inside it and writes the true depth.
layout(location = 0) in vec2 corner;   // (-1, -1) .. (1, 1)
layout(location = 1) in vec3 center;   // world [m]
layout(location = 2) in float radius;  // [m]
layout(location = 3) in vec3 color;

uniform mat4 view;
uniform mat4 projection;

out vec3 v_center;    // view space
out float v_radius;
out vec3 v_color;
out vec3 v_position;  // view-space point on the quad

void main() {
  vec4 c = view * vec4(center, 1.0);
  // The quad lies in the plane through the centre, 1.5 radii wide, so the perspective silhouette
  // (slightly larger than the radius off-axis) always fits inside it.
  vec3 p = c.xyz + vec3(corner * radius * 1.5, 0.0);
  v_center = c.xyz;
  v_radius = radius;
  v_color = color;
  v_position = p;
  gl_Position = projection * vec4(p, 1.0);
}
