#include "viewer/model/streamlines.hpp"

#include <algorithm>
#include <cmath>

namespace gvflab::viewer {
namespace {

// Bilinear sample at p (image pixels, centres at i + 0.5), clamped to the border pixels.
glm::vec2 sample(const std::vector<float>& f, int w, int h, glm::vec2 p) {
  float x = std::clamp(p.x - 0.5f, 0.0f, static_cast<float>(w - 1));
  float y = std::clamp(p.y - 0.5f, 0.0f, static_cast<float>(h - 1));
  int x0 = std::min(static_cast<int>(x), w - 2 < 0 ? 0 : w - 2),
      y0 = std::min(static_cast<int>(y), h - 2 < 0 ? 0 : h - 2);
  int x1 = std::min(x0 + 1, w - 1), y1 = std::min(y0 + 1, h - 1);
  float ax = x - x0, ay = y - y0;
  auto at = [&](int xi, int yi) {
    std::size_t i = 2 * (static_cast<std::size_t>(yi) * w + xi);
    return glm::vec2(f[i], f[i + 1]);
  };
  return (1 - ay) * ((1 - ax) * at(x0, y0) + ax * at(x1, y0)) +
         ay * ((1 - ax) * at(x0, y1) + ax * at(x1, y1));
}

void trace(const std::vector<float>& f, int w, int h, glm::vec2 p, float dir,
           const StreamlineParams& s, std::vector<glm::vec2>& out) {
  auto unit = [&](glm::vec2 q, glm::vec2& u) {
    glm::vec2 v = sample(f, w, h, q);
    float m = std::hypot(v.x, v.y);
    if (!(m > s.minMagnitude)) return false;
    u = v * (dir / m);
    return true;
  };
  for (int i = 0; i < s.maxSteps; ++i) {
    glm::vec2 u1, u2;
    if (!unit(p, u1) || !unit(p + 0.5f * s.step * u1, u2)) return;
    if (u1.x * u2.x + u1.y * u2.y < 0) return;  // a sink: the direction flips
    p += s.step * u2;
    if (p.x < 0 || p.y < 0 || p.x > static_cast<float>(w) || p.y > static_cast<float>(h)) return;
    out.push_back(p);
  }
}

}  // namespace

std::vector<std::vector<glm::vec2>> traceStreamlines(const std::vector<float>& field, int width,
                                                     int height, const StreamlineParams& params) {
  std::vector<std::vector<glm::vec2>> lines;
  if (width < 2 || height < 2 || field.size() < 2u * width * height) return lines;
  const float sp = std::max(params.spacing, 2.0f);
  for (float y = sp * 0.5f; y < static_cast<float>(height); y += sp)
    for (float x = sp * 0.5f; x < static_cast<float>(width); x += sp) {
      std::vector<glm::vec2> back, fwd;
      trace(field, width, height, {x, y}, -1.0f, params, back);
      trace(field, width, height, {x, y}, 1.0f, params, fwd);
      std::vector<glm::vec2> line(back.rbegin(), back.rend());
      line.push_back({x, y});
      line.insert(line.end(), fwd.begin(), fwd.end());
      if (line.size() >= 2) lines.push_back(std::move(line));
    }
  return lines;
}

}  // namespace gvflab::viewer
