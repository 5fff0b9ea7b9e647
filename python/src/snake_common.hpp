#pragma once
// What gvflab.snake() and gvflab.surface_snake() share: the snake parameters from their
// keywords (one table, snakeParamSpecs) and the stepping loop with progress.
#include <algorithm>

#include "gvflab/device.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/params.hpp"
#include "gvflab/profiler.hpp"
#include "progress.hpp"

namespace gvflab::python {

inline double snakeDefault(const char* key) {
  return findSpec(snakeParamSpecs(), key).defaultValue;
}

struct SnakeKeywords {
  double alpha, beta, gamma, kappa, pressure, dmin, dmax, tolerance;
  int window;
  double holdGap;
  int resample;
  bool normalize;
  int iterations;

  // The engine's checks, with the same sentences as the CLI's.
  SnakeParams params() const {
    SnakeParams p = SnakeParams::defaults();
    p.alpha = alpha, p.beta = beta, p.gamma = gamma, p.kappa = kappa;
    p.pressure = pressure, p.dmin = dmin, p.dmax = dmax;
    p.tolerance = tolerance, p.window = window, p.resample = resample;
    p.holdGap = holdGap;
    p.normalize = normalize;
    p.validate();
    validate(findSpec(snakeParamSpecs(), "snake-iterations"), iterations);
    return p;
  }
};

// Steps the snakes (2D or 3D) in chunks until every one stopped or the iterations ran out,
// reporting progress; the profiler then holds the snakes' kernels only. Call without the GIL.
template <class Snakes>
void stepWithProgress(ComputeContext& ctx, Snakes& snakes, long iterations,
                      ProgressReporter& reporter) {
  ctx.profiler().endFrame();
  ctx.profiler().reset();
  const long chunk = std::min<long>(256, reporter.every());
  long done = 0;
  while (done < iterations && !snakes.allStopped()) {
    const long n = std::min<long>(chunk, iterations - done);
    snakes.step(static_cast<int>(n));
    ctx.profiler().endFrame();
    done += n;
    reporter.update(done, iterations);
  }
  reporter.update(done, iterations, {}, true);
}

}  // namespace gvflab::python
