// sizes: total time of K Euler iterations against the image side (the first paper's Fig. 5).
#include <iomanip>

#include "bench_common.hpp"
#include "gvflab/phantoms.hpp"

namespace gvflab::bench {

int runSizes(const BenchArgs& args, std::ostream& out) {
  auto ctx = ComputeContext::create({args.device, {}, {}});
  if (!args.json)
    out << "| side | precision | memory | total ms (" << args.iterations
        << " iterations) | ms / iteration |\n|---|---|---|---|---|\n";
  for (int side = 64; side <= args.size; side *= 2) {
    GvfInput input = buildGvfInput(*ctx, makePhantom("blob", side), 1.0);
    const double mu = benchMu(args, input, 0.15);
    for (Precision p : args.precisions)
      for (const auto& m : args.memories) {
        auto made = makeEulerSolver(ctx, input, mu, eulerConfig(args, p, m));
        EulerSolver& solver = *made;
        const EulerTiming t = timeEuler(*ctx, solver, args.iterations, args.repeats);
        if (args.json)
          printJsonLine(out, {{"case", "sizes"},
                              {"device", ctx->info().name},
                              {"size", side},
                              {"iterations", args.iterations},
                              {"precision", precisionName(p)},
                              {"memory", memoryName(solver.memory())},
                              {"total_ms", t.kernelMs},
                              {"ms_per_iteration", t.kernelMs / args.iterations}});
        else
          out << std::fixed << std::setprecision(3) << "| " << side << " | " << precisionName(p)
              << " | " << memoryName(solver.memory()) << " | " << t.kernelMs << " | "
              << std::setprecision(5) << t.kernelMs / args.iterations << " |\n";
      }
  }
  return 0;
}

}  // namespace gvflab::bench
