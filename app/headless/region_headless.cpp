#include "headless/region_headless.hpp"

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/run_checks.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/log.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/region_snake.hpp"
#include "headless/contour_outputs.hpp"
#include "headless/run_progress.hpp"
#include "io/run_outputs.hpp"

namespace gvflab::app {

void runRegionHeadless(const Options& o, std::shared_ptr<ComputeContext> context) {
  const auto t0 = std::chrono::steady_clock::now();
  std::shared_ptr<ComputeContext> ctx;
  const RunInput in = checkHeadlessRun(
      o, [&](FieldShape) { ctx = context ? context : ComputeContext::create(contextOptions(o)); });
  if (in.is3d)
    throw ParameterError("--region-snake segments 2D images; '" + o.image.value_or("") +
                         "' is a volume.");
  const Image2D& image = in.image;

  RegionSnake snake(ctx, image, o.region);
  const auto& r = o.regionRect;
  if (r)
    snake.reset(initialRectangle(image.width, image.height, (*r)[0], (*r)[1], (*r)[2], (*r)[3]));
  ctx->profiler().endFrame();
  ctx->profiler().reset();
  const auto t1 = std::chrono::steady_clock::now();
  while (snake.step()) {
    if (snake.stats().steps % 256 == 0) {
      ctx->profiler().endFrame();  // keep few events pending
      InterruptGuard::check(std::to_string(snake.stats().steps) + " region snake steps");
    }
  }
  ctx->profiler().endFrame();
  const double segWall = msSince(t1);
  const RegionStats st = snake.stats();
  const auto nodes = snake.nodes();

  InterruptGuard interrupts;  // from here a signal is polled: what was written is rolled back
  RunOutputs outputs;         // a later failure removes what was written
  {
    // Nodes are pixel indices; the file's origin is the image's top-left corner, so a pixel's
    // centre is at index + 0.5, as for the parametric snakes.
    ContourRecord c;
    for (const auto& p : nodes) c.points.push_back({p.x + 0.5, p.y + 0.5});
    c.iterations = st.iteration;
    c.converged = st.converged;
    c.force = "region";
    c.extra = {
        {"kind", "region"}, {"nodes", nodes.size()}, {"noise", noiseModelName(o.region.noise)}};
    writeContourOutputs(o.snakes, {c}, image, outputs, &nodes);
  }
  const double wallMs = msSince(t0);
  const nlohmann::ordered_json json = {{"solver", "region-snake"},
                                       {"width", snake.width()},
                                       {"height", snake.height()},
                                       {"noise", noiseModelName(o.region.noise)},
                                       {"d_max", o.region.dMax},
                                       {"min_segment", o.region.minSegment},
                                       {"nodes", st.nodes},
                                       {"iterations", st.iteration},
                                       {"steps", st.steps},
                                       {"converged", st.converged},
                                       {"restarted", snake.restarted()},
                                       {"criterion", st.criterion},
                                       {"n_target", st.target.n},
                                       {"n_background", st.background.n},
                                       {"mean_target", st.meanT},
                                       {"sigma_target", st.sigmaT},
                                       {"mean_background", st.meanB},
                                       {"sigma_background", st.sigmaB},
                                       {"precompute_ms", snake.uploadMs() + snake.precomputeMs()},
                                       {"segmentation_ms", segWall},
                                       {"opencl_ms", ctx->profiler().totalMs("region_")},
                                       {"bytes_per_pixel", snake.bytesPerPixel()},
                                       {"wall_ms", wallMs},
                                       {"device", ctx->info().name}};
  if (o.report)
    outputs.write(*o.report, [&] { writeFileAtomically(*o.report, json.dump(2) + "\n"); });
  InterruptGuard::checkBeforeCommit();
  outputs.commit();
  std::cout << "region snake: " << st.nodes << " nodes after " << st.iteration << " iterations ("
            << st.steps << " steps) on " << snake.width() << "x" << snake.height() << ", target "
            << st.target.n << " px (mean " << st.meanT << "), background mean " << st.meanB
            << ", segmentation " << segWall << " ms (" << ctx->info().name << ")\n";
  if (snake.restarted())
    log::warning(
        "the region snake grew out of the start drawn around an object (taking the background "
        "as its target) and started again inside the object; its report says \"restarted\"");
}

}  // namespace gvflab::app
