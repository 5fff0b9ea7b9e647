#include "region/polygon_ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "gvflab/polygon_geometry.hpp"

namespace gvflab::detail {
namespace {

// Segments of a polygon binned by the grid cells their bounding boxes cover, so that a test
// against "every segment" only visits those near the box it asks about. Ids are stable.
class SegmentGrid {
 public:
  SegmentGrid(const std::vector<Point2i>& s, std::size_t capacity) {
    Point2i lo = s[0], hi = s[0];
    double length = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const Point2i p = s[i], q = s[(i + 1) % s.size()];
      lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)},
      hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
      length += std::hypot(double(q.x - p.x), double(q.y - p.y));
    }
    origin_ = lo;
    // Cells about a segment long, and not many more cells than segments.
    cell_ = std::max(8, static_cast<int>(length / static_cast<double>(s.size())));
    for (;;) {
      cols_ = (hi.x - lo.x) / cell_ + 1, rows_ = (hi.y - lo.y) / cell_ + 1;
      if (std::size_t(cols_) * std::size_t(rows_) <= 4 * capacity + 64) break;
      cell_ *= 2;
    }
    cells_.resize(std::size_t(cols_) * std::size_t(rows_));
  }
  template <class F>
  void forCells(Point2i a, Point2i b, F&& f) {
    const int x0 = std::clamp((std::min(a.x, b.x) - origin_.x) / cell_, 0, cols_ - 1);
    const int x1 = std::clamp((std::max(a.x, b.x) - origin_.x) / cell_, 0, cols_ - 1);
    const int y0 = std::clamp((std::min(a.y, b.y) - origin_.y) / cell_, 0, rows_ - 1);
    const int y1 = std::clamp((std::max(a.y, b.y) - origin_.y) / cell_, 0, rows_ - 1);
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) f(cells_[std::size_t(y) * cols_ + x]);
  }
  void add(int id, Point2i a, Point2i b) {
    forCells(a, b, [&](std::vector<int>& c) { c.push_back(id); });
  }

 private:
  Point2i origin_{};
  int cell_ = 8, cols_ = 1, rows_ = 1;
  std::vector<std::vector<int>> cells_;
};

}  // namespace

int insertMidpoints(std::vector<Point2i>& s, double minSegment) {
  // Segment by segment, each midpoint checked against the polygon as it is at that moment,
  // earlier insertions included: two midpoints of nearby segments may meet each other.
  // The polygon is a linked list (segment id = its start node) over a grid of segments:
  // both new segments lie in the old one's box, so only segments meeting that box count.
  const int n = static_cast<int>(s.size());
  std::vector<Point2i> pts = s;
  std::vector<int> next(n), prev(n);
  pts.reserve(2 * n), next.reserve(2 * n), prev.reserve(2 * n);
  for (int i = 0; i < n; ++i) next[i] = (i + 1) % n, prev[i] = (i + n - 1) % n;
  SegmentGrid grid(s, 2 * s.size());
  for (int i = 0; i < n; ++i) grid.add(i, pts[i], pts[next[i]]);
  std::vector<int> seen;  // candidates of one query (a segment may sit in several cells)
  int added = 0;
  for (int i = 0; i < n; ++i) {
    const Point2i a = pts[i], b = pts[next[i]];
    const Point2i m{(a.x + b.x) >> 1, (a.y + b.y) >> 1};
    bool ok =
        std::hypot(double(b.x - a.x), double(b.y - a.y)) > minSegment && !(m == a) && !(m == b);
    if (ok) {
      seen.clear();
      grid.forCells(a, b,
                    [&](std::vector<int>& c) { seen.insert(seen.end(), c.begin(), c.end()); });
      for (const int j : seen) {
        if (j == i) continue;
        const Point2i c = pts[j], d = pts[next[j]];
        if ((j == prev[i] ? sharedEndOverlap(a, m, c) : segmentsIntersect(a, m, c, d)) ||
            (j == next[i] ? sharedEndOverlap(b, m, d) : segmentsIntersect(m, b, c, d))) {
          ok = false;
          break;
        }
      }
    }
    if (ok) {
      const int k = static_cast<int>(pts.size());
      pts.push_back(m), next.push_back(next[i]), prev.push_back(i);
      prev[next[i]] = k, next[i] = k;
      grid.add(k, m, b);  // segment i is now (a, m), inside its old cells
      ++added;
    }
  }
  if (added > 0) {
    s.clear();
    int v = 0;
    do s.push_back(pts[v]), v = next[v];
    while (v != 0);
  }
  return added;
}

int orientationOf(const std::vector<Point2i>& s) {
  std::int64_t a = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const Point2i p = s[i], q = s[(i + 1) % s.size()];
    a += std::int64_t(p.x) * q.y - std::int64_t(q.x) * p.y;
  }
  return a >= 0 ? 1 : -1;
}

}  // namespace gvflab::detail
