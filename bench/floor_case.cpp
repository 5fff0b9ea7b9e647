// floor: the byte floor of a two-steps-a-pass Euler launch. One pass reads V and V0 and writes
// V (bytesPerPoint, the first paper's model); this streams those bytes, out = a + b, at every
// lane width and number of loads in flight, on the field's size, and reports the time K / 2
// passes take at each, and the best: the floor no two-steps-a-pass kernel can beat on this
// device (docs/BENCHMARKS.md, the sixteenth session). For a volume it also times the same bytes
// in the 3D tiles' pattern (tile_floor3d.cl: frames, z chunks, 1-3 planes ahead, no steps), the
// floor of that tiling (the twenty-fourth session).
#include <algorithm>
#include <iomanip>
#include <limits>
#include <span>

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

struct TilePattern {
  int tx, ty, rows;
};

// The presets' shapes and their neighbours; each with 1-3 planes ahead and chunks of the whole
// depth, a half and a quarter (docs/BENCHMARKS.md, twenty-fourth session). f16 on even widths
// moves pairs of columns (tx counts lanes of two), as its tiles do.
constexpr TilePattern kTilePatterns[] = {
    {68, 20, 4}, {132, 12, 4}, {36, 36, 4}, {68, 24, 4}, {68, 12, 4}};
constexpr TilePattern kPairPatterns[] = {
    {66, 20, 4}, {34, 36, 2}, {34, 36, 3}, {34, 42, 3}, {66, 12, 4}};

// Best of `repeats` runs (after one untimed) of `passes` launches of tile_floor3d at one
// shape, V ping-ponged, from the first launch's start to the last one's end, as the Euler
// benchmark times its passes (single launches timed alone add ~2 % on the H200).
double tileFloorMs(ComputeContext& ctx, const cl::Buffer* bufs, const TilePattern& t, int ahead,
                   int zChunk, int width, int height, int depth, Precision p, bool pairs,
                   int passes, int repeats) {
  const bool narrow = 3.0 * width * height * static_cast<double>(depth) < 4294967296.0;
  const char* type = pairs ? "uint" : (p == Precision::F32 ? "float" : "ushort");
  cl::Kernel k = ctx.kernels().kernel(
      "tile_floor3d.cl", "tile_floor3d",
      std::string("-DT=") + type + " -DTX=" + std::to_string(t.tx) +
          " -DTY=" + std::to_string(t.ty) + " -DROWS=" + std::to_string(t.rows) +
          " -DAHEAD=" + std::to_string(ahead) + " -DZCHUNK=" + std::to_string(zChunk) +
          (narrow ? " -DINDEX32" : "") + (pairs ? " -DPAIR_COLUMNS" : ""));
  const int innerX = pairs ? 2 * (t.tx - 2) : t.tx - 4, innerY = t.ty - 4;
  const cl::NDRange local(t.tx, t.ty / t.rows, 1);
  const cl::NDRange global(
      static_cast<std::size_t>((width + innerX - 1) / innerX) * t.tx,
      static_cast<std::size_t>((height + innerY - 1) / innerY) * (t.ty / t.rows),
      static_cast<std::size_t>((depth + zChunk - 1) / zChunk));
  k.setArg(1, bufs[2]);
  k.setArg(3, width);
  k.setArg(4, height);
  k.setArg(5, depth);
  k.setArg(6, 0);
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r <= repeats; ++r) {
    cl::Event first, last;
    for (int pass = 0; pass < passes; ++pass) {
      k.setArg(0, bufs[pass & 1]);
      k.setArg(2, bufs[(pass + 1) & 1]);
      ctx.queue().enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr,
                                       pass == 0 ? &first : (pass == passes - 1 ? &last : nullptr));
    }
    ctx.queue().finish();
    const cl::Event& end = passes > 1 ? last : first;
    const double ms = static_cast<double>(end.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                          first.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                      1e-6;
    if (r > 0) best = std::min(best, ms);
  }
  return best;
}

// Every tile pattern that fits the device, on the volume; returns the best ms for `passes`.
double tileFloor(ComputeContext& ctx, const BenchArgs& args, const cl::Buffer* bufs, Precision p,
                 int passes, std::ostream& out) {
  double floorMs = std::numeric_limits<double>::infinity();
  std::string bestShape;
  std::vector<int> chunks;
  for (int div : {1, 2, 4})
    if (int c = (args.depth + div - 1) / div;
        c >= 8 && std::find(chunks.begin(), chunks.end(), c) == chunks.end())
      chunks.push_back(c);
  if (chunks.empty()) chunks.push_back(args.depth);
  const bool pairs = p == Precision::F16 && args.size % 2 == 0;
  for (const TilePattern& t : pairs ? std::span(kPairPatterns) : std::span(kTilePatterns)) {
    if (static_cast<std::size_t>(t.tx * (t.ty / t.rows)) > ctx.info().maxWorkGroupSize) continue;
    for (int ahead : {1, 2, 3})
      for (int zChunk : chunks) {
        const double total = tileFloorMs(ctx, bufs, t, ahead, zChunk, args.size, args.size,
                                         args.depth, p, pairs, passes, std::max(1, args.repeats));
        const double ms = total / passes;
        const std::string shape = std::to_string(t.tx) + "x" + std::to_string(t.ty) + "x" +
                                  std::to_string(t.rows) + (pairs ? " pairs of columns" : "");
        if (total < floorMs) {
          floorMs = total;
          bestShape = shape + ", " + std::to_string(ahead) + " ahead, " + std::to_string(zChunk) +
                      "-plane chunks";
        }
        if (args.json)
          printJsonLine(out, {{"case", "tile_floor"},
                              {"device", ctx.info().name},
                              {"size", args.size},
                              {"depth", args.depth},
                              {"precision", precisionName(p)},
                              {"tile", shape},
                              {"planes_ahead", ahead},
                              {"z_chunk", zChunk},
                              {"ms_per_pass", ms},
                              {"total_ms", total}});
        else
          out << std::fixed << std::setprecision(4) << "tile floor " << precisionName(p) << " "
              << shape << ", " << ahead << " ahead, " << zChunk << "-plane chunks: " << ms
              << " ms a pass, " << std::setprecision(2) << total << " ms for " << passes
              << " passes\n";
      }
  }
  if (bestShape.empty()) {  // every shape's work-group is over the device's limit
    const std::string note = "no tile shape fits work-groups of " +
                             std::to_string(ctx.info().maxWorkGroupSize) + " work-items";
    if (args.json)
      printJsonLine(out, {{"case", "tile_floor"}, {"precision", precisionName(p)}, {"note", note}});
    else
      out << "tile floor " << precisionName(p) << ": " << note << "\n";
    return floorMs;
  }
  if (args.json)
    printJsonLine(out, {{"case", "tile_floor"},
                        {"precision", precisionName(p)},
                        {"passes", passes},
                        {"tile_floor_ms", floorMs},
                        {"best", bestShape}});
  else
    out << "tile floor " << precisionName(p) << ": " << std::setprecision(2) << floorMs
        << " ms for " << passes << " passes of two steps (" << bestShape << ")\n";
  return floorMs;
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
    if (dims == 3) tileFloor(*ctx, args, bufs, p, passes, out);
  }
  return 0;
}

}  // namespace gvflab::bench
