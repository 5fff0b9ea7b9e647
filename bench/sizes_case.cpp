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
    const double mu = std::min(0.15, EulerSolver::stabilityBound(input.maxV0Squared));
    for (Precision p : args.precisions)
      for (const auto& m : args.memories) {
        EulerSolver solver(ctx, input, mu,
                           EulerOptions{p, m, args.tile, args.tile3d, args.persistent});
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
