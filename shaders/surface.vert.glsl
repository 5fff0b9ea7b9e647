#version 330 core
// The 3D view's surfaces (and the volume's outline): positions in voxel coordinates, with
// their vertex normals, to clip space through the orbit camera.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
uniform mat4 uViewProjection;
uniform float uCutY;  // the cut-away: only y >= uCutY is drawn (-1e30: everything)
uniform mat4 uView;
out vec3 vNormal;  // in view space, for a light at the eye
out vec3 vPosition;

void main() {
  gl_Position = uViewProjection * vec4(aPosition, 1.0);
  gl_ClipDistance[0] = aPosition.y - uCutY;
  vNormal = mat3(uView) * aNormal;
  vPosition = (uView * vec4(aPosition, 1.0)).xyz;
}
