#pragma once
// Rasterisation of a closed contour by pixel centres, by the nonzero winding rule (the region
// snake's rule, region_types.hpp): pixel (i, j) is inside when the contour winds around its centre
// (i + 0.5, j + 0.5), so a loop a snake folds over itself stays inside. Points are pixel
// coordinates (origin at the image's top-left corner, y down). A centre exactly on an edge
// follows the region snake's rule: inside on a right or top edge, outside on a left or bottom
// edge, so the square with corners at the centres of pixels (a, a) and (b, b) covers b - a
// pixels a side (columns a+1..b, rows a..b-1) and two polygons that share an edge never both
// hold a pixel. Computed in double precision.
#include <array>
#include <cstdint>
#include <vector>

namespace gvflab {

// One byte a pixel (width x height, row-major, origin top-left), 1 inside the polygon by the
// rule above, 0 outside. Fewer than 3 points: all 0. --save-mask and gvflab.snake_mask use it.
std::vector<std::uint8_t> polygonInside(int width, int height,
                                        const std::vector<std::array<double, 2>>& polygon);

}  // namespace gvflab
