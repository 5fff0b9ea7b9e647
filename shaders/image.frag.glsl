#version 330 core
// The input image (R32F, grey levels in [0, 1]) as grey.
uniform sampler2D uImage;
uniform float uBrightness;
in vec2 vUv;
out vec4 fragColor;

void main() {
  float v = clamp(texture(uImage, vUv).r * uBrightness, 0.0, 1.0);
  fragColor = vec4(vec3(v), 1.0);
}
