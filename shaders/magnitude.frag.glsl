#version 330 core
// |V| of the GVF field (RG32F) through a colormap lookup texture (256 x 1).
uniform sampler2D uField;
uniform sampler2D uColormap;
uniform vec2 uRange;     // |V| shown as the first and the last colour
uniform float uOpacity;  // blended over the image layer
uniform float uLogDecades;  // > 0: log scale, the last colour at uRange.y, the first that many decades below
in vec2 vUv;
out vec4 fragColor;

void main() {
  float m = length(texture(uField, vUv).rg);
  float t = uLogDecades > 0.0
      ? clamp(1.0 + log(max(m, 1e-30) / max(uRange.y, 1e-30)) / (uLogDecades * log(10.0)), 0.0, 1.0)
      : clamp((m - uRange.x) / max(uRange.y - uRange.x, 1e-20), 0.0, 1.0);
  // Sample texel centres so t = 0 and t = 1 hit the first and the last colour exactly.
  float u = (t * 255.0 + 0.5) / 256.0;
  fragColor = vec4(texture(uColormap, vec2(u, 0.5)).rgb, uOpacity);
}
