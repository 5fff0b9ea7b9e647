// race: the viewer's equal-time race (app/viewer/model/race_session.cpp) replayed without a
// window: each frame gives Euler and multigrid the same OpenCL budget (--budget ms, the
// viewer's 20 by default) through the viewer's BudgetStepper, and records each solver's
// OpenCL time so far, iterations and ε (eq. 9) after the frame, as the race view plots them.
// Input: the blob phantom, N x N; --frames F frames (default 10).
#include <iomanip>

#include "bench_common.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/race_budget.hpp"

namespace gvflab::bench {

int runRace(const BenchArgs& args, std::ostream& out) {
  auto ctx = ComputeContext::create({args.device, {}, {}});
  const GvfInput input = buildGvfInput(*ctx, makePhantom("blob", args.size), args.sigma);
  const double mu = benchMu(args, input, 0.1);  // the paper's value
  Profiler& profiler = ctx->profiler();
  if (!args.json)
    out << "| size | precision | frame | solver | OpenCL ms | iterations | ε "
           "|\n|---|---|---|---|---|---|---|\n";
  for (Precision p : args.precisions) {
    SolverConfig config;  // the viewer's defaults, as its race uses them
    config.precision = p;
    config.a = args.mgA, config.b = args.mgB, config.c = args.mgC;
    config.cycle = args.mgCycles.front();
    struct Lane {
      std::unique_ptr<Solver> solver;
      BudgetStepper budget;
    } lanes[2];
    config.kind = SolverKind::Euler;
    lanes[0].solver = makeSolver(ctx, input, mu, config);
    config.kind = SolverKind::Multigrid;
    lanes[1].solver = makeSolver(ctx, input, mu, config);
    auto report = [&](int frame, Lane& lane) {
      const double eps = lane.solver->error();
      if (args.json)
        printJsonLine(out,
                      {{"case", "race"},
                       {"device", ctx->info().name},
                       {"size", std::to_string(input.width) + "x" + std::to_string(input.height)},
                       {"precision", precisionName(p)},
                       {"budget_ms", args.budgetMs},
                       {"frame", frame},
                       {"solver", lane.solver->name()},
                       {"opencl_ms", lane.budget.totalMs()},
                       {"iterations", lane.solver->iterations()},
                       {"epsilon", eps}});
      else
        out << std::setprecision(4) << "| " << input.width << "x" << input.height << " | "
            << precisionName(p) << " | " << frame << " | " << lane.solver->name() << " | "
            << lane.budget.totalMs() << " | " << lane.solver->iterations() << " | " << eps
            << " |\n";
    };
    for (Lane& lane : lanes) report(0, lane);
    profiler.endFrame();
    for (int frame = 1; frame <= args.frames; ++frame)
      for (Lane& lane : lanes) {
        const std::string prefix = lane.solver->kernelPrefix();
        lane.budget.run(args.budgetMs, [&](int n) {
          profiler.endFrame();
          const double before = profiler.totalMs(prefix);
          lane.solver->step(n);
          profiler.endFrame();  // waits for the chunk's kernels
          return profiler.totalMs(prefix) - before;
        });
        report(frame, lane);
      }
  }
  return 0;
}

}  // namespace gvflab::bench
