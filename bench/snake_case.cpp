// snake: the viewer's snake phase (issue 42 item 3). The U phantom at N x N, its GVF
// (multigrid, converged) on the device, and one GVF snake started as gpu-viewer-run.sh's
// circle (centre N/2, radius N * 60 / 512), stepped --iterations times by 4 iterations and read
// back, as the viewer does each frame (SnakeSession: step(4), then the contours). Per call:
// wall time and the calling thread's CPU time (the host's share where the device runs on other
// threads, as PoCL does): resampling with its circulant rows, the states, the read-backs.
#include <algorithm>
#include <chrono>
#include <iomanip>

#include "bench_common.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/phantoms.hpp"

namespace gvflab::bench {
namespace {
struct Spread {
  double mean = 0, p95 = 0, max = 0;
};

Spread spreadOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Spread s;
  for (double x : v) s.mean += x / static_cast<double>(v.size());
  s.p95 = v[std::min(v.size() - 1, v.size() * 95 / 100)];
  s.max = v.back();
  return s;
}
}  // namespace

int runSnake(const BenchArgs& args, std::ostream& out) {
  const int n = args.size;
  auto ctx = ComputeContext::create({args.device, {}, {}, false});
  const GvfInput input = buildGvfInput(*ctx, makePhantom("u", n), 1.0);
  auto gvf = makeMultigridSolver(ctx, input, 0.2, SolverConfig{});
  gvf->step(4);
  const SnakeParams p = SnakeParams::defaults();
  ParametricSnake snakes(ctx, n, n, p);
  snakes.setFields(gvf->field(), input);
  snakes.add(circleContour(n / 2.0, n / 2.0, n * 60 / 512.0, 0.5 * (p.dmin + p.dmax)));
  snakes.step(1);  // uploads outside the timing
  std::vector<double> wall, cpu;
  std::size_t most = 0, first = snakes.nodeCount();
  for (int k = 0; k < args.iterations && !snakes.allStopped(); ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = threadCpuMs();
    snakes.step(4);
    const auto got = snakes.contours();
    cpu.push_back(threadCpuMs() - c0);
    wall.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    most = std::max(most, got[0].points.size());
  }
  const auto end = snakes.contours()[0];
  const Spread w = spreadOf(wall), c = spreadOf(cpu);
  if (args.json) {
    printJsonLine(out, {{"case", "snake"},
                        {"device", ctx->info().name},
                        {"size", n},
                        {"frames", wall.size()},
                        {"nodes_start", first},
                        {"nodes_end", end.points.size()},
                        {"nodes_most", most},
                        {"area_end", std::abs(signedArea2(end.points)) / 2},
                        {"wall_ms_mean", w.mean},
                        {"wall_ms_p95", w.p95},
                        {"wall_ms_max", w.max},
                        {"cpu_ms_mean", c.mean},
                        {"cpu_ms_p95", c.p95},
                        {"cpu_ms_max", c.max}});
    return 0;
  }
  out << std::fixed << std::setprecision(3) << "snake on the U " << n << "^2, " << wall.size()
      << " frames of 4 iterations on " << ctx->info().name << ": nodes " << first << " -> "
      << end.points.size() << " (most " << most << "), area at the end "
      << std::abs(signedArea2(end.points)) / 2 << "; ms a frame (mean / p95 / max): wall " << w.mean
      << " / " << w.p95 << " / " << w.max << ", host thread CPU " << c.mean << " / " << c.p95
      << " / " << c.max << "\n";
  return 0;
}

}  // namespace gvflab::bench
