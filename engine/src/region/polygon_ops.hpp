#pragma once
// Host-side polygon operations of the region snake that run once per iteration (node
// insertion; the start polygon's check is polygonIsSimple in polygon_geometry.hpp). Integer
// exact.
#include <vector>

#include "gvflab/region_types.hpp"

namespace gvflab::detail {

// Inserts the rounded midpoint of every segment longer than minSegment, unless the two new
// segments would meet the polygon, earlier insertions of this call included (segments in
// order from node 0), so a simple polygon stays simple. Returns the number of nodes added.
int insertMidpoints(std::vector<Point2i>& nodes, double minSegment);

// +1 or −1: the sign of the shoelace sum in image coordinates (+1 for the default rectangle).
int orientationOf(const std::vector<Point2i>& nodes);

}  // namespace gvflab::detail
