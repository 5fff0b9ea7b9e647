// The engine's node insertion (a segment grid over a linked polygon) against the reference's
// plain O(n²) insertion: the same polygon, node for node.
#include <doctest/doctest.h>

#include <random>

#include "gvflab/polygon_geometry.hpp"
#include "gvflab/region_reference.hpp"
#include "region/polygon_ops.hpp"
#include "region_test_support.hpp"

using namespace gvflab;

TEST_CASE("engine node insertion equals the reference's on random and crowded polygons") {
  std::mt19937 rng(11);
  int total = 0, refused = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int w = 200 + 40 * (trial % 5), nodes = 4 + 7 * trial;
    std::vector<Point2i> poly = test::randomStar(w, w, nodes, rng);
    if (trial % 3 == 2) {  // crowded: every node pulled onto a small circle's neighbourhood
      for (auto& p : poly) p = {w / 2 + (p.x - w / 2) / 8, w / 2 + (p.y - w / 2) / 8};
    }
    if (!polygonIsSimple(poly)) continue;
    for (const double minSegment : {2.0, 6.0, 16.0}) {
      std::vector<Point2i> a = poly, b = poly;
      const int addedA = detail::insertMidpoints(a, minSegment);
      const int addedB = reference::insertNodes(b, minSegment);
      CHECK(addedA == addedB);
      CHECK(a == b);
      CHECK(polygonIsSimple(a));
      total += addedA;
      for (std::size_t i = 0; i < poly.size(); ++i) {
        const Point2i p = poly[i], q = poly[(i + 1) % poly.size()];
        if (std::hypot(double(q.x - p.x), double(q.y - p.y)) > minSegment) ++refused;
      }
      refused -= addedA;
    }
  }
  CHECK(total > 1000);  // the cases insert nodes...
  CHECK(refused > 0);   // ...and refuse some that would cross the polygon
}
