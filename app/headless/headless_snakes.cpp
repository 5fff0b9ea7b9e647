#include "headless/headless_snakes.hpp"

#include <glm/geometric.hpp>
#include <sstream>

#include "gvflab/capture_range.hpp"
#include "gvflab/io.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/snake_trails.hpp"
#include "headless/contour_outputs.hpp"
#include "headless/run_progress.hpp"
#include "headless/state_tally.hpp"
#include "io/png_writer.hpp"

namespace gvflab::app {

SnakeRunSummary runHeadlessSnakes(const std::shared_ptr<ComputeContext>& ctx, Solver& solver,
                                  const GvfInput& input, const Image2D& image, const Options& o,
                                  RunOutputs& outputs) {
  const SnakeOptions& so = o.snakes;
  if (!so.any()) return {};
  // The traditional force is ∇f (the solver's V0 in the default V0 mode).
  const GvfInput edgeInput = edgeGradientInput(*ctx, input, o.gvf.v0Mode, image, o.gvf.sigma);
  const cl::Buffer& gvf = solver.field();
  ctx->profiler().endFrame();
  ctx->profiler().reset();

  std::vector<SnakeContour> contours;
  std::vector<SnakeTrail> trailList;
  if (!so.snakes.empty()) {
    ParametricSnake snakes(ctx, solver.width(), solver.height(), so.params);
    snakes.setFields(gvf, edgeInput);
    for (const auto& spec : so.snakes) {
      const int id =
          snakes.add(spec.points(so.params), spec.forceOr(so.force), spec.pressure, spec.boundary);
      if (!spec.initial.empty()) snakes.setInitial(id, spec.initial);
    }
    // Chunks fold profiler events; with --trails, a chunk is the trail's interval.
    const int chunk = so.trails > 0 ? std::min(so.trails, 256) : 256;
    SnakeTrails trails;
    trails.setEvery(so.trails);
    trails.record(snakes.contours());
    stepUntilStopped(*ctx, snakes, so.iterations, chunk, "snake iterations", [&] {
      if (so.trails > 0) trails.record(snakes.contours());
    });
    trailList = trails.trails();
    contours = snakes.contours();
  }
  SnakeRunSummary summary = summariseSnakes(ctx, solver, edgeInput, contours, image, o, outputs,
                                            ctx->profiler().totalMs("snake_"));
  summary.trails = std::move(trailList);
  return summary;
}

SnakeRunSummary summariseSnakes(const std::shared_ptr<ComputeContext>& ctx, Solver& solver,
                                const GvfInput& edgeInput,
                                const std::vector<SnakeContour>& contours, const Image2D& image,
                                const Options& o, RunOutputs& outputs, double snakeOpenClMs) {
  const SnakeOptions& so = o.snakes;
  SnakeRunSummary out;
  if (!so.any()) return out;
  const cl::Buffer& gvf = solver.field();
  const cl::Buffer& traditional = edgeInput.v0;
  nlohmann::ordered_json& report = out.report;
  std::ostringstream console;
  if (!contours.empty()) {
    out.contours = contours;
    std::vector<ContourRecord> records;
    StateTally tally;
    report["snake_force"] = forceName(so.force);
    report["snake_opencl_ms"] = snakeOpenClMs;
    auto& list = report["snakes"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < contours.size(); ++i) {
      const auto& c = contours[i];
      ContourRecord r;
      for (const auto& p : c.points) r.points.push_back({p.x, p.y});
      r.initialPoints.emplace();
      for (const auto& p : c.initial) r.initialPoints->push_back({p.x, p.y});
      r.force = forceName(c.force);
      r.state = snakeStateName(c.state);
      r.iterations = c.iterations;
      r.converged = c.converged();
      if (!c.closed()) r.openBoundary = boundaryName(c.boundary);
      records.push_back(std::move(r));
      tally.add(c.state, c.force);
      list.push_back({{"nodes", c.points.size()},
                      {"force", forceName(c.force)},
                      {"state", snakeStateName(c.state)},
                      {"held", c.held},
                      {"hold_gap", c.holdGap},
                      {"iterations", c.iterations},
                      {"converged", c.converged()}});
      if (c.closed()) {
        list.back()["area"] = signedArea2(c.points) / 2;
      } else {  // an open snake encloses nothing: its ends' rule and its length instead
        double length = 0;
        for (std::size_t k = 0; k + 1 < c.points.size(); ++k)
          length += glm::length(c.points[k + 1] - c.points[k]);
        list.back()["boundary"] = boundaryName(c.boundary);
        list.back()["length"] = length;
      }
    }
    writeContourOutputs(so, records, image, outputs);
    console << tally.line("snakes");
  }

  // Capture areas for both forces: the number the viewer shows side by side.
  CaptureRange capture(ctx, edgeInput);
  const long areaTraditional = capture.compute(traditional, so.capture);
  std::vector<int> steps;
  if (so.captureMap && so.force == SnakeForce::Traditional) steps = capture.readSteps();
  const long areaGvf = capture.compute(gvf, so.capture);
  if (so.captureMap && so.force == SnakeForce::Gvf) steps = capture.readSteps();
  if (so.captureMap)
    outputs.write(*so.captureMap, [&] {
      writePngRgb(*so.captureMap, capture.width(), capture.height(),
                  captureMapRgb(steps, capture.maxSteps()));
    });
  report["capture_area_gvf"] = areaGvf;
  report["capture_area_traditional"] = areaTraditional;
  report["capture_threshold"] = so.capture.threshold;
  report["capture_steps"] = capture.maxSteps();
  console << (console.tellp() > 0 ? "; " : "") << "capture area gvf " << areaGvf
          << " px, traditional " << areaTraditional << " px";
  out.consoleLine = console.str();
  return out;
}

}  // namespace gvflab::app
