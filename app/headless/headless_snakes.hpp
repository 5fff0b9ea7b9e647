#pragma once
// The snake part of a headless run: after the GVF iterations, evolve the --snake contours,
// write --save-contours and --capture-map, and return the report's snake figures.
#include <nlohmann/json.hpp>
#include <string>

#include "cli/options.hpp"
#include "gvflab/device.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/snake_trails.hpp"
#include "gvflab/solver.hpp"
#include "io/run_outputs.hpp"

namespace gvflab::app {

struct SnakeRunSummary {
  nlohmann::ordered_json report = nlohmann::ordered_json::object();  // "snakes": [...], ...
  std::string consoleLine;             // one line for stdout ("" when nothing ran)
  std::vector<SnakeContour> contours;  // where the snakes ended
  std::vector<SnakeTrail> trails;      // --trails N: each snake every N iterations
};

// Writes through outputs (removed if the run fails later). Throws gvflab::Error (an
// unwritable file, Interrupted, ...); the snakes were checked before (cli/run_checks.hpp).
SnakeRunSummary runHeadlessSnakes(const std::shared_ptr<ComputeContext>& ctx, Solver& solver,
                                  const GvfInput& input, const Image2D& image,
                                  const Options& options, RunOutputs& outputs);

// The second half of the above, for snakes that ran elsewhere (a headless recording): the
// report's snake entries, --save-contours, --save-mask, and the capture areas and
// --capture-map of each force. forces: the run's fields but GVF's (the solver's), and f; image:
// the input (its geometry, and the SVG's background with --svg-image).
SnakeRunSummary summariseSnakes(const std::shared_ptr<ComputeContext>& ctx, Solver& solver,
                                ForceFields& forces, const std::vector<SnakeContour>& contours,
                                const Image2D& image, const Options& options, RunOutputs& outputs,
                                double snakeOpenClMs = 0);

}  // namespace gvflab::app
