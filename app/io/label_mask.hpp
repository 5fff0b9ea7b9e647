#pragma once
// --save-mask: a label image of the input's size and geometry, where the pixels inside snake k
// hold k (1..N, in the snakes' order: --session's, then --snake's; where snakes overlap, the
// later one wins) and the others 0; for the region snake, its inside holds 1.
//
// Rasterisation of a contour by pixel centres, by the nonzero winding rule (the region snake's
// rule, region_types.hpp): pixel (i, j) is inside when the contour winds around its centre
// (i + 0.5, j + 0.5), so a loop a snake folds over itself stays inside. Points are pixel
// coordinates (origin at the image's top-left corner, y down). A centre exactly on an edge
// follows the region snake's rule: inside on a right or top edge, outside on a left or bottom
// edge, so the square with corners at the centres of pixels (a, a) and (b, b) covers b - a
// pixels a side (columns a+1..b, rows a..b-1) and two polygons that share an edge never both
// hold a pixel. Computed in double precision.
#include <array>
#include <cstdint>
#include <vector>

#include "gvflab/region_types.hpp"
#include "gvflab/world_geometry.hpp"

namespace gvflab::app {

struct LabelImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint16_t> labels;  // width * height, row-major, origin top-left
  int maxLabel = 0;                   // the largest label it may hold (8 or 16 bits on files)
  WorldGeometry geometry;             // the input's

  LabelImage() = default;
  LabelImage(int w, int h) : width(w), height(h), labels(static_cast<std::size_t>(w) * h, 0) {}
  std::uint16_t at(int x, int y) const { return labels[static_cast<std::size_t>(y) * width + x]; }
};

// One byte a pixel, 1 inside the polygon (the rule above), 0 outside.
std::vector<std::uint8_t> polygonInside(int width, int height,
                                        const std::vector<std::array<double, 2>>& polygon);

// The contours labelled 1..N in their order (the later wins where they overlap).
LabelImage labelContours(int width, int height,
                         const std::vector<std::vector<std::array<double, 2>>>& contours,
                         const WorldGeometry& geometry);

// The region snake's inside, exactly the pixels it counts as its target (its nodes are pixel
// indices, region_types.hpp), labelled 1.
LabelImage regionLabel(int width, int height, const std::vector<Point2i>& nodes,
                       const WorldGeometry& geometry);

}  // namespace gvflab::app
