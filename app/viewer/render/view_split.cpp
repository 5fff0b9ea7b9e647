#include "viewer/render/view_split.hpp"

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

}  // namespace gvflab::viewer
