#version 330 core
// A surface in its state's colour, lit by a head light (Blinn-Phong on the vertex normals,
// both sides lit so the inside of an open cut still reads); uLit = false: flat colour (lines).
uniform vec4 uColor;
uniform bool uLit;
in vec3 vNormal;
in vec3 vPosition;
out vec4 fragColor;

void main() {
  if (!uLit) {
    fragColor = uColor;
    return;
  }
  vec3 n = normalize(vNormal);
  vec3 toEye = normalize(-vPosition);
  float lambert = abs(dot(n, toEye));
  vec3 h = normalize(toEye + vec3(0.3, 0.5, 0.0));
  float specular = pow(max(abs(dot(n, h)), 0.0), 40.0) * 0.25;
  vec3 c = uColor.rgb * (0.28 + 0.72 * lambert) + vec3(specular);
  fragColor = vec4(min(c, vec3(1.0)), uColor.a);
}
