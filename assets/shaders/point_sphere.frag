#version 330 core
// A lit sphere in a point sprite: the normal from the position in the sprite, as seen from far
// away (the sprite is at most kExactDepthRadius pixels in radius, where perspective is invisible).
flat in vec3 v_color;
uniform vec3 light_direction;  // view space, unit, towards the light
out vec4 fragment;

void main() {
  vec2 xy = 2.0 * gl_PointCoord - 1.0;
  xy.y = -xy.y;  // gl_PointCoord runs downwards
  float rr = dot(xy, xy);
  if (rr > 1.0) discard;
  vec3 normal = vec3(xy, sqrt(1.0 - rr));
  float diffuse = max(dot(normal, light_direction), 0.0);
  // Blinn-Phong with the viewer along +z, exponent 48 as in sphere.frag.
  float s = max(dot(normal, normalize(light_direction + vec3(0.0, 0.0, 1.0))), 0.0);
  s *= s;
  s *= s;
  s *= s;
  s *= s;
  float specular = s * s * s;
  fragment = vec4(v_color * (0.28 + 0.72 * diffuse) + vec3(0.22) * specular, 1.0);
}
