#include "cli/headless.hpp"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/headless_snakes.hpp"
#include "cli/region_headless.hpp"
#include "common/image_loader.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/io.hpp"
#include "gvflab/json_text.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab::app {

void listDevicesTo(std::ostream& out) {
  auto devices = listDevices();
  if (devices.empty()) out << "No OpenCL devices found.\n";
  for (const auto& d : devices)
    out << d.platformIndex << "." << d.deviceIndex << "  " << d.describe() << "\n";
}

void runHeadless(const Options& o) {
  if (o.regionSnake) return runRegionHeadless(o);
  const auto t0 = std::chrono::steady_clock::now();
  Image2D image = o.phantom ? makePhantom(*o.phantom, o.phantomSize) : loadImage(*o.image);

  ContextOptions copts;
  copts.deviceSelector = o.device;
  if (o.kernelDir) copts.kernelDir = *o.kernelDir;
  auto ctx = ComputeContext::create(copts);

  GvfInput input = buildGvfInput(*ctx, image, o.gvf.sigma, o.gvf.v0Mode);
  ctx->profiler().endFrame();
  ctx->profiler().reset();  // opencl_ms counts the solver only
  EulerSolver solver(ctx, std::move(input), o.gvf.mu, o.storage);

  // Fold events in chunks so a long run does not hold millions of them.
  constexpr int kChunk = 256;
  for (int done = 0; done < o.iterations;) {
    int n = std::min(kChunk, o.iterations - done);
    solver.step(n);
    ctx->profiler().endFrame();
    done += n;
  }
  const double error = solver.error();
  ctx->profiler().endFrame();
  const double solverMs = ctx->profiler().totalMs("gvf_euler");
  Field2D field = solver.readField();
  for (float v : field.data)
    if (!std::isfinite(v))
      throw ParameterError("The field became NaN or infinite; lower mu or check the input.");

  if (o.saveField) writeMetaImageField(*o.saveField, field);
  if (o.saveMagnitude) writeMagnitudePng(*o.saveMagnitude, field);
  const SnakeRunSummary snakes = runHeadlessSnakes(ctx, solver, image, o);
  const double wallMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  std::ostringstream json;
  json << std::setprecision(9) << "{\n"
       << "  \"solver\": \"" << solver.name() << "\",\n"
       << "  \"width\": " << solver.width() << ",\n"
       << "  \"height\": " << solver.height() << ",\n"
       << "  \"mu\": " << solver.mu() << ",\n"
       << "  \"sigma\": " << o.gvf.sigma << ",\n"
       << "  \"iterations\": " << solver.iterations() << ",\n"
       << "  \"precision\": \"" << precisionName(solver.precision()) << "\",\n"
       << "  \"memory\": \"" << memoryName(solver.memory()) << "\",\n"
       << "  \"device_bytes\": " << solver.deviceBytes() << ",\n"
       << "  \"storage_note\": \"" << jsonEscape(solver.note()) << "\",\n"
       << "  \"error\": " << error << ",\n"
       << "  \"opencl_ms\": " << solverMs << ",\n"
       << snakes.reportJson
       << "  \"wall_ms\": " << wallMs << ",\n"
       << "  \"device\": \"" << jsonEscape(ctx->info().name) << "\"\n"
       << "}\n";
  if (o.report) writeFileAtomically(*o.report, json.str());
  std::cout << "euler: " << solver.iterations() << " iterations on " << solver.width() << "x"
            << solver.height() << ", error " << error << ", OpenCL " << solverMs << " ms, wall "
            << wallMs << " ms (" << ctx->info().name << ")\n";
  if (!snakes.consoleLine.empty()) std::cout << snakes.consoleLine << "\n";
}

}  // namespace gvflab::app
