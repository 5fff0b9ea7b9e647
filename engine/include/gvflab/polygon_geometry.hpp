#pragma once
// Exact integer tests on segments and closed polygons, shared by the region snake (start
// polygon, node insertion) and its double-precision reference: one routine for "is this
// polygon simple", so the two cannot drift apart. No OpenCL here.
#include <vector>

#include "gvflab/region_types.hpp"

namespace gvflab {

// Segments p–q and r–s intersect (touching counts).
bool segmentsIntersect(Point2i p, Point2i q, Point2i r, Point2i s);
// Segments q–u and q–v that share q overlap beyond it (fold back on each other).
bool sharedEndOverlap(Point2i q, Point2i u, Point2i v);
// True when no two non-adjacent segments of the closed polygon meet and adjacent ones do not
// fold back: what the region snake keeps true at every move.
bool polygonIsSimple(const std::vector<Point2i>& poly);

}  // namespace gvflab
