#version 330 core
// The capture-range map (RGBA8: colour by steps to an edge, alpha 0 where never captured).
uniform sampler2D uCapture;
uniform float uOpacity;
in vec2 vUv;
out vec4 fragColor;

void main() {
  vec4 c = texture(uCapture, vUv);
  fragColor = vec4(c.rgb, c.a * uOpacity);
}
