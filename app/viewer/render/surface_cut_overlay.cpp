#include "viewer/render/surface_cut_overlay.hpp"

#include <algorithm>
#include <glm/geometric.hpp>

#include "io/snake_palette.hpp"

namespace gvflab::viewer {
namespace {
constexpr float kLineHalfWidth = 1.2f;  // screen pixels, as the 2D snakes' lines
constexpr float kOutlineHalfWidth = 2.7f;
constexpr float kOutline[4] = {0.0f, 0.0f, 0.0f, 0.8f};
constexpr float kDraft[4] = {1.0f, 1.0f, 1.0f, 0.9f};
}  // namespace

// Each segment as two triangles halfWidth (image pixels) to either side, ends extended by as
// much so that neighbouring segments join without gaps.
void SurfaceCutOverlay::drawQuads(const std::vector<glm::vec2>& segments, float halfWidth,
                                  const float color[4]) {
  std::vector<glm::vec2> tris;
  tris.reserve(segments.size() * 3);
  for (std::size_t i = 0; i + 1 < segments.size(); i += 2) {
    glm::vec2 a = segments[i], b = segments[i + 1];
    const glm::vec2 d = b - a;
    const float len = glm::length(d);
    if (len <= 0) continue;
    const glm::vec2 t = d / len * halfWidth, n(-t.y, t.x);
    a -= t, b += t;
    tris.insert(tris.end(), {a + n, a - n, b + n, b + n, a - n, b - n});
  }
  lines_.draw(GL_TRIANGLES, tris, color);
}

void SurfaceCutOverlay::draw(const Viewport& viewport, const ViewTransform& view,
                             const std::vector<SurfaceCut>& cuts,
                             const std::vector<glm::vec2>& draft) {
  lines_.begin(viewport, view);
  const float toImage = 1.0f / std::max(view.pixelsPerImagePixel(), 1e-6f);
  for (const SurfaceCut& c : cuts) drawQuads(c.segments, kOutlineHalfWidth * toImage, kOutline);
  for (const SurfaceCut& c : cuts) {
    const SnakeRgba color = forceColor(c.force);
    drawQuads(c.segments, (c.selected ? 1.5f : 1.0f) * kLineHalfWidth * toImage, color.data());
  }
  std::vector<glm::vec2> ring;
  for (std::size_t i = 0; i + 1 < draft.size(); ++i)
    ring.push_back(draft[i]), ring.push_back(draft[i + 1]);
  drawQuads(ring, kLineHalfWidth * toImage, kDraft);
  endOverlayDraw();
}

}  // namespace gvflab::viewer
