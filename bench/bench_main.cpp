// gvflab-bench CASE [options]: engine benchmarks timed with OpenCL events.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "gvflab/error.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/mu_rule.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/params.hpp"
#include "gvflab/region_types.hpp"

namespace {

const char* kUsage =
    "Usage: gvflab-bench CASE [--size N] [--iterations K] [--repeats R] [--device D] [--json]\n"
    "                    [--precision f32|f16|snorm16|all] [--memory buffer|image|local|auto|all]\n"
    "                    [--mpix M] [--snr S] [--d-max D] [--min-segment L]\n"
    "                    [--region-bands B[,B...]] (upload in B row bands; 0 one; -1 auto)\n"
    "                    [--region-reserve N[,N...]] (nodes first allocated for; 0 64)\n"
    "                    [--depth D] [--mu M] [--sigma S] [--mg-a A] [--mg-b B] [--mg-c C]\n"
    "                    [--mg-cycle C[,C...]] (auto, fmg, vcycles, twogrid: MultigridCycle)\n"
    "                    [--phantom P] (multigrid's input: u, room, blob in 2D; cup, sphere,\n"
    "                    blob in 3D; --snr S adds Gaussian noise of contrast / S)\n"
    "                    [--mg-coarse N[,N...]] (levels of side <= N in one work-group; -1 auto)\n"
    "                    [--mg-fused F[,F...]] (both colours per launch: 1, two launches: 0,\n"
    "                    2D level 0's runs in one launch each: 2, -1 auto)\n"
    "                    [--mg-persistent P[,P...]] (every iteration in one launch: 1, 0, -1 "
    "auto)\n"
    "                    [--mg-groups G[,G...]] (its work-groups; 0: one per compute unit)\n"
    "                    [--mg-top S[,S...]] (levels of side <= S in that launch; -1 auto)\n"
    "                    [--mg-trace] (that launch's time per level, NVIDIA: JSON mg_trace)\n"
    "                    [--mg-variant V[,V...]] (one launch, bits: 1 one barrier, 2 folded\n"
    "                    prolongation, 4 local step list; -1 auto)\n"
    "                    [--tile WxHxROWSxHALO[xCOLS][+march]]  (COLS: columns per work-item;\n"
    "                    +march: a warp per 32*COLS = W columns down H rows, ROWS warps a group)\n"
    "                    [--tile3d TXxTYxROWSxZCHUNK[+raw][+branchless][+async][+h2][+h2c]]\n"
    "                    [--persistent on|off|auto]  (2D local tiles: a step() in one launch)\n"
    "                    [--vertices V]  (surface)\n"
    "                    [--devices all|P.D,P.D...] [--halo K] [--split-only] [--multigrid]\n"
    "                    [--split-levels L] [--sub-devices N] [--exchange host|copy[,...]]\n"
    "                    (split3d)\n"
    "Cases:\n"
    "  devices   list the OpenCL devices\n"
    "  euler2d   explicit Euler GVF on an N x N image, K iterations; reports ms/iteration,\n"
    "            bytes moved and the fraction of the copy bandwidth measured in the same run\n"
    "  euler3d   the same on an N x N x N volume\n"
    "  sizes     K iterations for every side 64, 128, ... up to N (first paper, Fig. 5)\n"
    "  memory    device memory of the fields against the side (first paper, Figs. 6-7)\n"
    "  accuracy  16-bit against float32 errors (first paper, Table 3) [--image F.pgm]\n"
    "            [--markdown docs/ACCURACY.md]\n"
    "  multigrid second paper, Table 1: Euler K iterations on an N x N blob (N x N x D with\n"
    "            --depth D), then multigrid until it reaches the same error or lower; both\n"
    "            times (kernel sum and span), iterations, errors and the speed-up per\n"
    "            precision (mu 0.1, sigma 0.5, a 1, b 2 as in the paper, c 2 by default)\n"
    "  race      the viewer's equal-time race on an N x N blob: per frame (--frames F, default\n"
    "            10) each solver gets --budget ms of OpenCL time (default 20, the viewer's);\n"
    "            prints OpenCL time so far, iterations and error per solver and frame\n"
    "  split3d   a volume's Euler solve (N x N x N, or x D with --depth) on --device, then\n"
    "            split in z-slabs over --devices (default all) with halos of --halo planes\n"
    "            (default 4): wall ms per iteration of each, speed-up, halo exchange ms not\n"
    "            hidden per iteration and the rest, bytes per device (--split-only: no one-device\n"
    "            run; --multigrid: multigrid's split, its fine levels over the devices,\n"
    "            --split-levels of them, default its choice; --exchange: halos through the\n"
    "            host, or copied device to device in one context; a list times each)\n"
    "  floor     the byte floor of two Euler steps a pass on an N x N image (N x N x D with\n"
    "            --depth D): one pass's bytes (read V and V0, write V) streamed at every lane\n"
    "            width and 1-8 loads in flight a work-item; ms for K / 2 passes, and the best;\n"
    "            with --depth also in the 3D tiles' pattern (their frames, z chunks and 1-3\n"
    "            planes ahead, no steps): the floor of that tiling\n"
    "  forces    each external force's field time on an N x N blob (N x N x D ball with\n"
    "            --depth D): K iterations of Euler GVF and of GGVF, VFC (radius 32, 8 in 3D)\n"
    "            and the distance force (exact EDT), OpenCL kernel ms (best of --repeats)\n"
    "  surface   a GVF surface snake on an N^3 sphere, started as a cube of about --vertices V\n"
    "            vertices (default 50000): surface iterations per second (wall) and OpenCL ms\n"
    "            per iteration and kernel (best of --repeats, default 2)\n"
    "  snake     the viewer's snake phase: one snake on the N x N U phantom, K frames of 4\n"
    "            iterations and a read-back; wall and host-thread CPU ms a frame, nodes\n"
    "  region    region snake (PLH) on a synthetic M-megapixel noisy star (default 15, SNR 2,\n"
    "            d_max 32, min segment 16); reports total, pre-computation and segmentation\n"
    "            times, steps, iterations, nodes, bytes per pixel and IoU (best of --repeats,\n"
    "            default 3)\n";

int parseInt(const std::string& flag, const std::string& text, int lo, int hi) {
  int v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < lo || v > hi)
    throw gvflab::ParameterError(flag + " needs a whole number in [" + std::to_string(lo) + ", " +
                                 std::to_string(hi) + "], not '" + text + "'.");
  return v;
}

double parseDouble(const std::string& flag, const std::string& text, double lo, double hi) {
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || !(v >= lo && v <= hi))
    throw gvflab::ParameterError(flag + " needs a number in [" + std::to_string(lo) + ", " +
                                 std::to_string(hi) + "], not '" + text + "'.");
  return v;
}

// A flag whose range is a parameter's, from its ParamSpec table (one range for every client).
double parseSpec(const std::string& flag, const std::string& text,
                 const std::vector<gvflab::ParamSpec>& specs, const std::string& key) {
  const gvflab::ParamSpec& s = gvflab::findSpec(specs, key);
  if (s.integer)
    return parseInt(flag, text, static_cast<int>(s.minValue), static_cast<int>(s.maxValue));
  return parseDouble(flag, text, s.minValue, s.maxValue);
}

// A flag's comma-separated list, each item as `parse` reads it.
template <class Parse>
auto commaList(const std::string& list, Parse parse) {
  std::vector<decltype(parse(list))> items;
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    items.push_back(parse(list.substr(at, comma - at)));
    at = comma + 1;
  }
  return items;
}

// --mg-cycle's comma list of MultigridCycle names or numbers (the table's choices).
std::vector<int> parseCycles(const std::string& list) {
  const gvflab::ParamSpec& spec = gvflab::findSpec(gvflab::multigridParamSpecs(), "mg-cycle");
  return commaList(list, [&](const std::string& item) {
    return static_cast<int>(gvflab::choiceValue(spec, item));
  });
}

double parseNumber(const std::string& flag, const std::string& text) {
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v))
    throw gvflab::ParameterError(flag + " needs a number, not '" + text + "'.");
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  try {
    gvflab::bench::BenchArgs b;
    for (std::size_t i = 1; i < args.size(); ++i) {
      auto value = [&]() -> std::string {
        if (i + 1 >= args.size()) throw gvflab::ParameterError(args[i] + " needs a value.");
        return args[++i];
      };
      if (args[i] == "--size")
        b.size = parseInt("--size", value(), gvflab::kMinPhantomSide, gvflab::kMaxImageSide);
      else if (args[i] == "--iterations")
        b.iterations = parseInt(  // at least 1: the table's 0 (solve to a target) times nothing
            "--iterations", value(), 1,
            static_cast<int>(gvflab::findSpec(gvflab::gvfParamSpecs(), "iterations").maxValue));
      else if (args[i] == "--repeats")
        b.repeats = parseInt("--repeats", value(), 1, 1000);
      else if (args[i] == "--device")
        b.device = value();
      else if (args[i] == "--mpix")
        b.mpix = parseDouble("--mpix", value(), 0.01, 1000);
      else if (args[i] == "--snr")
        b.snr = parseDouble("--snr", value(), 0.1, 100);
      else if (args[i] == "--d-max")
        b.dMax = static_cast<int>(
            parseSpec("--d-max", value(), gvflab::regionSnakeParamSpecs(), "d-max"));
      else if (args[i] == "--min-segment")
        b.minSegment =
            parseSpec("--min-segment", value(), gvflab::regionSnakeParamSpecs(), "min-segment");
      else if (args[i] == "--vertices")
        b.vertices = parseInt("--vertices", value(), 12, 1 << 20);
      else if (args[i] == "--json")
        b.json = true;
      else if (args[i] == "--devices" || args[i] == "--exchange") {
        const bool exchange = args[i] == "--exchange";
        (exchange ? b.exchanges : b.devices) = commaList(value(), [&](const std::string& item) {
          if (exchange && item != "host" && item != "copy")
            throw gvflab::ParameterError("--exchange takes host or copy, not '" + item + "'.");
          return item;
        });
      } else if (args[i] == "--halo")
        b.halo = parseInt("--halo", value(), 1, 64);
      else if (args[i] == "--split-only")
        b.splitOnly = true;
      else if (args[i] == "--multigrid")
        b.splitMultigrid = true;
      else if (args[i] == "--split-levels")
        b.splitLevels = parseInt("--split-levels", value(), 1, 15);
      else if (args[i] == "--sub-devices")
        b.subDevices = parseInt("--sub-devices", value(), 1, 64);
      else if (args[i] == "--depth")
        b.depth = parseInt("--depth", value(), 2, gvflab::kMaxImageSide);
      else if (args[i] == "--mu") {  // each solver's range on the input: mu_rule.hpp
        b.mu = parseNumber("--mu", value());
        gvflab::requireMuForSomeSolver(*b.mu);
      } else if (args[i] == "--sigma")
        b.sigma = parseSpec("--sigma", value(), gvflab::gvfParamSpecs(), "sigma");
      else if (args[i] == "--mg-a")
        b.mgA =
            static_cast<int>(parseSpec("--mg-a", value(), gvflab::multigridParamSpecs(), "mg-a"));
      else if (args[i] == "--mg-b")
        b.mgB =
            static_cast<int>(parseSpec("--mg-b", value(), gvflab::multigridParamSpecs(), "mg-b"));
      else if (args[i] == "--mg-c")
        b.mgC =
            static_cast<int>(parseSpec("--mg-c", value(), gvflab::multigridParamSpecs(), "mg-c"));
      else if (args[i] == "--mg-cycle")
        b.mgCycles = parseCycles(value());
      else if (args[i] == "--phantom")
        b.phantom = value();
      else if (args[i] == "--frames")
        b.frames = parseInt("--frames", value(), 1, 100000);
      else if (args[i] == "--budget")
        b.budgetMs = parseDouble("--budget", value(), 0.01, 10000);
      else if (args[i] == "--mg-trace")
        b.mgTrace = true;
      else if (args[i] == "--mg-coarse" || args[i] == "--mg-fused" ||
               args[i] == "--mg-persistent" || args[i] == "--mg-groups" || args[i] == "--mg-top" ||
               args[i] == "--mg-variant" || args[i] == "--region-bands" ||
               args[i] == "--region-reserve") {
        const std::string flag = args[i];
        std::vector<int>& list = flag == "--mg-coarse"        ? b.mgCoarse
                                 : flag == "--mg-fused"       ? b.mgFused
                                 : flag == "--mg-persistent"  ? b.mgPersistent
                                 : flag == "--mg-top"         ? b.mgTop
                                 : flag == "--mg-variant"     ? b.mgVariant
                                 : flag == "--region-bands"   ? b.regionBands
                                 : flag == "--region-reserve" ? b.regionReserve
                                                              : b.mgGroups;
        const int top = flag == "--mg-persistent"        ? 1
                        : flag == "--mg-fused"           ? 2
                        : flag == "--mg-variant"         ? 7
                        : flag.rfind("--region", 0) == 0 ? 1 << 20
                                                         : 16384;
        list = commaList(value(), [&](const std::string& item) {
          return parseInt(flag.c_str(), item, flag == "--mg-groups" ? 0 : -1, top);
        });
      } else if (args[i] == "--precision") {
        const std::string v = value();
        b.precisions = v == "all" ? std::vector<gvflab::Precision>{gvflab::Precision::F32,
                                                                   gvflab::Precision::F16,
                                                                   gvflab::Precision::SNorm16}
                                  : std::vector<gvflab::Precision>{gvflab::parsePrecision(v)};
      } else if (args[i] == "--memory") {
        const std::string v = value();
        using M = gvflab::MemoryKind;
        if (v == "all")
          b.memories = {M::Buffer, M::Image, M::Local};
        else if (v == "auto")
          b.memories = {std::nullopt};
        else
          b.memories = {gvflab::parseMemory(v)};
      } else if (args[i] == "--tile") {
        const std::string v = value();
        b.tile.colsPerItem = 1;
        if (std::sscanf(v.c_str(), "%dx%dx%dx%dx%d", &b.tile.width, &b.tile.height,
                        &b.tile.rowsPerItem, &b.tile.halo, &b.tile.colsPerItem) < 4)
          throw gvflab::ParameterError(
              "--tile needs WxHxROWSxHALO[xCOLS][+march], e.g. 64x32x8x4 or 64x32x4x4x2.");
        b.tile.march = v.find("+march") != std::string::npos;
      } else if (args[i] == "--persistent") {
        const std::string v = value();
        if (v == "on")
          b.persistent = true;
        else if (v == "off")
          b.persistent = false;
        else if (v == "auto")
          b.persistent.reset();
        else
          throw gvflab::ParameterError("--persistent takes on, off or auto.");
      } else if (args[i] == "--tile3d") {
        const std::string v = value();
        if (std::sscanf(v.c_str(), "%dx%dx%dx%d", &b.tile3d.tx, &b.tile3d.ty, &b.tile3d.rows,
                        &b.tile3d.zChunk) != 4)
          throw gvflab::ParameterError(
              "--tile3d needs TXxTYxROWSxZCHUNK[+raw][+branchless][+async][+h2][+h2c], e.g. "
              "36x36x3x0+raw "
              "(ZCHUNK 0: fill the device).");
        b.tile3d.rawPrefetch = v.find("+raw") != std::string::npos;
        b.tile3d.branchlessPlanes = v.find("+branchless") != std::string::npos;
        b.tile3d.asyncV0 = v.find("+async") != std::string::npos;
        b.tile3d.halfPairs = v.find("+h2") != std::string::npos;  // +h2c too
        b.tile3d.pairColumns = v.find("+h2c") != std::string::npos;
      } else if (args[i] == "--markdown")
        b.markdown = value();
      else if (args[i] == "--image")
        b.image = value();
      else
        throw gvflab::ParameterError("Unknown option '" + args[i] + "'.\n" + kUsage);
    }
    if (args[0] == "devices") {
      for (const auto& d : gvflab::listDevices()) std::cout << d.describe() << "\n";
      return 0;
    }
    if (args[0] == "euler2d") return gvflab::bench::runEuler(b, 2, std::cout);
    if (args[0] == "euler3d") return gvflab::bench::runEuler(b, 3, std::cout);
    if (args[0] == "sizes") return gvflab::bench::runSizes(b, std::cout);
    if (args[0] == "memory") return gvflab::bench::runMemory(b, std::cout);
    if (args[0] == "accuracy") return gvflab::bench::runAccuracy(b, std::cout);
    if (args[0] == "multigrid") {
      if (std::find(args.begin(), args.end(), "--repeats") == args.end()) b.repeats = 3;
      return gvflab::bench::runMultigrid(b, std::cout);
    }
    if (args[0] == "surface") {
      if (std::find(args.begin(), args.end(), "--repeats") == args.end()) b.repeats = 2;
      return gvflab::bench::runSurface(b, std::cout);
    }
    if (args[0] == "snake") return gvflab::bench::runSnake(b, std::cout);
    if (args[0] == "split3d") return gvflab::bench::runSplit(b, std::cout);
    if (args[0] == "race") return gvflab::bench::runRace(b, std::cout);
    if (args[0] == "forces") return gvflab::bench::runForces(b, std::cout);
    if (args[0] == "floor") return gvflab::bench::runFloor(b, std::cout);
    if (args[0] == "region") {
      if (std::find(args.begin(), args.end(), "--repeats") == args.end()) b.repeats = 3;
      return gvflab::bench::runRegion(b, std::cout);
    }
    std::cerr << "gvflab-bench: unknown case '" << args[0] << "'.\n" << kUsage;
    return 2;
  } catch (const gvflab::Error& e) {
    std::cerr << "gvflab-bench: " << e.what() << "\n";
    return 1;
  } catch (const cl::Error& e) {
    std::cerr << "gvflab-bench: OpenCL error " << e.what() << " (" << e.err() << ")\n";
    return 1;
  }
}
