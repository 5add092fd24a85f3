#version 330 core
// Moment arrow, from tail to head (instanced, 30 vertices): a flat shaft of even width facing the camera
// from the tail to the base of the head, and a real cone for the head (eight sides, shaded so that it
// reads as a solid from any side). Reads unambiguously as pointing from the tail to the tip.
// With flat_head (arrows a few pixels long, render/level_of_detail.hpp), 9 vertices: the same shaft and
// a flat triangle facing the camera with the cone's outline seen side on.
layout(location = 0) in vec3 center;       // world [m]
layout(location = 1) in vec3 half_vector;  // world [m], from the centre to the tip
layout(location = 2) in vec3 color;

uniform mat4 view;
uniform mat4 projection;
uniform bool flat_head;

out vec3 v_color;

const int kSides = 8;
const float kHeadLength = 0.6;  // of the half length: the head is 30 % of the arrow
const float kHeadRadius = 0.2;  // of the half length
const float kShaftHalfWidth = 0.065;

void main() {
  vec3 c = (view * vec4(center, 1.0)).xyz;
  vec3 v = mat3(view) * half_vector;
  float half_length = length(v);
  vec3 axis = half_length > 0.0 ? v / half_length : vec3(0.0, 0.0, 1.0);
  vec3 tip = c + v;
  vec3 base = tip - kHeadLength * v;
  vec3 p;
  if (gl_VertexID < 6 || flat_head) {
    // The shaft: a band across the line of sight, tail to the head's base.
    vec3 side = cross(v, c);
    float norm = length(side);
    side = norm > 0.0 ? side * (half_length / norm) : vec3(0.0);  // across, as long as the half arrow
    if (gl_VertexID >= 6) {
      // The flat head: tip, then the base's two ends.
      p = gl_VertexID == 6 ? tip : base + (gl_VertexID == 7 ? kHeadRadius : -kHeadRadius) * side;
      v_color = color;
      gl_Position = projection * vec4(p, 1.0);
      return;
    }
    side *= kShaftHalfWidth;
    const int corners[6] = int[6](0, 1, 2, 1, 3, 2);  // 0 tail-left, 1 tail-right, 2 base-left, 3 base-right
    int corner = corners[gl_VertexID];
    vec3 end = corner < 2 ? c - v : base;
    p = end + ((corner & 1) == 0 ? side : -side);
    v_color = 0.9 * color;
  } else {
    // The cone: triangle k runs from the tip to the base rim at angles k and k + 1.
    int k = (gl_VertexID - 6) / 3, corner = (gl_VertexID - 6) % 3;
    vec3 u = normalize(cross(axis, abs(axis.z) < 0.9 ? vec3(0.0, 0.0, 1.0) : vec3(1.0, 0.0, 0.0)));
    vec3 w = cross(axis, u);
    float step = 6.2831853 / float(kSides);
    float angle = step * (float(k) + (corner == 0 ? 0.5 : float(corner - 1)));
    vec3 radial = cos(angle) * u + sin(angle) * w;
    float radius = kHeadRadius * half_length;
    p = corner == 0 ? tip : base + radius * radial;
    // The cone's outward normal; lit from the viewer's upper left.
    vec3 normal = normalize(kHeadLength * radial + kHeadRadius * axis);
    vec3 light = normalize(vec3(-0.3, 0.5, 0.8));
    v_color = color * (0.35 + 0.75 * max(dot(normal, light), 0.0));
  }
  gl_Position = projection * vec4(p, 1.0);
}
