#pragma once
// --save-mask: a label image of the input's size and geometry, where the pixels inside snake k
// hold k (1..N, in the snakes' order: --session's, then --snake's; where snakes overlap, the
// later one wins) and the others 0; for the region snake, its inside holds 1.
//
// Rasterisation by pixel centres: gvflab/polygon_fill.hpp (the region snake's rule).
#include <array>
#include <cstdint>
#include <vector>

#include "gvflab/polygon_fill.hpp"
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

// The contours labelled 1..N in their order (the later wins where they overlap).
LabelImage labelContours(int width, int height,
                         const std::vector<std::vector<std::array<double, 2>>>& contours,
                         const WorldGeometry& geometry);

// The region snake's inside, exactly the pixels it counts as its target (its nodes are pixel
// indices, region_types.hpp), labelled 1.
LabelImage regionLabel(int width, int height, const std::vector<Point2i>& nodes,
                       const WorldGeometry& geometry);

}  // namespace gvflab::app
