#include "gvflab/polygon_fill.hpp"

#include <algorithm>
#include <cmath>

namespace gvflab {

std::vector<std::uint8_t> polygonInside(int width, int height,
                                        const std::vector<std::array<double, 2>>& polygon) {
  std::vector<std::uint8_t> inside(static_cast<std::size_t>(width) * height, 0);
  const std::size_t n = polygon.size();
  if (n < 3 || width <= 0 || height <= 0) return inside;
  // winding[k + 1]: the signed crossings counted by every pixel x <= k of the row.
  std::vector<int> winding(static_cast<std::size_t>(width) + 1);
  for (int y = 0; y < height; ++y) {
    const double cy = y + 0.5;
    std::fill(winding.begin(), winding.end(), 0);
    bool any = false;
    for (std::size_t e = 0; e < n; ++e) {
      const auto& a = polygon[e];
      const auto& b = polygon[(e + 1) % n];
      // Rows whose centre is in [min y, max y): a vertex on the row counts once, a horizontal
      // edge never.
      if (a[1] == b[1] || cy < std::min(a[1], b[1]) || cy >= std::max(a[1], b[1])) continue;
      const double cx = a[0] + (cy - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
      // Pixels whose centre x + 0.5 is left of the crossing or on it: x <= cx - 0.5.
      const double last = std::floor(cx - 0.5);
      const int k = static_cast<int>(std::clamp(last, -1.0, static_cast<double>(width - 1)));
      winding[static_cast<std::size_t>(k + 1)] += b[1] > a[1] ? 1 : -1;
      any = true;
    }
    if (!any) continue;
    int w = 0;
    for (int x = width - 1; x >= 0; --x) {
      w += winding[static_cast<std::size_t>(x + 1)];
      inside[static_cast<std::size_t>(y) * width + x] = w != 0;
    }
  }
  return inside;
}

}  // namespace gvflab
