#pragma once
#include <functional>
#include <vector>

#include "cli/options.hpp"
#include "gvflab/device.hpp"
#include "gvflab/image.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/solver.hpp"

namespace gvflab::app {

// What a 2D headless run ends with, for a figure of it.
struct HeadlessOutcome {
  ComputeContext& context;
  Solver& solver;
  const Image2D& image;
  const std::vector<SnakeContour>& snakes;
};
using HeadlessFigureHook = std::function<void(const HeadlessOutcome&)>;

// Runs GVF without a window and writes the requested outputs; figure (if any) is called on 2D
// runs after the snakes, before the report. Throws gvflab::Error.
void runHeadless(const Options& options, const HeadlessFigureHook& figure = {});
// Prints every OpenCL device, one per line.
void listDevicesTo(std::ostream& out);
}  // namespace gvflab::app
