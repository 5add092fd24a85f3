#version 330 core
// Small spheres (a few pixels across) as point sprites: one vertex each instead of a two-triangle
// quad, and a cheap fragment shader. Large spheres use the ray-cast quads (sphere.vert).
layout(location = 1) in vec3 center;   // world [m]
layout(location = 2) in float radius;  // [m]
layout(location = 3) in vec3 color;

uniform mat4 view;
uniform mat4 projection;
uniform float pixels_per_unit;  // framebuffer pixels per unit of lateral size at unit depth

flat out vec3 v_color;

void main() {
  vec4 c = view * vec4(center, 1.0);
  v_color = color;
  gl_Position = projection * c;
  gl_PointSize = max(2.0 * radius * pixels_per_unit / max(-c.z, 1e-30), 1.0);
}
