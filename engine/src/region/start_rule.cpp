#include "region/start_rule.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include "gvflab/polygon_fill.hpp"

namespace gvflab::detail {
namespace {

constexpr int kSlit = 2;  // the widest slit (pixels) by which the result reaches around
// A start's box larger than this is not examined (the rule rasterises it on the host).
constexpr std::int64_t kMaxBoxPixels = std::int64_t(1) << 26;

struct Box {
  int x0, y0, x1, y1;  // inclusive
  int width() const { return x1 - x0 + 1; }
  int height() const { return y1 - y0 + 1; }
};

Box boxOf(const std::vector<Point2i>& poly) {
  Box b{poly[0].x, poly[0].y, poly[0].x, poly[0].y};
  for (const auto& p : poly) {
    b.x0 = std::min(b.x0, p.x), b.y0 = std::min(b.y0, p.y);
    b.x1 = std::max(b.x1, p.x), b.y1 = std::max(b.y1, p.y);
  }
  return b;
}

// The polygon's inside (nodes on pixel centres, the region snake's rule) over the box.
std::vector<std::uint8_t> insideOver(const std::vector<Point2i>& poly, const Box& box) {
  std::vector<std::array<double, 2>> shifted;
  for (const auto& p : poly) shifted.push_back({p.x - box.x0 + 0.5, p.y - box.y0 + 0.5});
  return polygonInside(box.width(), box.height(), shifted);
}

// Erosion by a (2r + 1)² square (outside the box counts as empty), separable.
std::vector<std::uint8_t> erode(const std::vector<std::uint8_t>& in, int w, int h, int r) {
  std::vector<std::uint8_t> rows(in.size()), out(in.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      bool all = x - r >= 0 && x + r < w;
      for (int k = -r; all && k <= r; ++k) all = in[std::size_t(y) * w + x + k] != 0;
      rows[std::size_t(y) * w + x] = all;
    }
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      bool all = y - r >= 0 && y + r < h;
      for (int k = -r; all && k <= r; ++k) all = rows[std::size_t(y + k) * w + x] != 0;
      out[std::size_t(y) * w + x] = all;
    }
  return out;
}

// The box (in the grid's coordinates) and size of the largest 4-connected set of ones.
std::pair<Box, std::int64_t> largestComponent(std::vector<std::uint8_t> grid, int w, int h) {
  Box best{0, 0, -1, -1};
  std::int64_t bestSize = 0;
  std::vector<int> stack;
  for (int start = 0; start < w * h; ++start) {
    if (!grid[start]) continue;
    Box b{start % w, start / w, start % w, start / w};
    std::int64_t size = 0;
    grid[start] = 0;
    stack.push_back(start);
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      ++size;
      const int x = i % w, y = i / w;
      b.x0 = std::min(b.x0, x), b.y0 = std::min(b.y0, y);
      b.x1 = std::max(b.x1, x), b.y1 = std::max(b.y1, y);
      const int next[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
      for (const auto& [nx, ny] : next)
        if (nx >= 0 && ny >= 0 && nx < w && ny < h && grid[std::size_t(ny) * w + nx]) {
          grid[std::size_t(ny) * w + nx] = 0;
          stack.push_back(ny * w + nx);
        }
    }
    if (size > bestSize) best = b, bestSize = size;
  }
  return {best, bestSize};
}

}  // namespace

std::optional<std::vector<Point2i>> startAroundObject(const std::vector<Point2i>& start,
                                                      const std::vector<Point2i>& result,
                                                      std::int64_t resultPixels) {
  const Box box = boxOf(start);
  const int w = box.width(), h = box.height();
  if (std::int64_t(w) * h > kMaxBoxPixels || w < 4 * kSlit + 3 || h < 4 * kSlit + 3)
    return std::nullopt;
  const std::vector<std::uint8_t> s = insideOver(start, box), r = insideOver(result, box);
  std::int64_t startPixels = 0, kept = 0;
  std::vector<std::uint8_t> left(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    startPixels += s[i];
    kept += s[i] && r[i];
    left[i] = s[i] && !r[i];
  }
  // Grown out of the start (a tenth of its size beyond it) and left part of it out.
  const bool grewOut = resultPixels - kept > startPixels / 10 && kept < startPixels * 19 / 20;
  if (!grewOut) return std::nullopt;
  // The left-out part without the slits, then grown back by as much: the object.
  const auto [part, size] = largestComponent(erode(left, w, h, kSlit), w, h);
  if (size < 9 || size < startPixels / 50) return std::nullopt;
  const Box object{part.x0 - kSlit, part.y0 - kSlit, part.x1 + kSlit, part.y1 + kSlit};
  // Away from the start's border: a start across the object's edge leaves background there.
  if (object.x0 <= kSlit || object.y0 <= kSlit || object.x1 >= w - 1 - kSlit ||
      object.y1 >= h - 1 - kSlit)
    return std::nullopt;
  // The outline of the object's pixels (nodes on the centres of its outermost pixels).
  const int x0 = box.x0 + object.x0, y0 = box.y0 + object.y0;
  const int x1 = box.x0 + object.x1, y1 = box.y0 + object.y1;
  return std::vector<Point2i>{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

}  // namespace gvflab::detail
