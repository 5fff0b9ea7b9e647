// multigrid: the second paper's Table 1 method. Euler runs K iterations (timed); then multigrid
// runs as many iterations as it needs to reach the same ε (eq. 9) or lower, and those are
// timed from V0 again. Reports both times (sum of kernel events, and first-to-last span with
// launch gaps, best of --repeats), iterations, ε and the speed-up, per precision.
// 2D: --size N (N x N blob phantom). 3D: --size N --depth D (N x N x D blob volume).
#include <cmath>
#include <iomanip>
#include <optional>
#include <random>

#include "bench_common.hpp"
#include "gvflab/error.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/volume_phantoms.hpp"

namespace gvflab::bench {
namespace {

// A blob whose radius varies with z over the blob phantom's noise: edges and flat regions that
// GVF must fill (a stand-in for the paper's CT volumes).
Volume blobVolume(int n, int depth) {
  Volume v(n, n, depth);
  Image2D slice = makePhantom("blob", n);
  for (int z = 0; z < depth; ++z) {
    const double r = 0.5 - std::abs(z + 0.5 - 0.5 * depth) / depth;
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const double dx = (x + 0.5) / n - 0.5, dy = (y + 0.5) / n - 0.5;
        v.at(x, y, z) = slice.at(x, y) * 0.5f + (std::hypot(dx, dy) < 0.6 * r ? 0.45f : 0.0f);
      }
  }
  return v;
}

// Gaussian noise of standard deviation 1 / snr (the phantoms' contrast is 1), seeded.
void addNoise(std::vector<float>& values, std::optional<double> snr) {
  if (!snr) return;
  std::mt19937_64 random(42);
  std::normal_distribution<float> noise(0.0f, static_cast<float>(1.0 / *snr));
  for (float& v : values) v += noise(random);
}

// The case's input: --phantom (2D: phantoms.hpp; 3D: blobVolume, or a volume phantom of side
// --size), plus --snr's noise.
GvfInput caseInput(ComputeContext& ctx, const BenchArgs& args) {
  if (args.depth > 0) {
    if (args.phantom != "blob" && args.depth != args.size)
      throw ParameterError("--phantom " + args.phantom + " is a cube: give --depth " +
                           std::to_string(args.size) + " (--size), not " +
                           std::to_string(args.depth) + ".");
    Volume v = args.phantom == "blob" ? blobVolume(args.size, args.depth)
                                      : makeVolumePhantom(args.phantom, args.size);
    addNoise(v.voxels, args.snr);
    return buildGvfInput(ctx, v, args.sigma);
  }
  Image2D image = makePhantom(args.phantom, args.size);
  addNoise(image.pixels, args.snr);
  return buildGvfInput(ctx, image, args.sigma);
}

struct MgTiming {
  double kernelMs = 1e300;
  double spanMs = 1e300;
};

MgTiming timeMultigrid(ComputeContext& ctx, MultigridSolver& mg, int iterations, int repeats) {
  MgTiming best;
  for (int r = 0; r < repeats; ++r) {
    mg.reset();
    ctx.profiler().endFrame();
    ctx.profiler().reset();
    cl::Event first, last;
    ctx.queue().enqueueMarkerWithWaitList(nullptr, &first);
    mg.step(iterations);
    ctx.queue().enqueueMarkerWithWaitList(nullptr, &last);
    last.wait();
    ctx.profiler().endFrame();
    best.kernelMs = std::min(best.kernelMs, ctx.profiler().totalMs(mg.kernelPrefix()));
    const auto t0 = first.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    const auto t1 = last.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    best.spanMs = std::min(best.spanMs, static_cast<double>(t1 - t0) * 1e-6);
  }
  return best;
}

}  // namespace

int runMultigrid(const BenchArgs& args, std::ostream& out) {
  ContextOptions options;
  options.deviceSelector = args.device;
  auto ctx = ComputeContext::create(options);
  const bool is3d = args.depth > 0;
  GvfInput input = caseInput(*ctx, args);
  const double mu = benchMu(args, input, 0.1);  // the paper's value
  const std::string size = std::to_string(input.width) + "x" + std::to_string(input.height) +
                           (is3d ? "x" + std::to_string(input.depth) : "");
  if (!args.json)
    out << "| size | precision | Euler it. | Euler ms (span) | ε Euler | MG it. | MG ms (span) | "
           "ε MG | speed-up (span) |\n|---|---|---|---|---|---|---|---|---|\n";
  for (Precision p : args.precisions) {
    double eulerError = 0;
    EulerTiming et;
    std::string eulerMemory;
    std::uint64_t eulerBytes = 0;
    {
      SolverConfig config;
      config.precision = p;
      config.memory = args.memories.front();
      config.tile = args.tile;
      auto made = makeEulerSolver(ctx, input, mu, config);
      EulerSolver& euler = *made;
      et = timeEuler(*ctx, euler, args.iterations, args.repeats);
      euler.reset();
      euler.step(args.iterations);
      eulerError = euler.error();
      eulerMemory = memoryName(euler.memory());
      eulerBytes = euler.deviceBytes();
    }
    for (int coarseSide : args.mgCoarse)
      for (int fused : args.mgFused)
        for (int persistent : args.mgPersistent)
          for (int groups : args.mgGroups)
            for (int top : args.mgTop)
              for (int variant : args.mgVariant)
                for (int cycle : args.mgCycles) {
                  SolverConfig mgConfig;
                  mgConfig.mgVariant = variant;
                  mgConfig.mgFused = fused;
                  mgConfig.mgPersistent = persistent;
                  mgConfig.mgGroups = groups;
                  mgConfig.mgTrace = args.mgTrace;
                  mgConfig.mgSide = top;
                  mgConfig.precision = p;
                  mgConfig.a = args.mgA, mgConfig.b = args.mgB, mgConfig.c = args.mgC;
                  mgConfig.cycle = cycle;
                  mgConfig.mgCoarseSide = coarseSide;
                  auto madeMg = makeMultigridSolver(ctx, input, mu, mgConfig);
                  MultigridSolver& mg = *madeMg;
                  const std::string cycleName =
                      std::get<std::string>(findFact(mg.facts(), "mg_cycle")->value);
                  double mgError = mg.error();
                  while (mgError > eulerError && mg.iterations() < 100) {
                    mg.step(1);
                    mgError = mg.error();
                  }
                  const int mgIterations = static_cast<int>(mg.iterations());
                  const MgTiming mt = timeMultigrid(*ctx, mg, mgIterations, args.repeats);
                  const bool onePath = mg.persistent();
                  // The timed runs' field (and the give-up flag of a one-launch run): same ε as
                  // before.
                  const double timedError = mg.error();
                  if (onePath && !mg.persistent())
                    throw std::runtime_error("timing discarded: " + mg.storageNote());
                  const std::uint64_t mgBytes = mg.deviceBytes();
                  // Where the time goes (last repeat): launches and ms per level, ms per kernel.
                  std::size_t launches = 0;
                  nlohmann::ordered_json kernels, perLevel;
                  for (const auto& [name, st] : ctx->profiler().stats())
                    if (name.rfind(mg.kernelPrefix(), 0) == 0) {
                      launches += st.launches;
                      kernels[name] = {{"ms", st.totalMs}, {"launches", st.launches}};
                    }
                  for (const MultigridLevelTime& row : mg.levelTimes())
                    perLevel.push_back({{"level", row.level},
                                        {"last_level", row.lastLevel},
                                        {"size", std::to_string(row.shape.width) + "x" +
                                                     std::to_string(row.shape.height) + "x" +
                                                     std::to_string(row.shape.depth)},
                                        {"ms", row.stats.totalMs},
                                        {"launches", row.stats.launches}});
                  // Each launched level's kernels apart ("mg level 0 / mg_smooth"): the profile
                  // that says which kernel of which level runs at what fraction of copy.
                  nlohmann::ordered_json levelKernels;
                  for (const auto& [name, st] : ctx->profiler().groupStats())
                    if (name.rfind("mg level ", 0) == 0 && name.find(" / ") != std::string::npos)
                      levelKernels[name] = {{"ms", st.totalMs}, {"launches", st.launches}};
                  nlohmann::ordered_json trace;  // the last timed launch, per level
                  for (const MultigridLevelTime& row : mg.persistentTrace())
                    trace.push_back({{"level", row.level},
                                     {"alone", row.level >= mg.persistentCoarseLevel()},
                                     {"ms", row.stats.totalMs},
                                     {"steps", row.stats.launches}});
                  const double speedup = et.kernelMs / mt.kernelMs,
                               speedupSpan = et.spanMs / mt.spanMs;
                  if (args.json) {
                    printJsonLine(out,
                                  {{"case", "multigrid"},
                                   {"device", ctx->info().name},
                                   {"size", size},
                                   {"precision", precisionName(p)},
                                   {"mu", mu},
                                   {"sigma", args.sigma},
                                   {"a", args.mgA},
                                   {"b", args.mgB},
                                   {"c", args.mgC},
                                   {"cycle", cycleName},
                                   {"phantom", args.phantom},
                                   {"snr", args.snr ? nlohmann::json(*args.snr) : nlohmann::json()},
                                   {"levels", mg.levels()},
                                   {"mg_coarse_side", coarseSide},
                                   {"mg_coarse_level", mg.coarseLevel()},
                                   {"mg_fused", mg.fusedSweeps()},
                                   {"mg_persistent", mg.persistent()},
                                   {"mg_persistent_groups", mg.persistentGroups()},
                                   {"mg_persistent_coarse_level", mg.persistentCoarseLevel()},
                                   {"mg_persistent_top_level", mg.persistentTopLevel()},
                                   {"mg_persistent_solo_level", mg.persistentSoloLevel()},
                                   {"mg_variant", variant},
                                   {"mg_timed_error", timedError},
                                   {"euler_memory", eulerMemory},
                                   {"euler_iterations", args.iterations},
                                   {"euler_error", eulerError},
                                   {"euler_ms", et.kernelMs},
                                   {"euler_span_ms", et.spanMs},
                                   {"euler_device_bytes", eulerBytes},
                                   {"mg_iterations", mgIterations},
                                   {"mg_error", mgError},
                                   {"mg_ms", mt.kernelMs},
                                   {"mg_span_ms", mt.spanMs},
                                   {"mg_device_bytes", mgBytes},
                                   {"speedup", speedup},
                                   {"speedup_span", speedupSpan},
                                   {"mg_launches", launches},
                                   {"mg_levels", perLevel},
                                   {"mg_trace", trace},
                                   {"mg_kernels", kernels},
                                   {"mg_level_kernels", levelKernels},
                                   {"copy_gbps", measureCopyGbps(*ctx)}});
                  } else {
                    out << std::setprecision(4) << "| " << size << " | " << precisionName(p)
                        << " | " << args.iterations << " | " << et.kernelMs << " (" << et.spanMs
                        << ") | " << eulerError << " | " << mgIterations << " | " << mt.kernelMs
                        << " (" << mt.spanMs << ") | " << mgError << " | " << speedup << " ("
                        << speedupSpan << ") |\n";
                  }
                  if (mgError > eulerError)
                    out << "warning: multigrid did not reach the Euler error in 100 iterations\n";
                }
  }
  return 0;
}

}  // namespace gvflab::bench
