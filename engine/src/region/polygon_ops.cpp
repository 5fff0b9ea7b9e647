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

int insertMidpoints(std::vector<Point2i>& s, double minSegment) {
  // Segment by segment, each midpoint checked against the polygon as it is at that moment,
  // earlier insertions included: two midpoints of nearby segments may meet each other.
  const std::size_t n = s.size();
  int added = 0;
  std::size_t pos = 0;  // index of the current segment's start in s
  for (std::size_t seg = 0; seg < n; ++seg) {
    const std::size_t size = s.size();
    const Point2i a = s[pos], b = s[(pos + 1) % size];
    const Point2i m{(a.x + b.x) >> 1, (a.y + b.y) >> 1};
    bool ok = std::hypot(double(b.x - a.x), double(b.y - a.y)) > minSegment && !(m == a) &&
              !(m == b);
    for (std::size_t j = 0; j < size && ok; ++j) {
      if (j == pos) continue;
      const Point2i c = s[j], d = s[(j + 1) % size];
      if (j == (pos + size - 1) % size ? foldBack(a, m, c) : meet(a, m, c, d)) ok = false;
      if (j == (pos + 1) % size ? foldBack(b, m, d) : meet(m, b, c, d)) ok = false;
    }
    if (ok) {
      s.insert(s.begin() + static_cast<std::ptrdiff_t>(pos) + 1, m);
      ++added, ++pos;
    }
    ++pos;
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
