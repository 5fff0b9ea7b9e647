#version 330 core
// One arrow per instance on a regular grid of the image. The vector is read from the field
// texture (RG32F, float2 per pixel) with texelFetch; aShape is the arrow outline in arrow
// units: x along the arrow in [0, 1], y across it in half-widths.
layout(location = 0) in vec2 aShape;

uniform sampler2D uField;
uniform ivec2 uGrid;        // arrows per row, rows
uniform float uSpacing;     // image pixels between arrows (screen pixels / zoom)
uniform vec2 uGridOrigin;   // image pixels: the first cell's corner (see glyphGrid())
uniform float uScale;       // arrow length in spacings, at |V| = uRange (or always if normalised)
uniform bool uNormalize;    // all arrows the same length
uniform float uRange;       // |V| that gets a full-length arrow
uniform float uMinPixels;   // minimum half-width, in image pixels (one screen pixel or so)
uniform float uOutline;     // extra half-width and length for the dark outline pass
uniform vec4 uImageToNdc;

void main() {
  ivec2 cell = ivec2(gl_InstanceID % uGrid.x, gl_InstanceID / uGrid.x);
  vec2 centre = uGridOrigin + (vec2(cell) + 0.5) * uSpacing;
  ivec2 size = textureSize(uField, 0);
  ivec2 texel = clamp(ivec2(centre), ivec2(0), size - 1);
  vec2 v = texelFetch(uField, texel, 0).rg;
  float m = length(v);

  float full = uSpacing * uScale * 0.9;
  float len = uNormalize ? full : full * min(m / max(uRange, 1e-20), 4.0);
  if (m < 1e-7 || len < 1e-3) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the clip volume: no arrow
    return;
  }
  vec2 dir = v / m;
  vec2 across = vec2(-dir.y, dir.x);
  float halfWidth = max(len * 0.06, uMinPixels) + uOutline;
  float along = (aShape.x - 0.5) * (len + 2.0 * uOutline);
  // Drawn at the grid point itself, so the spacing on screen stays even at any zoom.
  vec2 pixel = centre + dir * along + across * aShape.y * halfWidth;
  gl_Position = vec4(pixel * uImageToNdc.xy + uImageToNdc.zw, 0.0, 1.0);
}
