#include "region/polygon_ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gvflab::detail {
namespace {

std::int64_t cross(Point2i o, Point2i a, Point2i b) {
  return std::int64_t(a.x - o.x) * (b.y - o.y) - std::int64_t(a.y - o.y) * (b.x - o.x);
}
int sgn(std::int64_t v) { return (v > 0) - (v < 0); }
bool within(Point2i p, Point2i q, Point2i r) {
  return std::min(p.x, q.x) <= r.x && r.x <= std::max(p.x, q.x) && std::min(p.y, q.y) <= r.y &&
         r.y <= std::max(p.y, q.y);
}
bool meet(Point2i p, Point2i q, Point2i r, Point2i s) {
  // Bounding boxes first: most pairs are far apart.
  if (std::max(p.x, q.x) < std::min(r.x, s.x) || std::max(r.x, s.x) < std::min(p.x, q.x) ||
      std::max(p.y, q.y) < std::min(r.y, s.y) || std::max(r.y, s.y) < std::min(p.y, q.y))
    return false;
  const int o1 = sgn(cross(p, q, r)), o2 = sgn(cross(p, q, s));
  const int o3 = sgn(cross(r, s, p)), o4 = sgn(cross(r, s, q));
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 == 0 && within(p, q, r)) || (o2 == 0 && within(p, q, s)) ||
         (o3 == 0 && within(r, s, p)) || (o4 == 0 && within(r, s, q));
}
bool foldBack(Point2i q, Point2i u, Point2i v) {
  const std::int64_t dot =
      std::int64_t(u.x - q.x) * (v.x - q.x) + std::int64_t(u.y - q.y) * (v.y - q.y);
  return cross(q, u, v) == 0 && dot > 0;
}

}  // namespace

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
      lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)}, hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
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
    bool ok = std::hypot(double(b.x - a.x), double(b.y - a.y)) > minSegment && !(m == a) &&
              !(m == b);
    if (ok) {
      seen.clear();
      grid.forCells(a, b, [&](std::vector<int>& c) { seen.insert(seen.end(), c.begin(), c.end()); });
      for (const int j : seen) {
        if (j == i) continue;
        const Point2i c = pts[j], d = pts[next[j]];
        if ((j == prev[i] ? foldBack(a, m, c) : meet(a, m, c, d)) ||
            (j == next[i] ? foldBack(b, m, d) : meet(m, b, c, d))) {
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

bool isSimplePolygon(const std::vector<Point2i>& s) {
  const int n = static_cast<int>(s.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const Point2i a = s[i], b = s[(i + 1) % n], c = s[j], d = s[(j + 1) % n];
      if (j == i + 1) {
        if (foldBack(b, a, d)) return false;
      } else if (i == 0 && j == n - 1) {
        if (foldBack(a, b, c)) return false;
      } else if (meet(a, b, c, d)) {
        return false;
      }
    }
  return true;
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
