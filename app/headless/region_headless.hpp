#pragma once
#include "cli/options.hpp"

namespace gvflab::app {
// --headless --region-snake: segments the image with the region snake, prints a summary,
// writes --save-contours and --report. Throws gvflab::Error.
void runRegionHeadless(const Options& options);
}  // namespace gvflab::app
