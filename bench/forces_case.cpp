// forces: the field time of each external force on an N x N blob (an N x N x D ball with
// --depth D),
// against GVF's (issue 43): K iterations of Euler GVF and of GGVF (OpenCL kernel time, best of
// --repeats, ms per iteration too), VFC's one convolution (power kernel, radius 32 in 2D and
// 8 in 3D) and the distance force's transform and gradient.
#include <algorithm>
#include <functional>
#include <iomanip>

#include "bench_common.hpp"
#include "gvflab/distance_force.hpp"
#include "gvflab/ggvf_solver.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/vfc_field.hpp"

namespace gvflab::bench {
namespace {

// A bright ball in a dark N x N x D box: edges and wide flat regions.
Volume ballVolume(int n, int depth) {
  Volume v(n, n, depth);
  for (int z = 0; z < depth; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const double dx = (x + 0.5) / n - 0.5, dy = (y + 0.5) / n - 0.5,
                     dz = (z + 0.5) / depth - 0.5;
        v.at(x, y, z) = dx * dx + dy * dy + dz * dz < 0.09 ? 1.0f : 0.0f;
      }
  return v;
}

// The best of `repeats` runs of `run` (after one warm-up run: program builds, first touch), in
// OpenCL kernel ms of the kernels named `prefix`*.
double bestKernelMs(ComputeContext& ctx, int repeats, const std::string& prefix,
                    const std::function<void()>& run) {
  run();
  ctx.queue().finish();
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    ctx.profiler().reset();
    run();
    ctx.queue().finish();
    ctx.profiler().endFrame();
    best = std::min(best, ctx.profiler().totalMs(prefix));
  }
  return best;
}

}  // namespace

int runForces(const BenchArgs& args, std::ostream& out) {
  auto ctx = ComputeContext::create({args.device, {}, {}});
  const bool is3d = args.depth > 0;
  const GvfInput input = is3d ? buildGvfInput(*ctx, ballVolume(args.size, args.depth), 1.0)
                              : buildGvfInput(*ctx, makePhantom("blob", args.size), 1.0);
  const std::string size = std::to_string(args.size) + "x" + std::to_string(args.size) +
                           (is3d ? "x" + std::to_string(args.depth) : "");
  const int k = args.iterations;
  struct Row {
    std::string force, what;
    double ms;
    int iterations;
  };
  std::vector<Row> rows;

  auto euler = makeEulerSolver(ctx, input, benchMu(args, input, 0.15),
                               eulerConfig(args, Precision::F32, args.memories.front()));
  rows.push_back({"gvf", std::string("euler f32 ") + memoryName(euler->memory()),
                  timeEuler(*ctx, *euler, k, args.repeats).kernelMs, k});
  euler.reset();

  GgvfSolver ggvf(ctx, input, 0.9 * ggvfMuRange(input).high);
  rows.push_back({"ggvf", "euler f32 buffer",
                  bestKernelMs(*ctx, args.repeats, "ggvf_step", [&] { ggvf.step(k); }), k});

  VfcParams vfc = VfcParams::defaults();
  vfc.radius = is3d ? 8 : 32;
  rows.push_back({"vfc", "direct, radius " + std::to_string(vfc.radius),
                  bestKernelMs(*ctx, args.repeats, "vfc", [&] { vfcField(*ctx, input, vfc); }), 1});
  rows.push_back({"distance", "exact EDT + gradient",
                  bestKernelMs(*ctx, args.repeats, "distance",
                               [&] { distanceForce(*ctx, input, DistanceParams::defaults()); }),
                  1});

  if (!args.json)
    out << "| force | size | method | iterations | kernel ms | ms / iteration |\n"
           "|---|---|---|---|---|---|\n";
  for (const Row& r : rows) {
    if (args.json)
      printJsonLine(out, {{"case", "forces"},
                          {"device", ctx->info().name},
                          {"size", size},
                          {"force", r.force},
                          {"method", r.what},
                          {"iterations", r.iterations},
                          {"kernel_ms", r.ms},
                          {"ms_per_iteration", r.ms / r.iterations}});
    else
      out << std::fixed << std::setprecision(3) << "| " << r.force << " | " << size << " | "
          << r.what << " | " << r.iterations << " | " << r.ms << " | " << std::setprecision(4)
          << r.ms / r.iterations << " |\n";
  }
  return 0;
}

}  // namespace gvflab::bench
