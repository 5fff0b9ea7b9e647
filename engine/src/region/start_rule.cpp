#include "region/start_rule.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "gvflab/polygon_fill.hpp"

namespace gvflab::detail {
namespace {

constexpr int kSmooth = 2;  // the 5 x 5 mean's half side

using Grid = std::vector<std::uint8_t>;

// Erosion by a (2r + 1)² square (outside the box counts as empty), separable.
Grid erode(const Grid& in, int w, int h, int r) {
  Grid rows(in.size()), out(in.size());
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

// The mean over the (2r + 1)² square clipped to the box, from a summed-area table.
std::vector<double> boxMean(const std::vector<std::uint16_t>& z, int w, int h, int r) {
  std::vector<double> sat(std::size_t(w + 1) * (h + 1), 0.0), out(z.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      sat[std::size_t(y + 1) * (w + 1) + x + 1] =
          z[std::size_t(y) * w + x] + sat[std::size_t(y) * (w + 1) + x + 1] +
          sat[std::size_t(y + 1) * (w + 1) + x] - sat[std::size_t(y) * (w + 1) + x];
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int a = std::max(0, x - r), b = std::max(0, y - r);
      const int c = std::min(w, x + r + 1), d = std::min(h, y + r + 1);
      const double sum = sat[std::size_t(d) * (w + 1) + c] - sat[std::size_t(b) * (w + 1) + c] -
                         sat[std::size_t(d) * (w + 1) + a] + sat[std::size_t(b) * (w + 1) + a];
      out[std::size_t(y) * w + x] = sum / (double(c - a) * (d - b));
    }
  return out;
}

// The largest 4-connected set of ones: its cells and its box.
struct Component {
  std::vector<int> cells;
  PixelBox box{0, 0, -1, -1};
};

Component largestComponent(Grid grid, int w, int h) {
  Component best;
  std::vector<int> stack;
  for (int seed = 0; seed < w * h; ++seed) {
    if (!grid[seed]) continue;
    Component c;
    c.box = {seed % w, seed / w, seed % w, seed / w};
    grid[seed] = 0;
    stack.push_back(seed);
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      c.cells.push_back(i);
      const int x = i % w, y = i / w;
      c.box.x0 = std::min(c.box.x0, x), c.box.y0 = std::min(c.box.y0, y);
      c.box.x1 = std::max(c.box.x1, x), c.box.y1 = std::max(c.box.y1, y);
      const int next[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
      for (const auto& [nx, ny] : next)
        if (nx >= 0 && ny >= 0 && nx < w && ny < h && grid[std::size_t(ny) * w + nx]) {
          grid[std::size_t(ny) * w + nx] = 0;
          stack.push_back(ny * w + nx);
        }
    }
    if (c.cells.size() > best.cells.size()) best = std::move(c);
  }
  return best;
}

// Chessboard distance of each cell to the nearest cell outside the set (two passes).
std::vector<int> chessboardDistance(const std::vector<int>& cells, int w, int h) {
  std::vector<int> d(std::size_t(w) * h, 0);
  for (int i : cells) d[i] = w + h;
  auto at = [&](int x, int y) { return x < 0 || y < 0 || x >= w || y >= h ? 0 : d[y * w + x]; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (d[y * w + x])
        d[y * w + x] =
            1 + std::min({at(x - 1, y), at(x - 1, y - 1), at(x, y - 1), at(x + 1, y - 1)});
  for (int y = h - 1; y >= 0; --y)
    for (int x = w - 1; x >= 0; --x)
      if (d[y * w + x])
        d[y * w + x] = std::min(d[y * w + x], 1 + std::min({at(x + 1, y), at(x + 1, y + 1),
                                                            at(x, y + 1), at(x - 1, y + 1)}));
  return d;
}

}  // namespace

PixelBox startBox(const std::vector<Point2i>& start) {
  PixelBox b{start[0].x, start[0].y, start[0].x, start[0].y};
  for (const auto& p : start) {
    b.x0 = std::min(b.x0, p.x), b.y0 = std::min(b.y0, p.y);
    b.x1 = std::max(b.x1, p.x), b.y1 = std::max(b.y1, p.y);
  }
  return b;
}

std::optional<std::vector<Point2i>> startAroundObject(const std::vector<Point2i>& start,
                                                      std::int64_t resultPixels,
                                                      const std::vector<std::uint16_t>& z) {
  const PixelBox box = startBox(start);
  const int w = box.width(), h = box.height();
  if (box.pixels() > kMaxStartBoxPixels || z.size() != std::size_t(box.pixels()))
    return std::nullopt;
  // The start's pixels (nodes on pixel centres, the region snake's rule).
  std::vector<std::array<double, 2>> shifted;
  for (const auto& p : start) shifted.push_back({p.x - box.x0 + 0.5, p.y - box.y0 + 0.5});
  const Grid inside = polygonInside(w, h, shifted);
  std::int64_t startPixels = 0;
  for (std::uint8_t v : inside) startPixels += v;
  if (resultPixels * 10 <= startPixels * 11) return std::nullopt;  // not bigger than its start
  const int band = std::max(2, std::min(w, h) / 16);
  const Grid core = erode(inside, w, h, band);
  // The band's grey levels.
  double n = 0, s1 = 0, s2 = 0;
  for (std::size_t i = 0; i < inside.size(); ++i)
    if (inside[i] && !core[i]) n += 1, s1 += z[i], s2 += double(z[i]) * z[i];
  if (n < 8) return std::nullopt;
  const double mean = s1 / n, sigma = std::sqrt(std::max(0.0, s2 / n - mean * mean));
  // Two of the band's standard deviations (its texture, not only its noise, which the 5 x 5
  // mean lowers), at least one grey level. A band across two regions has a wide spread, so a
  // start across an object's edge finds nothing here.
  const double limit = std::max(1.0, 2.0 * sigma);
  const std::vector<double> smooth = boxMean(z, w, h, kSmooth);
  Grid other(inside.size());
  for (std::size_t i = 0; i < inside.size(); ++i)
    other[i] = core[i] && std::abs(smooth[i] - mean) > limit;
  const Component object = largestComponent(std::move(other), w, h);
  const auto size = static_cast<std::int64_t>(object.cells.size());
  if (size < 9 || size * 50 < startPixels) return std::nullopt;  // one region throughout
  // A start inside the object, as one drawn there: the largest square in it, the one nearest
  // its centroid among equals.
  const std::vector<int> d = chessboardDistance(object.cells, w, h);
  double cx = 0, cy = 0;
  for (int i : object.cells) cx += i % w, cy += i / w;
  cx /= double(size), cy /= double(size);
  int best = object.cells.front();
  for (int i : object.cells) {
    const double di = std::hypot(i % w - cx, i / w - cy),
                 db = std::hypot(best % w - cx, best / w - cy);
    if (d[i] > d[best] || (d[i] == d[best] && di < db)) best = i;
  }
  const int half = d[best] - 1;  // the square of this half side lies in the object
  if (half < 1) return std::nullopt;
  const int x = box.x0 + best % w, y = box.y0 + best / w;
  return std::vector<Point2i>{
      {x - half, y - half}, {x + half, y - half}, {x + half, y + half}, {x - half, y + half}};
}

}  // namespace gvflab::detail
