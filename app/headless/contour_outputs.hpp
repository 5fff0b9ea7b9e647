#pragma once
// The snakes' files of a headless run, written through its RunOutputs: --save-contours (in
// --contour-coordinates, over the image with --svg-image) and --save-mask (a label image with
// the input's geometry).
#include <vector>

#include "cli/snake_options.hpp"
#include "gvflab/image.hpp"
#include "gvflab/region_types.hpp"
#include "io/contours_json.hpp"
#include "io/run_outputs.hpp"

namespace gvflab::app {

// records: the snakes in their order (their labels 1..N). regionNodes: the region snake's
// polygon, whose mask is its own inside (exactly the target it counted) rather than the
// rasterised record.
void writeContourOutputs(const SnakeOptions& options, const std::vector<ContourRecord>& records,
                         const Image2D& image, RunOutputs& outputs,
                         const std::vector<Point2i>* regionNodes = nullptr);

}  // namespace gvflab::app
