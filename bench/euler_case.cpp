// euler2d / euler3d: ms per Euler iteration from OpenCL events for every requested precision
// and memory kind, against the copy bandwidth measured in the same run (the first paper's
// Fig. 4 with --precision all --memory all, its Tables 1 and 2 at 512² x 512 and 256³ x 256).
#include <cmath>
#include <iomanip>

#include "bench_common.hpp"
#include "gvflab/phantoms.hpp"

namespace gvflab::bench {
namespace {

// The blob phantom in 2D; in 3D a blob whose radius varies with z, with the same noise.
Volume blobVolume(int n) {
  Volume v(n, n, n);
  Image2D slice = makePhantom("blob", n);
  for (int z = 0; z < n; ++z) {
    const double r = 0.5 - std::abs(z - 0.5 * n) / n;  // 0 at the ends, 0.5 in the middle
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const double dx = (x + 0.5) / n - 0.5, dy = (y + 0.5) / n - 0.5;
        const float inside = std::hypot(dx, dy) < 0.6 * r ? 0.45f : 0.0f;
        v.at(x, y, z) = slice.at(x, y) * 0.5f + inside;
      }
  }
  return v;
}

// The 3D tile the solver resolved (preset and z chunk), as --tile3d takes it.
std::string tileName(const Tile3D& t) {
  return std::to_string(t.tx) + "x" + std::to_string(t.ty) + "x" + std::to_string(t.rows) + "x" +
         std::to_string(t.zChunk) + (t.rawPrefetch ? "+raw" : "") +
         (t.branchlessPlanes ? "+branchless" : "") + (t.asyncV0 ? "+async" : "") +
         (t.halfPairs ? (t.pairColumns ? "+h2c" : "+h2") : "");
}

}  // namespace

int runEuler(const BenchArgs& args, int dims, std::ostream& out) {
  auto ctx = ComputeContext::create({args.device, {}, {}});
  const double copyGbps = measureCopyGbps(*ctx);
  GvfInput input = dims == 3 ? buildGvfInput(*ctx, blobVolume(args.size), 1.0)
                             : buildGvfInput(*ctx, makePhantom("blob", args.size), 1.0);
  const double mu = benchMu(args, input, 0.15);
  const double points = static_cast<double>(input.pixelCount());
  const std::string caseName = dims == 3 ? "euler3d" : "euler2d";
  for (Precision p : args.precisions)
    for (const auto& m : args.memories) {
      auto made = makeEulerSolver(ctx, input, mu, eulerConfig(args, p, m));
      EulerSolver& solver = *made;
      const EulerTiming t = timeEuler(*ctx, solver, args.iterations, args.repeats);
      const double bytes = bytesPerPoint(dims, p) * points;
      const double msPerIt = t.kernelMs / args.iterations;
      const double gbps = bytes / (msPerIt * 1e6);
      if (args.json) {
        nlohmann::ordered_json r = {{"case", caseName},
                                    {"device", ctx->info().name},
                                    {"size", args.size},
                                    {"iterations", args.iterations},
                                    {"precision", precisionName(p)},
                                    {"memory", memoryName(solver.memory())},
                                    {"ms_per_iteration", msPerIt},
                                    {"total_ms", t.kernelMs},
                                    {"span_ms", t.spanMs},
                                    {"bytes_per_iteration", static_cast<long long>(bytes)},
                                    {"achieved_gbps", gbps},
                                    {"copy_gbps", copyGbps},
                                    {"fraction_of_copy", gbps / copyGbps},
                                    {"device_bytes", solver.deviceBytes()}};
        if (dims == 3 && solver.memory() == MemoryKind::Local)
          r["tile3d"] = tileName(solver.tile3d());  // as --tile3d takes it
        r["persistent"] = solver.persistent();
        r["note"] = solver.note();
        printJsonLine(out, r);
      } else {
        out << std::fixed << std::setprecision(4) << caseName << " " << args.size
            << (dims == 3 ? "^3" : "^2") << " x " << args.iterations << " " << precisionName(p)
            << "/" << memoryName(solver.memory()) << " on " << ctx->info().name << ": " << msPerIt
            << " ms/iteration, total " << t.kernelMs << " ms (span " << t.spanMs << " ms), "
            << std::setprecision(1) << 100.0 * gbps / copyGbps << "% of copy bandwidth ("
            << copyGbps << " GB/s)" << (solver.note().empty() ? "" : " [" + solver.note() + "]")
            << "\n";
      }
    }
  return 0;
}

}  // namespace gvflab::bench
