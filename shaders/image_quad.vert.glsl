#version 330 core
// A quad covering the image, [0, size] in image pixels (y down), mapped to clip space by
// uImageToNdc = (scale.xy, offset.xy). No vertex buffer: the corner comes from gl_VertexID.
uniform vec2 uImageSize;
uniform vec4 uImageToNdc;
out vec2 vUv;  // (0, 0) = top-left pixel corner, texture row 0 = image row 0

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  vec2 pixel = corner * uImageSize;
  vUv = corner;
  gl_Position = vec4(pixel * uImageToNdc.xy + uImageToNdc.zw, 0.0, 1.0);
}
