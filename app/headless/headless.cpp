#include "headless/headless.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/run_checks.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/field_solve.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/io.hpp"
#include "gvflab/log.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/surface_snake.hpp"
#include "headless/headless_snakes.hpp"
#include "headless/headless_surfaces.hpp"
#include "headless/region_headless.hpp"
#include "headless/run_progress.hpp"
#include "headless/user_gvf_input.hpp"
#include "io/field_file.hpp"
#include "io/png_writer.hpp"
#include "io/run_outputs.hpp"
#include "io/volume_loader.hpp"

namespace gvflab::app {
namespace {

// Runs the plan (gvflab/field_solve.hpp) with a progress line and Ctrl+C between chunks.
FieldSolveResult iterate(ComputeContext& ctx, Solver& solver, const FieldSolvePlan& plan,
                         bool quiet) {
  RunProgress progress(RunProgress::wanted(quiet), plan.iterations, solver.name());
  return runFieldSolve(ctx, solver, plan, [&](long done, const std::function<double()>& error) {
    InterruptGuard::check(std::to_string(done) + " of " + std::to_string(plan.iterations) +
                          " iterations");
    progress.update(done, error);
  });
}

// |V| of the middle axial slice of a volume's field (in-plane and through-plane components).
Field2D middleSlice(const Field3D& f) {
  Field2D out(f.width, f.height);
  const std::size_t z = f.depth / 2, plane = std::size_t(f.width) * f.height;
  for (std::size_t i = 0; i < plane; ++i) {
    const float* v = &f.data[3 * (z * plane + i)];
    const float inPlane = std::hypot(v[0], v[1]);
    const float m = std::sqrt(inPlane * inPlane + v[2] * v[2]);
    // Keep the direction in-plane but the full length, so the PNG shows |V|.
    out.x(i) = inPlane > 0 ? v[0] * m / inPlane : m;
    out.y(i) = inPlane > 0 ? v[1] * m / inPlane : 0;
  }
  return out;
}

}  // namespace

void listDevicesTo(std::ostream& out) {
  auto devices = listDevices();
  if (devices.empty()) out << "No OpenCL devices found.\n";
  // The OpenCL half of each CL->GL path (the viewer's panel says which one runs).
  auto has = [](const DeviceInfo& d, const char* e) { return d.hasExtension(e) ? "yes" : "no"; };
  for (const auto& d : devices)
    out << d.platformIndex << "." << d.deviceIndex << "  " << d.describe() << "\n"
        << "     CL->GL: cl_khr_gl_sharing " << has(d, "cl_khr_gl_sharing")
        << ", cl_khr_external_memory_opaque_fd " << has(d, "cl_khr_external_memory_opaque_fd")
        << ", cl_khr_external_semaphore_opaque_fd " << has(d, "cl_khr_external_semaphore_opaque_fd")
        << "\n";
}

void runHeadless(Options o, const HeadlessFigureHook& figure,
                 std::shared_ptr<ComputeContext> context, const std::function<void()>& checked) {
  if (o.regionSnake) return runRegionHeadless(o, context);
  const auto t0 = std::chrono::steady_clock::now();
  // The field is solved to a stated error unless a count is asked for (field_solve.hpp).
  const FieldSolvePlan plan = fieldSolvePlan(o);
  SolverConfig config = solverConfig(o);
  config.kind = plan.kind;
  // Every input and output checked before anything is written; the device fit from the
  // input's header, before its data is read or decompressed.
  std::shared_ptr<ComputeContext> ctx;
  const RunInput in = checkHeadlessRun(o, [&](FieldShape shape) {
    ctx = context ? context : ComputeContext::create(contextOptions(o));
    chooseSplit(*ctx, shape, config);  // over the devices when it does not fit one
    checkFits(*ctx, shape, config);
  });
  // Then the whole run before the first allocation: the snakes, the surfaces and their own
  // edge input beside the field, so that a run that would not fit is refused in one line.
  const FieldShape shape{in.width(), in.height(), in.is3d ? in.volume.depth : 1};
  checkRunFits(*ctx, shape, config,
               runNeeds(o.snakes.load(), shape, o.gvf.spacing.value_or(in.volume.geometry.spacing),
                        hasUserGvfInput(o) || o.gvf.v0Mode != V0Mode::EdgeGradient ||
                            !config.devices.empty()));
  const bool is3d = in.is3d;
  const Image2D& image = in.image;
  if (is3d && figure)
    throw ParameterError(std::string(o.screenshot ? "--screenshot" : "--composite") +
                         " with --headless draws 2D images; '" + *o.image +
                         "' is a volume (open it in the viewer and save the view there).");
  if (checked) checked();

  // A μ the user gave is checked as given; the default is fitted to this input (3D's Euler
  // bound is below the 2D default).
  const MuRule rule = o.muGiven ? MuRule::Refuse : MuRule::FitDefault;
  GvfPipeline pipeline = hasUserGvfInput(o) ? buildGvfPipeline(ctx, buildUserGvfInput(*ctx, o, in),
                                                               o.gvf, config, rule)
                         : is3d             ? buildGvfPipeline(ctx, in.volume, o.gvf, config, rule)
                                            : buildGvfPipeline(ctx, in.image, o.gvf, config, rule);
  const GvfInput& input = pipeline.input;
  // The snakes' grad f, figures and the report use the σ f was made with.
  o.gvf.sigma = pipeline.sigma.sigma;
  o.gvf.sigmaFromNoise = false;
  // A note only where the noise changed σ from the default (the report always says why).
  if (pipeline.sigma.fromNoise &&
      pipeline.sigma.sigma != findSpec(gvfParamSpecs(), "sigma").defaultValue)
    log::info(pipeline.sigma.reason);
  Solver& solverRef = *pipeline.solver;
  ctx->profiler().endFrame();
  ctx->profiler().reset();  // opencl_ms counts the solver only
  setStopStage("iterating");
  const FieldSolveResult run = iterate(*ctx, solverRef, plan, o.quiet);
  ctx->profiler().endFrame();
  const double solverMs = ctx->profiler().totalMs(solverRef.kernelPrefix());

  Field2D field;
  Field3D field3;
  const std::vector<float>& data =
      is3d ? (field3 = solverRef.readField3D()).data : (field = solverRef.readField()).data;
  requireFiniteField(data);
  // Written fields overlay the input: its geometry (unknown for a phantom or a PNG).
  field.geometry = image.geometry;
  field3.geometry = in.volume.geometry;
  // From here a signal is polled, so that what was written can be rolled back.
  InterruptGuard interrupts;
  RunOutputs outputs;  // a later failure removes what was written
  SnakeRunSummary snakes;
  if (!is3d) snakes = runHeadlessSnakes(ctx, solverRef, input, image, o, outputs);
  SurfaceRunSummary surfaces;
  if (is3d) surfaces = runHeadlessSurfaces(ctx, solverRef, input, in.volume, o, outputs);
  if (o.saveField)
    outputs.write(*o.saveField, [&] {
      if (is3d)
        writeField(*o.saveField, field3);
      else
        writeField(*o.saveField, field);
    });
  if (o.saveMagnitude)
    outputs.write(*o.saveMagnitude,
                  [&] { writeMagnitudePng(*o.saveMagnitude, is3d ? middleSlice(field3) : field); });
  if (figure && !is3d) {
    const HeadlessOutcome outcome{*ctx,          solverRef, image,      snakes.contours,
                                  snakes.trails, input,     o.gvf.sigma};
    if (o.screenshot) outputs.write(*o.screenshot, [&] { figure(outcome, HeadlessFigure::View); });
    if (o.composite)
      outputs.write(*o.composite, [&] { figure(outcome, HeadlessFigure::Composite); });
  }
  const double wallMs = msSince(t0);

  nlohmann::ordered_json json;
  json["solver"] = solverRef.name();
  json["width"] = solverRef.width();
  json["height"] = solverRef.height();
  if (is3d) json["depth"] = solverRef.depth();
  json["mu"] = pipeline.mu.mu;
  json["sigma"] = o.gvf.sigma;
  json["sigma_from"] = pipeline.sigma.fromNoise ? "noise" : "given";
  json["sigma_reason"] = pipeline.sigma.reason;
  if (pipeline.sigma.fromNoise) {
    json["noise"] = pipeline.sigma.estimate.noise;
    json["contrast"] = pipeline.sigma.estimate.contrast;
    json["snr"] = std::min(pipeline.sigma.estimate.snr(), 1e6);
  }
  // World units per sample the gradients and the Laplacian used (x, y[, z]).
  json["spacing"] =
      std::vector<double>(input.spacing.begin(), input.spacing.begin() + input.dims());
  json["precision"] = precisionName(o.storage.precision);
  for (const SolverFact& fact : solverRef.facts())  // mg_a..levels; memory, device_bytes, ...
    std::visit([&](const auto& v) { json[fact.key] = v; }, fact.value);
  json["iterations"] = solverRef.iterations();
  json["error"] = run.error;
  if (plan.targetError) {
    json["target_error"] = *plan.targetError;
    json["reached"] = run.reached;
  }
  json["opencl_ms"] = solverMs;
  json.update(snakes.report);
  json.update(surfaces.report);
  json["wall_ms"] = wallMs;
  json["device"] = ctx->info().name;
  if (o.report)
    outputs.write(*o.report, [&] { writeFileAtomically(*o.report, json.dump(2) + "\n"); });
  InterruptGuard::checkBeforeCommit();
  outputs.commit();
  std::cout << solverRef.name() << ": " << solverRef.iterations() << " iterations on "
            << solverRef.width() << "x" << solverRef.height()
            << (is3d ? "x" + std::to_string(solverRef.depth()) : "") << ", error " << run.error
            << ", OpenCL " << solverMs << " ms, wall " << wallMs << " ms (" << ctx->info().name
            << ")\n";
  std::ostringstream warning;
  if (plan.targetError && run.settled)
    warning << "the error settled at " << run.error << ", above the target " << *plan.targetError
            << " (the solver's floor here; see --target-error)";
  else if (plan.targetError && !run.reached)
    warning << "the error did not reach " << *plan.targetError << " within " << plan.iterations
            << " iterations (raise --iterations)";
  if (!warning.str().empty()) log::warning(warning.str());
  if (!snakes.consoleLine.empty()) std::cout << snakes.consoleLine << "\n";
  if (!surfaces.consoleLine.empty()) std::cout << surfaces.consoleLine << "\n";
}

}  // namespace gvflab::app
