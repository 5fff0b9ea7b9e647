// euler2d: ms per Euler iteration from OpenCL events, against the copy bandwidth.
#include <algorithm>
#include <iomanip>
#include <vector>

#include "bench_common.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab::bench {

int runEuler2d(const BenchArgs& args, std::ostream& out) {
  auto ctx = ComputeContext::create({args.device, {}});
  const double copyGbps = measureCopyGbps(*ctx);
  GvfInput input = buildGvfInput(*ctx, makePhantom("blob", args.size), 1.0);
  EulerSolver solver(ctx, input, std::min(0.15, EulerSolver::stabilityBound(input.maxV0Squared)),
                     EulerOptions{Precision::F32, args.memory});
  const char* launchName = memoryName(solver.memory());
  solver.step(std::min(args.iterations, 64));  // warm-up: build, first touch
  ctx->profiler().endFrame();

  // Best of several repeats: kernel-time sum and the span from first start to last end.
  double bestKernelMs = 1e300, bestSpanMs = 1e300;
  for (int r = 0; r < args.repeats; ++r) {
    ctx->profiler().reset();
    cl::Event first, last;
    ctx->queue().enqueueMarkerWithWaitList(nullptr, &first);
    solver.step(args.iterations);
    ctx->queue().enqueueMarkerWithWaitList(nullptr, &last);
    last.wait();
    ctx->profiler().endFrame();
    bestKernelMs = std::min(bestKernelMs, ctx->profiler().totalMs("gvf_euler"));
    const auto t0 = first.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    const auto t1 = last.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    bestSpanMs = std::min(bestSpanMs, static_cast<double>(t1 - t0) * 1e-6);
  }
  const double n = static_cast<double>(args.size) * args.size;
  const double bytes = 24.0 * n;  // read V and V0, write V: float2 each
  const double msPerIt = bestKernelMs / args.iterations;
  const double achievedGbps = bytes / (msPerIt * 1e6);
  if (args.json) {
    out << std::setprecision(6) << "{\"case\": \"euler2d\", \"device\": \""
        << jsonEscape(ctx->info().name) << "\", \"size\": " << args.size
        << ", \"iterations\": " << args.iterations << ", \"ms_per_iteration\": " << msPerIt
        << ", \"total_ms\": " << bestKernelMs
        << ", \"span_ms\": " << bestSpanMs
        << ", \"bytes_per_iteration\": " << static_cast<long long>(bytes)
        << ", \"achieved_gbps\": " << achievedGbps << ", \"copy_gbps\": " << copyGbps
        << ", \"fraction_of_copy\": " << achievedGbps / copyGbps << "}\n";
  } else {
    out << std::fixed << std::setprecision(4) << "euler2d " << args.size << "x" << args.size
        << " x " << args.iterations << " iterations on " << ctx->info().name << " (" << launchName
        << " launches)\n"
        << "  kernel time  " << bestKernelMs << " ms total, " << msPerIt * 1e3
        << " us/iteration (best of " << args.repeats << ")\n"
        << "  queue span   " << bestSpanMs << " ms (includes launch gaps)\n"
        << "  traffic      " << bytes / 1e6 << " MB/iteration, " << achievedGbps << " GB/s\n"
        << "  copy         " << copyGbps << " GB/s -> " << std::setprecision(1)
        << 100.0 * achievedGbps / copyGbps << "% of copy bandwidth\n";
  }
  return 0;
}

}  // namespace gvflab::bench
