#version 330 core
// Snake polylines and node dots: positions in image pixels (x right, y down, origin at the
// top-left corner of the image), mapped to clip space like the image quad.
layout(location = 0) in vec2 aPosition;
uniform vec4 uImageToNdc;
uniform float uPointSize;  // framebuffer pixels, for GL_POINTS

void main() {
  gl_Position = vec4(aPosition * uImageToNdc.xy + uImageToNdc.zw, 0.0, 1.0);
  gl_PointSize = uPointSize;
}
