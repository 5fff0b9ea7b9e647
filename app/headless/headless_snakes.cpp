#include "headless/headless_snakes.hpp"

#include <glm/geometric.hpp>
#include <sstream>

#include "gvflab/capture_range.hpp"
#include "gvflab/force_fields.hpp"
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
  ForceFields forces(ctx, edgeGradientInput(*ctx, input, o.gvf.v0Mode, image, o.gvf.sigma),
                     so.forces);
  const cl::Buffer& gvf = solver.field();
  ctx->profiler().endFrame();
  ctx->profiler().reset();

  std::vector<SnakeContour> contours;
  std::vector<SnakeTrail> trailList;
  if (!so.snakes.empty()) {
    ParametricSnake snakes(ctx, solver.width(), solver.height(), so.params);
    std::vector<SnakeForce> used;
    for (const auto& spec : so.snakes) used.push_back(spec.forceOr(so.force));
    snakes.setFields(forces.fields(used, gvf), forces.edges());
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
    stepUntilStopped(*ctx, snakes, so.iterations, chunk, "snake iterations", [&](int) {
      if (so.trails > 0) trails.record(snakes.contours());
    });
    trailList = trails.trails();
    contours = snakes.contours();
  }
  SnakeRunSummary summary = summariseSnakes(ctx, solver, forces, contours, image, o, outputs,
                                            ctx->profiler().totalMs("snake_"));
  summary.trails = std::move(trailList);
  return summary;
}

SnakeRunSummary summariseSnakes(const std::shared_ptr<ComputeContext>& ctx, Solver& solver,
                                ForceFields& forces, const std::vector<SnakeContour>& contours,
                                const Image2D& image, const Options& o, RunOutputs& outputs,
                                double snakeOpenClMs) {
  const SnakeOptions& so = o.snakes;
  SnakeRunSummary out;
  if (!so.any()) return out;
  nlohmann::ordered_json& report = out.report;
  std::ostringstream console;
  if (!contours.empty()) {
    out.contours = contours;
    StateTally tally;
    report["snake_force"] = forceName(so.force);
    report["snake_opencl_ms"] = snakeOpenClMs;
    auto& list = report["snakes"] = nlohmann::ordered_json::array();
    for (const SnakeContour& c : contours) {
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
    writeContourOutputs(so, contourRecords(contours), image, outputs);
    console << tally.line("snakes");
  }

  // Capture areas of GVF, grad f and every force a snake or --snake-force names (the numbers
  // the viewer shows side by side), the map of --snake-force's: computed only when an output
  // asks for them (--report, --capture-map); on a large image they cost more than the snakes.
  if (so.captureMap || o.report) {
    bool wanted[kSnakeForceCount] = {true, true};
    wanted[static_cast<int>(so.force)] = true;
    for (const auto& c : contours) wanted[static_cast<int>(c.force)] = true;
    CaptureRange capture(ctx, forces.edges());
    std::vector<int> steps;
    console << (console.tellp() > 0 ? "; " : "") << "capture area";
    for (SnakeForce f : kSnakeForces) {
      if (!wanted[static_cast<int>(f)]) continue;
      InterruptGuard::check("the capture areas");
      const long area = capture.compute(forces.field(f, solver.field()), so.capture);
      if (so.captureMap && f == so.force) steps = capture.readSteps();
      report[std::string("capture_area_") + forceName(f)] = area;
      console << (f == SnakeForce::Gvf ? " " : ", ") << forceName(f) << " " << area << " px";
    }
    if (so.captureMap)
      outputs.write(*so.captureMap, [&] {
        writePngRgb(*so.captureMap, capture.width(), capture.height(),
                    captureMapRgb(steps, capture.maxSteps()));
      });
    report["capture_threshold"] = so.capture.threshold;
    report["capture_steps"] = capture.maxSteps();
  }
  out.consoleLine = console.str();
  return out;
}

}  // namespace gvflab::app
