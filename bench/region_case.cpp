// region: the region snake on a synthetic N-megapixel image (a noisy five-lobed star made on
// the host directly as uint16 in pinned memory), timed as in the paper's Table I: total,
// pre-computation (upload + cumulated images) and segmentation.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "bench_common.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/pinned_host.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/region_phantom.hpp"
#include "gvflab/region_snake.hpp"

namespace gvflab::bench {
namespace {

struct RegionTiming {
  double totalMs, precomputeWallMs, segmentWallMs, uploadMs, prefixMs, segmentKernelMs;
  double bytesPerPixel, peakBytesPerPixel;
  long steps;
  int iterations, nodes;
  std::string perKernel;  // "name ms, ..." of the segmentation kernels
  long phaseLaunches = 0;
  long stateReads = 0;
  RegionSnake::BuildWall build;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// Builds the programs and touches the code paths on a small image.
void warmUp(const std::shared_ptr<ComputeContext>& ctx, const RegionPhantomSpec& spec,
            const RegionSnakeParams& params, const RegionSnakeOptions& options) {
  RegionPhantomSpec small = spec;
  small.width = small.height = 256;
  auto zs = makeRegionPhantom(small);
  RegionSnake warm(ctx, zs.data(), 256, 256, params, options);
  warm.run();
  ctx->profiler().endFrame();
}

RegionTiming timeOnce(const std::shared_ptr<ComputeContext>& ctx, const std::uint16_t* z, int side,
                      const RegionSnakeParams& params, const RegionSnakeOptions& options,
                      std::vector<Point2i>* nodes = nullptr) {
  ctx->profiler().reset();
  const auto t0 = std::chrono::steady_clock::now();
  RegionSnake snake(ctx, z, side, side, params, options);  // upload + prefixes, waited for
  const double pre = msSince(t0);
  const auto t1 = std::chrono::steady_clock::now();
  snake.run();
  const double seg = msSince(t1);
  const double total = msSince(t0);
  ctx->profiler().endFrame();
  RegionTiming t{total,
                 pre,
                 seg,
                 snake.uploadMs(),
                 snake.precomputeMs(),
                 ctx->profiler().totalMs("region_contrib") +
                     ctx->profiler().totalMs("region_phase") +
                     ctx->profiler().totalMs("region_sum_current"),
                 snake.bytesPerPixel(),
                 snake.peakBytesPerPixel(),
                 snake.stats().steps,
                 snake.stats().iteration,
                 static_cast<int>(snake.nodes().size()),
                 {},
                 0,
                 0,
                 {}};
  for (const auto& [name, st] : ctx->profiler().stats()) {
    if (name == "region_phase") t.phaseLaunches = st.launches;
    std::ostringstream k;
    k << std::fixed << std::setprecision(2) << name << " " << st.totalMs << " ms/" << st.launches;
    t.perKernel += (t.perKernel.empty() ? "" : ", ") + k.str();
  }
  t.stateReads = snake.stateReads();
  t.build = snake.buildWall();
  if (nodes) *nodes = snake.nodes();
  return t;
}

}  // namespace

int runRegion(const BenchArgs& args, std::ostream& out) {
  // Totals are timed on a queue without profiling, as a batch run would use it; one more run
  // on a profiling queue gives the kernels' share (its total shows what profiling costs).
  auto timed = ComputeContext::create({args.device, {}, {}, false});
  auto profiled = ComputeContext::create({args.device, {}, {}, true});
  const double px = args.mpix * 1e6;
  const int side = static_cast<int>(std::lround(std::sqrt(px)));
  RegionPhantomSpec spec;
  spec.width = spec.height = side;
  spec.snr = args.snr.value_or(2.0);
  RegionSnakeParams params;
  params.dMax = args.dMax;
  params.minSegment = args.minSegment;
  const std::size_t bytes = static_cast<std::size_t>(side) * side * 2;

  // The phantom in each context's pinned memory: the upload runs at the bus's speed.
  PinnedHostBuffer timedPinned(*timed, bytes), profiledPinned(*profiled, bytes);
  auto* timedZ = timedPinned.as<std::uint16_t>();
  auto* profiledZ = profiledPinned.as<std::uint16_t>();
  const auto tg = std::chrono::steady_clock::now();
  makeRegionPhantom(spec, timedZ);
  const double makeMs = msSince(tg);
  std::copy_n(timedZ, bytes / 2, profiledZ);
  const double copyGbps = measureCopyGbps(*profiled);
  // Every combination of --region-bands and --region-reserve in turn, on the same image; all
  // must end on the same steps and nodes.
  std::vector<Point2i> firstNodes;
  long firstSteps = -1;
  for (const int bands : args.regionBands)
    for (const int reserve : args.regionReserve) {
      RegionSnakeOptions options;
      options.uploadBands = bands, options.nodeReserve = reserve;
      warmUp(timed, spec, params, options);
      warmUp(profiled, spec, params, options);

      RegionTiming best{};
      best.totalMs = 1e300;
      double sumTotal = 0;
      std::vector<double> totals;
      std::vector<Point2i> nodes;
      for (int r = 0; r < args.repeats; ++r) {
        const RegionTiming t = timeOnce(timed, timedZ, side, params, options, &nodes);
        sumTotal += t.totalMs;
        totals.push_back(t.totalMs);
        if (t.totalMs < best.totalMs) best = t;
      }
      const RegionTiming prof = timeOnce(profiled, profiledZ, side, params, options);
      best.uploadMs = prof.uploadMs, best.prefixMs = prof.prefixMs;
      best.segmentKernelMs = prof.segmentKernelMs, best.perKernel = prof.perKernel;
      const double iou = regionPhantomIoU(spec, nodes, std::max(1, side / 1024));
      const double bpp = best.bytesPerPixel, peakBpp = best.peakBytesPerPixel;
      if (prof.steps != best.steps || prof.nodes != best.nodes)
        throw std::runtime_error("the profiled run ended elsewhere than the timed runs");
      if (firstSteps < 0) firstSteps = best.steps, firstNodes = nodes;
      if (best.steps != firstSteps || nodes != firstNodes)
        throw std::runtime_error("--region-bands/reserve " + std::to_string(bands) + "/" +
                                 std::to_string(reserve) +
                                 " ended elsewhere than the first combination");
      // Host share of the segmentation: its wall time less its kernels (the profiled run).
      // Prefix traffic: 2 B/px read, 10 B/px written; the upload 2 B/px over the bus.
      const double hostMs = prof.segmentWallMs - prof.segmentKernelMs;
      const double prefixGbps = px * 12 / (best.prefixMs * 1e6);
      const double uploadGbps = px * 2 / (best.uploadMs * 1e6);

      if (args.json) {
        printJsonLine(out, {{"case", "region"},
                            {"device", timed->info().name},
                            {"mpix", px / 1e6},
                            {"width", side},
                            {"height", side},
                            {"snr", spec.snr},
                            {"d_max", params.dMax},
                            {"min_segment", params.minSegment},
                            {"repeats", args.repeats},
                            {"upload_bands", bands},
                            {"node_reserve", reserve},
                            {"total_ms", best.totalMs},
                            {"mean_total_ms", sumTotal / args.repeats},
                            {"median_total_ms", median(totals)},
                            {"precompute_ms", best.precomputeWallMs},
                            {"segmentation_ms", best.segmentWallMs},
                            {"upload_ms", best.uploadMs},
                            {"prefix_kernel_ms", best.prefixMs},
                            {"segmentation_kernel_ms", best.segmentKernelMs},
                            {"profiled_total_ms", prof.totalMs},
                            {"host_ms", hostMs},
                            {"alloc_wall_ms", best.build.allocMs},
                            {"prefix_wall_ms", best.build.prefixMs},
                            {"start_wall_ms", best.build.startMs},
                            {"state_reads", best.stateReads},
                            {"phase_launches", prof.phaseLaunches},
                            {"phase_launches_per_step", double(prof.phaseLaunches) / best.steps},
                            {"copy_gbps", copyGbps},
                            {"prefix_gbps", prefixGbps},
                            {"prefix_copy_fraction", prefixGbps / copyGbps},
                            {"upload_gbps", uploadGbps},
                            {"steps", best.steps},
                            {"iterations", best.iterations},
                            {"nodes", best.nodes},
                            {"bytes_per_pixel", bpp},
                            {"peak_bytes_per_pixel", peakBpp},
                            {"iou", iou},
                            {"image_make_ms", makeMs},
                            {"kernels", best.perKernel}});
      } else {
        out << std::fixed << std::setprecision(2) << "region " << side << "x" << side << " ("
            << px / 1e6 << " MP), SNR " << spec.snr << ", d_max " << params.dMax << ", min segment "
            << params.minSegment << ", bands " << bands << ", reserve " << reserve << " on "
            << timed->info().name << "\n"
            << "  total          " << best.totalMs << " ms (best of " << args.repeats << "; mean "
            << sumTotal / args.repeats << " ms, median " << median(totals) << " ms; no profiling)\n"
            << "  pre-comp.      " << best.precomputeWallMs << " ms wall (upload " << best.uploadMs
            << " ms, cumulated images " << best.prefixMs << " ms of kernels)\n"
            << "  segmentation   " << best.segmentWallMs << " ms wall (" << best.segmentKernelMs
            << " ms of kernels in a profiled run of " << prof.totalMs << " ms total), "
            << best.steps << " steps, " << best.iterations << " iterations, " << best.nodes
            << " nodes\n"
            << "  kernels        " << best.perKernel << " (ms/launches)\n"
            << "  memory         " << bpp << " B/px on the device (" << peakBpp
            << " B/px at the peak; the paper: 20 B/px)\n"
            << "  IoU            " << std::setprecision(4) << iou << " with the true star\n"
            << std::setprecision(2) << "  split          pre-comp. wall: buffers "
            << best.build.allocMs << " ms, upload + prefixes " << best.build.prefixMs
            << " ms, start " << best.build.startMs << " ms; " << best.stateReads
            << " reads of the state; host " << hostMs << " ms of segmentation, "
            << double(prof.phaseLaunches) / best.steps << " region_phase launches per step; prefix "
            << prefixGbps << " GB/s (" << prefixGbps / copyGbps << " of copy " << copyGbps
            << " GB/s), upload " << uploadGbps << " GB/s\n";
      }
    }
  return 0;
}

}  // namespace gvflab::bench
