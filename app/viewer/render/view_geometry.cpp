#include "viewer/render/view_geometry.hpp"

#include <algorithm>

namespace gvflab::viewer {
namespace {
constexpr int kGap = 3;  // framebuffer pixels between the two views
}

ViewSplit splitView(const Viewport& a, bool side) {
  if (!side || a.width < 2 * kGap + 2 || a.height < 2 * kGap + 2) return {a, {}};
  const int besideSquare = std::min((a.width - kGap) / 2, a.height);
  const int stackedSquare = std::min(a.width, (a.height - kGap) / 2);
  if (besideSquare >= stackedSquare) {
    const int left = (a.width - kGap) / 2;
    return {{a.x, a.y, left, a.height}, {a.x + left + kGap, a.y, a.width - left - kGap, a.height}};
  }
  const int top = (a.height - kGap) / 2;
  const int bottom = a.height - top - kGap;
  return {{a.x, a.y + bottom + kGap, a.width, top}, {a.x, a.y, a.width, bottom}};
}

bool inSideView(const ViewSplit& s, const Viewport& a, float x, float y) {
  if (s.side.width <= 0) return false;
  // The side view in top-left coordinates of the area.
  const float left = static_cast<float>(s.side.x - a.x);
  const float top = static_cast<float>(a.y + a.height - (s.side.y + s.side.height));
  return x >= left && x < left + s.side.width && y >= top && y < top + s.side.height;
}

Viewport ViewGeometry::windowRect() const {
  return {0, 0, static_cast<int>(window.x * dpr), static_cast<int>(window.y * dpr)};
}

Viewport ViewGeometry::viewRect() const {
  return {static_cast<int>(viewLeftPixels()), 0, std::max(static_cast<int>(viewWidthPixels()), 1),
          static_cast<int>(window.y * dpr)};
}

Viewport ViewGeometry::splitArea() const {
  Viewport a = viewRect();  // GL origin: a shorter area loses its top
  if (sideView) a.height = std::max(a.height - static_cast<int>(captionBottom * dpr), 1);
  return a;
}

ViewSplit ViewGeometry::split() const { return splitView(splitArea(), sideView); }

// With the side panels hidden (Tab) the view takes the whole width; a narrow window has one
// panel (panelLayout), so the view keeps most of a projector's width.
float ViewGeometry::viewLeftPixels() const { return panelLeft * dpr; }

float ViewGeometry::viewWidthPixels() const {
  return std::max(window.x - panelLeft - panelRight, 0.0f) * dpr;
}

Vec2 ViewGeometry::toViewPixels(Vec2 logical) const {
  return {logical.x * dpr - viewLeftPixels(),
          logical.y * dpr - static_cast<float>(viewRect().height - splitArea().height)};
}

Vec2 ViewGeometry::toImage(Vec2 logical) const { return view.screenToImage(toViewPixels(logical)); }

bool ViewGeometry::overView(Vec2 logical) const {
  const float x = toViewPixels(logical).x;
  return x >= 0.0f && x < viewWidthPixels();
}

bool ViewGeometry::inSideView(Vec2 logical) const {
  const Vec2 p = toViewPixels(logical);
  return overView(logical) && viewer::inSideView(split(), splitArea(), p.x, p.y);
}

// The 3D view's own pixels (from its top-left corner), for orbit and pan.
Vec2 ViewGeometry::toSidePixels(Vec2 logical) const {
  const ViewSplit s = split();
  const Viewport a = splitArea();
  const Vec2 p = toViewPixels(logical);
  return {p.x - static_cast<float>(s.side.x - a.x),
          p.y - static_cast<float>(a.y + a.height - (s.side.y + s.side.height))};
}

float ViewGeometry::pickRadius() const {
  return 6.0f * dpr / std::max(view.pixelsPerImagePixel(), 1e-3f);
}

ViewTransform ViewGeometry::viewAt(int width, int height) const {
  // The same zoom and the same image point in the middle, at the new size.
  ViewTransform at = view;
  const float before = view.pixelsPerImagePixel();
  const Viewport slice = splitView({0, 0, width, height}, sideView).slice;
  at.viewSize = {static_cast<float>(slice.width), static_cast<float>(slice.height)};
  const float ratio = at.pixelsPerImagePixel() / std::max(before, 1e-6f);
  at.pan = {view.pan.x * ratio, view.pan.y * ratio};
  return at;
}

}  // namespace gvflab::viewer
