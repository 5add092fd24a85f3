#version 330 core
layout(location = 0) in vec3 position;  // world [m]
layout(location = 1) in vec3 color;
uniform mat4 view;
uniform mat4 projection;
out vec3 v_color;
void main() {
  v_color = color;
  gl_Position = projection * view * vec4(position, 1.0);
}
