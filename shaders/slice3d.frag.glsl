#version 330 core
// A slice of the volume (R32F, grey levels in [0, 1]) as grey, see-through where it is dark
// (empty space) and nearly opaque where it is bright, so the surfaces behind it show; its rim
// in uRim.
uniform sampler2D uImage;
uniform float uBrightness;
uniform float uAlpha;
uniform vec4 uRim;
in vec2 vUv;
out vec4 fragColor;

void main() {
  vec2 edge = min(vUv, 1.0 - vUv) / fwidth(vUv);
  if (min(edge.x, edge.y) < 1.5) {
    fragColor = uRim;
    return;
  }
  float v = clamp(texture(uImage, vUv).r * uBrightness, 0.0, 1.0);
  fragColor = vec4(vec3(v), mix(0.3, 1.0, v) * uAlpha);
}
