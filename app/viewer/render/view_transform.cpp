#include "viewer/render/view_transform.hpp"

#include <algorithm>

namespace gvflab::viewer {

float ViewTransform::pixelsPerImagePixel() const {
  if (imageSize.x <= 0 || imageSize.y <= 0 || viewSize.x <= 0 || viewSize.y <= 0) return 1;
  return std::min(viewSize.x / imageSize.x, viewSize.y / imageSize.y) * zoom;
}

Vec2 ViewTransform::imageToScreen(Vec2 p) const {
  float s = pixelsPerImagePixel();
  return {viewSize.x / 2 + pan.x + (p.x - imageSize.x / 2) * s,
          viewSize.y / 2 + pan.y + (p.y - imageSize.y / 2) * s};
}

Vec2 ViewTransform::screenToImage(Vec2 q) const {
  float s = pixelsPerImagePixel();
  return {(q.x - viewSize.x / 2 - pan.x) / s + imageSize.x / 2,
          (q.y - viewSize.y / 2 - pan.y) / s + imageSize.y / 2};
}

std::array<float, 4> ViewTransform::imageToNdc() const {
  float s = pixelsPerImagePixel();
  Vec2 origin = imageToScreen({0, 0});
  float w = std::max(viewSize.x, 1.0f), h = std::max(viewSize.y, 1.0f);
  return {2 * s / w, -2 * s / h, 2 * origin.x / w - 1, 1 - 2 * origin.y / h};
}

void ViewTransform::zoomAround(Vec2 q, float factor) {
  Vec2 anchor = screenToImage(q);
  zoom = std::clamp(zoom * factor, 0.1f, 1024.0f);
  Vec2 moved = imageToScreen(anchor);
  pan.x += q.x - moved.x;
  pan.y += q.y - moved.y;
}

void ViewTransform::actualPixels() {
  float now = pixelsPerImagePixel();
  if (now > 0) zoomAround({viewSize.x / 2, viewSize.y / 2}, 1.0f / now);
}

}  // namespace gvflab::viewer
