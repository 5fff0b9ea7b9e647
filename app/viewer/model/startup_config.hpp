#pragma once
// What the viewer's model starts from. The command line is turned into these in
// window/startup_from_options, so the model never depends on the CLI's Options.
#include <array>
#include <optional>
#include <string>

#include "gvflab/device.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/params.hpp"
#include "gvflab/region_types.hpp"

namespace gvflab::viewer {

struct SessionStartup {
  std::optional<std::string> image;  // an image or a volume; unreadable: the phantom instead
  std::string phantom = "u";
  int phantomSize = 256;
  GvfParams gvf;
  SolverConfig solver;
  ContextOptions context;
  int iterationsPerFrame = 16;  // Euler, with no frame budget (a saved session's count)
  // Asked for per frame (--iterations): both solvers, clamped to their ranges.
  std::optional<int> fixedIterationsPerFrame;
  int stepsPerFrame = 0;      // > 0: fixed steps per frame (deterministic), no budget
  double frameBudgetMs = 0;   // > 0: each frame runs the iterations that fit this
  double targetError = 1e-6;  // the field the snakes wait for (--target-error; field_solve.hpp)
  // A fixed count instead (--iterations without --target-error, as a demo gives): the snakes
  // start once the field has had that many iterations, as a headless run's do.
  std::optional<long> fieldIterations;
  RunLoad load;  // the command line's snakes and surfaces, counted in every fit check
};

struct RegionStartup {
  bool enabled = false;                    // --region-snake
  std::optional<std::array<int, 4>> rect;  // x, y, w, h; none: the default inset
  RegionSnakeParams params;
  double syntheticMpix = 0;  // > 0: a synthetic star image of this many megapixels
};

}  // namespace gvflab::viewer
