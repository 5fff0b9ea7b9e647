#pragma once
#include <memory>

#include "cli/options.hpp"
#include "gvflab/device.hpp"

namespace gvflab::app {
// --headless --region-snake: segments the image with the region snake, prints a summary,
// writes --save-contours and --report. Throws gvflab::Error. context: as runHeadless's.
void runRegionHeadless(const Options& options, std::shared_ptr<ComputeContext> context = nullptr);
}  // namespace gvflab::app
