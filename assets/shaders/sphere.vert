#version 330 core
// Sphere impostor: one camera-facing quad per sphere (instanced); the fragment shader ray-casts
// the sphere inside it and writes the true depth.
layout(location = 0) in vec2 corner;   // (-1, -1) .. (1, 1)
layout(location = 1) in vec3 center;   // world [m]
layout(location = 2) in float radius;  // [m]
layout(location = 3) in vec3 color;

uniform mat4 view;
uniform mat4 projection;

flat out vec3 v_center;    // view space
flat out float v_radius;
flat out vec3 v_color;
out vec3 v_position;  // view-space point on the quad

void main() {
  vec4 c = view * vec4(center, 1.0);
  // The quad lies in the plane through the centre, facing the camera, just large enough for the
  // perspective silhouette: seen at angle theta off the view axis, the sphere's tangent cone
  // (half-angle alpha) cuts this plane within h (tan(theta + alpha) - tan(theta)) of the centre,
  // h being the centre's depth. A tight quad matters: a software rasteriser pays per fragment.
  float d = length(c.xyz);
  float h = -c.z;
  float half_size = 1.5 * radius;  // the eye inside or beside the sphere: never seen this close
  if (h > radius && d > 1.0001 * radius) {
    float theta = acos(clamp(h / d, 0.0, 1.0));
    float alpha = asin(radius / d);
    if (theta + alpha < 1.5) half_size = 1.02 * h * (tan(theta + alpha) - tan(theta));
  }
  vec3 p = c.xyz + vec3(corner * half_size, 0.0);
  v_center = c.xyz;
  v_radius = radius;
  v_color = color;
  v_position = p;
  gl_Position = projection * vec4(p, 1.0);
}
