#include "gvflab/polygon_geometry.hpp"

#include <algorithm>
#include <cstdint>

namespace gvflab {
namespace {

std::int64_t cross(Point2i o, Point2i a, Point2i b) {
  return std::int64_t(a.x - o.x) * (b.y - o.y) - std::int64_t(a.y - o.y) * (b.x - o.x);
}

int sgn(std::int64_t v) { return (v > 0) - (v < 0); }

bool onSegment(Point2i p, Point2i q, Point2i r) {  // r collinear with p–q
  return std::min(p.x, q.x) <= r.x && r.x <= std::max(p.x, q.x) && std::min(p.y, q.y) <= r.y &&
         r.y <= std::max(p.y, q.y);
}

}  // namespace

bool segmentsIntersect(Point2i p, Point2i q, Point2i r, Point2i s) {
  // Bounding boxes first: most pairs are far apart.
  if (std::max(p.x, q.x) < std::min(r.x, s.x) || std::max(r.x, s.x) < std::min(p.x, q.x) ||
      std::max(p.y, q.y) < std::min(r.y, s.y) || std::max(r.y, s.y) < std::min(p.y, q.y))
    return false;
  const int o1 = sgn(cross(p, q, r)), o2 = sgn(cross(p, q, s));
  const int o3 = sgn(cross(r, s, p)), o4 = sgn(cross(r, s, q));
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 == 0 && onSegment(p, q, r)) || (o2 == 0 && onSegment(p, q, s)) ||
         (o3 == 0 && onSegment(r, s, p)) || (o4 == 0 && onSegment(r, s, q));
}

bool sharedEndOverlap(Point2i q, Point2i u, Point2i v) {
  const std::int64_t dot =
      std::int64_t(u.x - q.x) * (v.x - q.x) + std::int64_t(u.y - q.y) * (v.y - q.y);
  return cross(q, u, v) == 0 && dot > 0;
}

bool polygonIsSimple(const std::vector<Point2i>& s) {
  const int n = static_cast<int>(s.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const Point2i a = s[i], b = s[(i + 1) % n], c = s[j], d = s[(j + 1) % n];
      if (j == i + 1) {
        if (sharedEndOverlap(b, a, d)) return false;
      } else if (i == 0 && j == n - 1) {
        if (sharedEndOverlap(a, b, c)) return false;
      } else if (segmentsIntersect(a, b, c, d)) {
        return false;
      }
    }
  return true;
}

}  // namespace gvflab
