#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "cli/options.hpp"
#include "gvflab/device.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/image.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/snake_trails.hpp"
#include "gvflab/solver.hpp"

namespace gvflab::app {

// What a 2D headless run ends with, for a figure of it.
struct HeadlessOutcome {
  ComputeContext& context;
  Solver& solver;
  const Image2D& image;
  const std::vector<SnakeContour>& snakes;
  const std::vector<SnakeTrail>& trails;  // empty without --trails
  const GvfInput& input;                  // f and V0, for composite figures
  double sigma;                           // the σ f was made with (given or from the noise)
};
// Which picture the hook draws: --screenshot's view, or --composite's four panels.
enum class HeadlessFigure { View, Composite };
using HeadlessFigureHook = std::function<void(const HeadlessOutcome&, HeadlessFigure)>;

// Runs GVF without a window and writes the requested outputs; figure (if any) is called on 2D
// runs after the snakes, before the report, once per figure asked for (--screenshot,
// --composite). Throws gvflab::Error. context: a context to run on (--batch shares one),
// else one is made from the options once the input is checked. checked: called once the input
// and outputs are checked, before any work (the figure's display check).
void runHeadless(Options options, const HeadlessFigureHook& figure = {},
                 std::shared_ptr<ComputeContext> context = nullptr,
                 const std::function<void()>& checked = {});
// Prints every OpenCL device, one per line.
void listDevicesTo(std::ostream& out);
}  // namespace gvflab::app
