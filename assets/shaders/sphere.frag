#version 330 core
flat in vec3 v_center;
flat in float v_radius;
flat in vec3 v_color;
in vec3 v_position;

uniform mat4 projection;
uniform vec3 light_direction;  // view space, unit, towards the light

out vec4 fragment;

void main() {
  // Ray from the eye (the view-space origin) through this fragment.
  vec3 dir = normalize(v_position);
  float b = dot(dir, v_center);
  // Squared distance from the centre to the ray, computed as a difference of nearby vectors so
  // that tiny spheres far away keep their precision.
  vec3 perpendicular = v_center - b * dir;
  float disc = v_radius * v_radius - dot(perpendicular, perpendicular);
  if (disc < 0.0) discard;
  float t = b - sqrt(disc);
  vec3 hit = t * dir;
  vec3 normal = (hit - v_center) / v_radius;
  float diffuse = max(dot(normal, light_direction), 0.0);
  vec3 half_vector = normalize(light_direction - dir);
  // Blinn-Phong highlight, exponent 48 = 16 x 3 by squaring: pow() is exp2(log2()), dearer on a
  // software rasteriser.
  float s = max(dot(normal, half_vector), 0.0);
  s *= s;  // ^2
  s *= s;  // ^4
  s *= s;  // ^8
  s *= s;  // ^16
  float specular = s * s * s;  // ^48
  vec3 color = v_color * (0.28 + 0.72 * diffuse) + vec3(0.22) * specular;
  fragment = vec4(color, 1.0);
  vec4 clip = projection * vec4(hit, 1.0);
  gl_FragDepth = 0.5 * (clip.z / clip.w) + 0.5;
}
