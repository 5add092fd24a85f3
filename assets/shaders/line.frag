#version 330 core
in vec3 v_color;
uniform float alpha;  // 1 for lines; below 1 for the translucent |B| slice (render/scene_renderer.cpp)
out vec4 fragment;
void main() { fragment = vec4(v_color, alpha); }
