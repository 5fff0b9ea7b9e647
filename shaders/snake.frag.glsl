#version 330 core
// One colour per draw (the snake's state); points are drawn as round dots.
uniform vec4 uColor;
uniform bool uRound;
out vec4 fragColor;

void main() {
  if (uRound && length(gl_PointCoord - vec2(0.5)) > 0.5) discard;
  fragColor = uColor;
}
