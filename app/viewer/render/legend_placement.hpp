#pragma once
// Where a legend (or caption) box goes so that it never covers the object: the snakes' boxes
// (start and current contour: the object lies within what a snake was placed around or
// travels over), then the region all snakes span, then the image. Pure geometry, one rule
// for the canvas legend (any view, panels shown or not), figures and recordings.
#include <vector>

#include "gvflab/image.hpp"
#include "gvflab/parametric_snake.hpp"
#include "viewer/render/view_transform.hpp"

namespace gvflab::viewer {

// A box in view (or picture) pixels, y down.
struct Box {
  float x = 0, y = 0, w = 0, h = 0;
  float right() const { return x + w; }
  float bottom() const { return y + h; }
  bool empty() const { return w <= 0 || h <= 0; }
};
float overlapArea(const Box& a, const Box& b);
Box unite(const Box& a, const Box& b);  // the smallest box holding both (an empty one: the other)

// Each snake's box in view pixels (start and current contour together), and the image's.
std::vector<Box> snakeBoxes(const std::vector<SnakeContour>& snakes, const ViewTransform& view);
Box imageBox(const ViewTransform& view);
// Where the image's content lies, in image pixels: the box of the pixels that differ from the
// background (the median) by more than half the contrast (1st to 99th percentile), from a
// sample of at most about 256x256 pixels. A phantom's is its shape; a photo's, most of it.
// Empty for a flat image.
Box contentBox(const Image2D& image);
// Where the object is: the image's content (contentBox, image pixels; may be empty) with the
// box around the current contours of the snakes that travelled (they end on it; a seed stalled
// where it started says nothing); without content, and before any snake travelled, every
// snake's box. Empty without snakes or content.
Box objectBox(const std::vector<SnakeContour>& snakes, const ViewTransform& view,
              const Box& content = {});

// The top-left corner for a legend of size w x h inside area (the view less the other
// overlays), margin from its edges: the place whose box overlaps the snakes' boxes least,
// then the object (objectBox; empty: the box around all snakes), then the image, then lies
// nearest a corner of the area (top right first). Where the view has no room beside the image, it
// still finds the strip between the snakes and the edge, if any. A legend larger than the area goes
// to its top-left corner.
Box placeLegend(const Box& area, const Box& image, const std::vector<Box>& snakes, float w, float h,
                float margin, const Box& object = {});

// Whether the legend at box overlaps no snake box: the rule's promise where room allows.
bool coversNoSnake(const Box& legend, const std::vector<Box>& snakes);

}  // namespace gvflab::viewer
