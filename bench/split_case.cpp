// split3d (issue 41): a volume's Euler (or --multigrid) solve on one device, then split in
// z-slabs over --devices (slab_split.hpp; Euler's --halo planes exchanged every that many
// iterations): wall ms per iteration of each (every device finished), the speed-up, the halo
// exchange's ms per iteration not hidden behind kernels and the rest beside it, and each
// device's bytes.
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <optional>
#include <thread>
#include <vector>

#include "bench_common.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/slab_split.hpp"

namespace gvflab::bench {
namespace {

// Planes [z0, z1) of an edge map: a blob phantom stacked over the depth, brighter where a ball
// cuts it, so that every slab has edges. Made per slab piece, on every core: a 2048^3 volume is
// never whole on the host or one device.
Volume splitVolume(const Image2D& slice, int depth, int z0, int z1) {
  const int n = slice.width;
  Volume v(n, n, z1 - z0);
  auto planes = [&](int from, int to) {
    for (int z = from; z < to; ++z)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
          const double dx = (x + 0.5) / n - 0.5, dy = (y + 0.5) / n - 0.5;
          const double dz = (z + 0.5) / depth - 0.5;
          v.at(x, y, z - z0) =
              slice.at(x, y) * 0.5f + (dx * dx + dy * dy + dz * dz < 0.09 ? 0.45f : 0);
        }
  };
  {
    const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::jthread> workers;  // joined at the end of this block
    for (int t = 0; t < threads; ++t)
      workers.emplace_back(planes, z0 + (z1 - z0) * t / threads,
                           z0 + (z1 - z0) * (t + 1) / threads);
  }
  return v;
}

// Wall ms of `iterations` steps, best of `repeats`, after one warm-up step.
template <class Finish>
double wallMs(Solver& solver, int iterations, int repeats, Finish finish) {
  solver.step(1);
  finish();
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    solver.step(iterations);
    finish();
    best = std::min(
        best,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int runSplit(const BenchArgs& args, std::ostream& out) {
  for (const std::string& exchange : args.exchanges) {
    // --sub-devices N: N sub-devices of --device (the split's path tried on PoCL, without GPUs).
    // The first device runs the one-device solve and holds the input: in one context with the
    // others for copies.
    const auto devices =
        args.subDevices > 0
            ? openSubDevices({args.device, {}, {}}, args.subDevices, exchange == "copy")
            : openSplitDevices(ComputeContext::create({args.device, {}, {}}), args.devices,
                               exchange == "copy");
    const auto main = devices.front();
    const int depth = args.depth > 0 ? args.depth : args.size;
    const Image2D slice = makePhantom("blob", args.size);
    // The whole input on the first device only for the one-device run and multigrid's split.
    std::optional<GvfInput> whole;
    if (!args.splitOnly || args.splitMultigrid)
      whole = gvfInputFrom(*main, splitVolume(slice, depth, 0, depth));
    const SlabInputSource slabInput = [&](ComputeContext& device, const Slab& s) {
      return gvfInputFrom(device, splitVolume(slice, depth, s.lo, s.hi));
    };
    for (Precision p : args.precisions)
      for (const auto& m : args.memories) {
        SolverConfig config = eulerConfig(args, p, m);
        if (args.splitMultigrid) config.kind = SolverKind::Multigrid;
        config.splitHalo = args.halo;
        config.splitLevels = args.splitLevels;
        const std::unique_ptr<SlabSolver> made =
            args.splitMultigrid
                ? makeSplitSolver(devices, {args.size, args.size, depth}, planesOf(main, *whole),
                                  benchMu(args, *whole, 0.1), config)
                : makeSplitSolver(devices, {args.size, args.size, depth}, slabInput, 0.0, config);
        if (!args.splitMultigrid)
          made->setMu(args.mu ? *args.mu : std::min(0.1, made->muBound()));  // as benchMu's
        SlabSolver& split = *made;
        double oneMs = 0;
        if (!args.splitOnly) {
          auto one = makeSolver(main, *whole, split.mu(), config);
          oneMs = wallMs(*one, args.iterations, args.repeats, [&] { main->queue().finish(); });
        }
        const double splitMs = wallMs(split, args.iterations, args.repeats, [&] {
          for (auto& d : devices) d->queue().finish();
        });
        // The exchanges' time not hidden behind kernels (haloSeconds) and the rest per iteration.
        const double haloMsPerIt = split.haloSeconds() * 1e3 / double(split.iterations());
        const double kernelMsPerIt = splitMs / args.iterations - haloMsPerIt;
        const auto each = split.deviceBytesEach();
        const std::string structure = split.structure();
        const auto facts = split.facts();
        const std::string slabs = std::get<std::string>(findFact(facts, "split")->value);
        if (args.json) {
          nlohmann::ordered_json r = {
              {"case", "split3d"},
              {"size", args.size},
              {"depth", depth},
              {"devices", devices.size()},
              {"solver", split.name()},
              {"halo", split.halo()},
              {"exchange", std::get<std::string>(findFact(facts, "split_exchange")->value)},
              {"iterations", args.iterations},
              {"precision", precisionName(p)},
              {"memory", memoryName(split.memoryKind().value_or(MemoryKind::Buffer))},
              {"one_device_ms_per_iteration", oneMs / args.iterations},
              {"split_ms_per_iteration", splitMs / args.iterations},
              {"speedup", oneMs > 0 ? oneMs / splitMs : 0.0},
              {"halo_ms_per_iteration", haloMsPerIt},
              {"exchanges_per_iteration", double(split.exchanges()) / double(split.iterations())},
              {"kernel_ms_per_iteration", kernelMsPerIt},
              {"device_bytes_each", each},
              {"split", slabs}};
          printJsonLine(out, r);
        } else {
          out << std::fixed << std::setprecision(3) << "split3d " << args.size << "x" << args.size
              << "x" << depth << " " << precisionName(p) << " " << structure << ", " << exchange
              << " exchange: one device " << oneMs / args.iterations << " ms/it, split "
              << splitMs / args.iterations << " ms/it (x" << (oneMs > 0 ? oneMs / splitMs : 0.0)
              << "), halo exchange not hidden " << haloMsPerIt << " ms/it, the rest "
              << kernelMsPerIt << " ms/it; " << slabs << "\n";
        }
      }
  }
  return 0;
}

}  // namespace gvflab::bench
