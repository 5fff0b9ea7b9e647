#version 330 core
// One of the three orthogonal slices as a quad in the 3D view (voxel coordinates), with its
// texture coordinates.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec2 aUv;
uniform mat4 uViewProjection;
uniform float uCutY;  // the cut-away: only y >= uCutY is drawn (-1e30: everything)
out vec2 vUv;

void main() {
  gl_Position = uViewProjection * vec4(aPosition, 1.0);
  gl_ClipDistance[0] = aPosition.y - uCutY;
  vUv = aUv;
}
