#include "headless/headless.hpp"

#include <chrono>
#include <cmath>
#include <iostream>

#include <nlohmann/json.hpp>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/io.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/profiler.hpp"
#include "headless/headless_snakes.hpp"
#include "headless/region_headless.hpp"
#include "io/field_file.hpp"
#include "io/image_loader.hpp"
#include "io/png_writer.hpp"
#include "io/volume_loader.hpp"

namespace gvflab::app {
namespace {

struct RunResult {
  double error = 0;
  bool reached = true;
};

// Runs to --iterations, or with --target-error until ε <= E (at most --iterations). Euler's ε
// is checked after chunks of at most 1/16 of the iterations done so far (so the count
// overshoots by at most ~6%); multigrid's after every iteration. Events are folded per chunk
// so a long run does not hold millions of them; ε's own kernels are not in the solver's time.
RunResult iterate(ComputeContext& ctx, Solver& solver, const Options& o) {
  RunResult r;
  if (!o.targetError) {
    constexpr int kChunk = 256;
    for (int done = 0; done < o.iterations;) {
      const int n = std::min(kChunk, o.iterations - done);
      solver.step(n);
      ctx.profiler().endFrame();
      done += n;
    }
    r.error = solver.error();
    return r;
  }
  r.error = solver.error();
  while (r.error > *o.targetError && solver.iterations() < o.iterations) {
    const long done = solver.iterations();
    const int chunk = solver.name() == "multigrid"
                          ? 1
                          : static_cast<int>(std::clamp<long>(done / 16, 1, 256));
    solver.step(static_cast<int>(std::min<long>(chunk, o.iterations - done)));
    ctx.profiler().endFrame();
    r.error = solver.error();
  }
  r.reached = r.error <= *o.targetError;
  return r;
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
        << ", cl_khr_external_semaphore_opaque_fd "
        << has(d, "cl_khr_external_semaphore_opaque_fd") << "\n";
}

void runHeadless(const Options& o, const HeadlessFigureHook& figure) {
  if (o.regionSnake) return runRegionHeadless(o);
  const auto t0 = std::chrono::steady_clock::now();
  const bool is3d = o.image && isVolumeFile(*o.image);
  if (is3d && figure)
    throw ParameterError("--screenshot with --headless draws 2D images; '" + *o.image +
                         "' is a volume (open it in the viewer and save the view there).");
  if (is3d && o.snakes.any())
    throw ParameterError("Snakes run on 2D images; '" + *o.image + "' is a volume.");
  Image2D image;
  Volume volume;
  if (is3d)
    volume = loadVolume(*o.image);
  else
    image = o.phantom ? makePhantom(*o.phantom, o.phantomSize) : loadImage(*o.image);

  auto ctx = ComputeContext::create(contextOptions(o));

  const SolverConfig config = solverConfig(o);
  GvfInput input = is3d ? makeGvfInput(*ctx, volume, o.gvf.sigma, o.gvf.v0Mode, config)
                        : makeGvfInput(*ctx, image, o.gvf.sigma, o.gvf.v0Mode, config);
  ctx->profiler().endFrame();
  ctx->profiler().reset();  // opencl_ms counts the solver only
  std::unique_ptr<Solver> solver = makeSolver(ctx, input, o.gvf.mu, config);
  const RunResult run = iterate(*ctx, *solver, o);
  ctx->profiler().endFrame();
  const double solverMs = ctx->profiler().totalMs(solver->kernelPrefix());

  Field2D field;
  Field3D field3;
  const std::vector<float>& data = is3d ? (field3 = solver->readField3D()).data
                                        : (field = solver->readField()).data;
  for (float v : data)
    if (!std::isfinite(v))
      throw ParameterError("The field became NaN or infinite; lower mu or check the input.");
  if (o.saveField) {
    if (is3d)
      writeField(*o.saveField, field3);
    else
      writeField(*o.saveField, field);
  }
  if (o.saveMagnitude) writeMagnitudePng(*o.saveMagnitude, is3d ? middleSlice(field3) : field);
  SnakeRunSummary snakes;
  if (!is3d) snakes = runHeadlessSnakes(ctx, *solver, input, image, o);
  if (figure && !is3d) figure({*ctx, *solver, image, snakes.contours});
  const double wallMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  nlohmann::ordered_json json;
  json["solver"] = solver->name();
  json["width"] = solver->width();
  json["height"] = solver->height();
  if (is3d) json["depth"] = solver->depth();
  json["mu"] = o.gvf.mu;
  json["sigma"] = o.gvf.sigma;
  json["precision"] = precisionName(o.storage.precision);
  if (auto* mg = dynamic_cast<MultigridSolver*>(solver.get())) {
    json["mg_a"] = o.mgA;
    json["mg_b"] = o.mgB;
    json["mg_c"] = o.mgC;
    json["levels"] = mg->levels();
  }
  if (auto* euler = dynamic_cast<EulerSolver*>(solver.get())) {
    json["memory"] = memoryName(euler->memory());
    json["device_bytes"] = euler->deviceBytes();
    json["storage_note"] = euler->note();
  }
  json["iterations"] = solver->iterations();
  json["error"] = run.error;
  if (o.targetError) {
    json["target_error"] = *o.targetError;
    json["reached"] = run.reached;
  }
  json["opencl_ms"] = solverMs;
  json.update(snakes.report);
  json["wall_ms"] = wallMs;
  json["device"] = ctx->info().name;
  if (o.report) writeFileAtomically(*o.report, json.dump(2) + "\n");
  std::cout << solver->name() << ": " << solver->iterations() << " iterations on "
            << solver->width() << "x" << solver->height()
            << (is3d ? "x" + std::to_string(solver->depth()) : "") << ", error " << run.error
            << ", OpenCL " << solverMs << " ms, wall " << wallMs << " ms (" << ctx->info().name
            << ")\n";
  if (o.targetError && !run.reached)
    std::cout << "warning: the error did not reach " << *o.targetError << " within "
              << o.iterations << " iterations (raise --iterations)\n";
  if (!snakes.consoleLine.empty()) std::cout << snakes.consoleLine << "\n";
}

}  // namespace gvflab::app
