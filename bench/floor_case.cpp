// floor: the byte floor of a two-steps-a-pass Euler launch. One pass reads V and V0 and writes
// V (bytesPerPoint, the first paper's model); this streams those bytes, out = a + b, at every
// lane width and number of loads in flight, on the field's size, and reports the time K / 2
// passes take at each, and the best: the floor no two-steps-a-pass kernel can beat on this
// device (docs/BENCHMARKS.md, the sixteenth session).
#include <algorithm>
#include <iomanip>
#include <limits>

#include "bench_common.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab::bench {
namespace {

struct Lane {
  const char* type;  // the kernel's T
  int bytes;
};

std::vector<Lane> lanes(Precision p) {
  if (p == Precision::F32) return {{"float", 4}, {"float2", 8}, {"float4", 16}};
  return {{"ushort", 2}, {"uint", 4}, {"uint2", 8}, {"uint4", 16}};
}

// Best of `repeats` launches (after one untimed), over grid sizes: a few groups a compute
// unit, and one work-item for every ILP lanes.
double bestPassMs(ComputeContext& ctx, cl::Kernel& k, const cl::Buffer* bufs, cl_ulong n, int ilp,
                  int repeats) {
  const std::size_t local = 256;
  const std::size_t cus = static_cast<std::size_t>(std::max(1, ctx.info().computeUnits));
  std::vector<std::size_t> grids;
  for (std::size_t perCu : {4, 8, 16, 64}) grids.push_back(cus * perCu * local);
  grids.push_back((n / ilp + local - 1) / local * local);
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t global : grids) {
    if (global == 0) continue;
    for (int r = 0; r <= repeats; ++r) {
      // Ping-pong V as the passes do; V0 stays.
      k.setArg(0, bufs[r & 1]);
      k.setArg(1, bufs[2]);
      k.setArg(2, bufs[(r + 1) & 1]);
      k.setArg(3, n);
      cl::Event ev;
      ctx.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global), cl::NDRange(local),
                                       nullptr, &ev);
      ev.wait();
      if (r > 0) best = std::min(best, eventMs(ev));
    }
  }
  return best;
}

}  // namespace

int runFloor(const BenchArgs& args, std::ostream& out) {
  auto ctx = ComputeContext::create({args.device, {}, {}});
  const int dims = args.depth > 0 ? 3 : 2;
  const double points = static_cast<double>(args.size) * args.size * (dims == 3 ? args.depth : 1);
  const int passes = std::max(1, args.iterations / 2);
  for (Precision p : args.precisions) {
    // Three fields of the pass's bytes: V in, V0, V out.
    const auto fieldBytes = static_cast<std::uint64_t>(bytesPerPoint(dims, p) * points / 3);
    if (3 * fieldBytes > ctx->info().globalMemBytes || fieldBytes > ctx->info().maxAllocBytes)
      throw ParameterError("floor: three fields of " + std::to_string(fieldBytes >> 20) +
                           " MiB do not fit " + ctx->info().name + ".");
    cl::Buffer bufs[3] = {cl::Buffer(ctx->context(), CL_MEM_READ_WRITE, fieldBytes),
                          cl::Buffer(ctx->context(), CL_MEM_READ_WRITE, fieldBytes),
                          cl::Buffer(ctx->context(), CL_MEM_READ_WRITE, fieldBytes)};
    for (const cl::Buffer& b : bufs) ctx->queue().enqueueFillBuffer(b, 0.25f, 0, fieldBytes);
    double floorMs = std::numeric_limits<double>::infinity();
    for (const Lane& lane : lanes(p))
      for (int ilp : {1, 2, 4, 8}) {
        cl::Kernel k = ctx->kernels().kernel(
            "stream_floor.cl", "stream_sum",
            std::string("-DT=") + lane.type + " -DILP=" + std::to_string(ilp));
        const cl_ulong n = fieldBytes / lane.bytes;
        const double ms = bestPassMs(*ctx, k, bufs, n, ilp, std::max(1, args.repeats));
        const double moved = 3.0 * static_cast<double>(n) * lane.bytes;
        floorMs = std::min(floorMs, ms * passes);
        if (args.json) {
          printJsonLine(out, {{"case", "floor"},
                              {"device", ctx->info().name},
                              {"size", args.size},
                              {"depth", args.depth},
                              {"iterations", args.iterations},
                              {"precision", precisionName(p)},
                              {"lane_bytes", lane.bytes},
                              {"loads_in_flight", ilp},
                              {"ms_per_pass", ms},
                              {"total_ms", ms * passes},
                              {"achieved_gbps", moved / (ms * 1e6)}});
        } else {
          out << std::fixed << std::setprecision(4) << "floor " << precisionName(p) << " "
              << lane.bytes << " B a lane, " << ilp << " in flight: " << ms << " ms a pass, "
              << std::setprecision(2) << ms * passes << " ms for " << passes << " passes ("
              << moved / (ms * 1e6) << " GB/s)\n";
        }
      }
    if (args.json)
      printJsonLine(out, {{"case", "floor"},
                          {"precision", precisionName(p)},
                          {"passes", passes},
                          {"floor_ms", floorMs}});
    else
      out << "floor " << precisionName(p) << ": " << std::setprecision(2) << floorMs << " ms for "
          << passes << " passes of two steps\n";
  }
  return 0;
}

}  // namespace gvflab::bench
