#include <algorithm>
#include <stdexcept>

#include "bench_common.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab::bench {

double bytesPerPoint(int dims, Precision p) { return 3.0 * dims * bytesPerComponent(p); }

EulerTiming timeEuler(ComputeContext& ctx, EulerSolver& solver, int iterations, int repeats) {
  solver.step(std::min(iterations, 64));  // warm-up: program build, first touch
  ctx.profiler().endFrame();
  EulerTiming best{1e300, 1e300};
  const bool persistent = solver.persistent();
  for (int r = 0; r < repeats; ++r) {
    ctx.profiler().reset();
    cl::Event first, last;
    ctx.queue().enqueueMarkerWithWaitList(nullptr, &first);
    solver.step(iterations);
    ctx.queue().enqueueMarkerWithWaitList(nullptr, &last);
    last.wait();
    ctx.profiler().endFrame();
    best.kernelMs = std::min(best.kernelMs, ctx.profiler().totalMs("gvf_euler"));
    const auto t0 = first.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    const auto t1 = last.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    best.spanMs = std::min(best.spanMs, static_cast<double>(t1 - t0) * 1e-6);
    // A one-launch step whose tiles did not all run gave up early: its time means nothing
    // (reading the field makes the solver check).
    if (persistent) {
      solver.field();
      if (!solver.persistent()) throw std::runtime_error("timing discarded: " + solver.note());
    }
  }
  return best;
}

}  // namespace gvflab::bench
