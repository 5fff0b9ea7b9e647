#pragma once
// Plain C++ version of the region snake (prefix sums, segment contributions, criterion, the
// step with its even/odd phases, node insertion). Exact integers and double precision; the
// tests compare the device with it. Never the product path.
#include <cstdint>
#include <vector>

#include "gvflab/polygon_geometry.hpp"
#include "gvflab/region_types.hpp"

namespace gvflab::reference {

// Row prefix sums ("cumulated images"): cz(x, y) = Σ_{k<=x} z(k, y), cz2 with z².
struct RegionPrefix {
  int width = 0;
  int height = 0;
  std::vector<std::uint32_t> cz;
  std::vector<std::uint64_t> cz2;
  RegionSums total;  // the whole image
};
RegionPrefix regionPrefix(const std::uint16_t* z, int width, int height);

// Signed contribution of the segment a→b (see region_types.hpp), for a polygon of the given
// orientation (+1 or −1, the sign of its shoelace area in image coordinates).
RegionSums segmentContribution(const RegionPrefix& p, Point2i a, Point2i b, int orientation);
int polygonOrientation(const std::vector<Point2i>& poly);
// Sums inside the polygon by its contour.
RegionSums polygonSums(const RegionPrefix& p, const std::vector<Point2i>& poly);
// The inside rule, pixel by pixel (1 inside): to check the contour sums and for IoU.
std::vector<std::uint8_t> polygonMask(int width, int height, const std::vector<Point2i>& poly);

// The segment and simplicity tests are the product's own (polygon_geometry.hpp): one routine,
// checked against brute-force cases in test_region_reference.cpp and test_polygon_ops.cpp.
using gvflab::polygonIsSimple;
using gvflab::segmentsIntersect;
using gvflab::sharedEndOverlap;
// Moving node i to p keeps the polygon simple (and p differs from both neighbours).
bool moveKeepsSimple(const std::vector<Point2i>& poly, int i, Point2i p);

// The whole snake, phase for phase as the device runs it: per step the nodes are visited in
// phases of non-adjacent nodes (even, odd, and the last one alone when the count is odd); in a
// phase every node picks its best of 8 neighbours at distance d against the current polygon,
// moves whose new segments meet each other are dropped, and the remaining moves are applied
// together when their joint criterion is better, else only the single best one.
struct RegionRun {
  std::vector<Point2i> nodes;
  RegionStats stats;
};
RegionRun runRegionSnake(const RegionPrefix& p, std::vector<Point2i> start,
                         const RegionSnakeParams& params);

// One step (all phases) at distance d; returns the number of moves applied.
int regionStep(const RegionPrefix& p, std::vector<Point2i>& nodes, int d, NoiseModel model);
// Inserts rounded midpoints into segments longer than minSegment, visiting the segments in
// order and skipping a midpoint whose new segments would meet the polygon as it is by then
// (earlier insertions included); returns how many were added.
int insertNodes(std::vector<Point2i>& nodes, double minSegment);

}  // namespace gvflab::reference
