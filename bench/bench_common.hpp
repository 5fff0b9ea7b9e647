#pragma once
// Shared pieces of gvflab-bench cases.
#include <ctime>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gvflab/device.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/gvf_pipeline.hpp"

namespace gvflab::bench {

struct BenchArgs {
  std::string device;
  int size = 512;
  int iterations = 512;
  int repeats = 5;
  bool json = false;
  std::vector<Precision> precisions{Precision::F32};              // --precision f32|f16|snorm16|all
  std::vector<std::optional<MemoryKind>> memories{std::nullopt};  // --memory ...|all|auto
  TileShape tile;                  // --tile WxHxRxHALO for 2D local memory
  Tile3D tile3d;                   // --tile3d TXxTYxROWSxZCHUNK[+raw][+branchless][+async][+h2]
  std::optional<bool> persistent;  // --persistent on|off|auto, 2D local memory
  std::string markdown;            // accuracy: write the report here
  std::string image;               // accuracy: the real image (PGM/PPM)
  // multigrid (second paper, Table 1): --depth D makes an N x N x D volume; 0 = 2D
  int depth = 0;
  std::optional<double> mu;  // --mu; none: each case's default (benchMu)
  double sigma = 0.5;        // --sigma (the paper's value)
  int mgA = gvflab::kMultigridSweeps.a, mgB = gvflab::kMultigridSweeps.b,
      mgC = gvflab::kMultigridSweeps.c;
  std::vector<int> mgCycles{gvflab::kMultigridSweeps.cycle};  // --mg-cycle (names or numbers)
  std::string phantom =
      "blob";  // --phantom: multigrid's input (2D: u, room, blob; 3D: cup, sphere, blob)
  std::vector<int> mgCoarse{-1};
  std::vector<int> mgFused{-1};       // --mg-fused F[,F...]: MultigridOptions::fused
  std::vector<int> mgPersistent{-1};  // --mg-persistent P[,P...]: MultigridOptions::persistent
  std::vector<int> mgTop{-1};         // --mg-top S[,S...]: MultigridOptions::persistentSide
  bool mgTrace = false;               // --mg-trace: per-level step times of the one-launch path
  std::vector<int> mgGroups{0};       // --mg-groups G[,G...]: MultigridOptions::persistentGroups
  std::vector<int> mgVariant{-1};     // --mg-variant V[,V...]: MultigridOptions::persistentVariant
  // race: frames and OpenCL ms per solver per frame (the viewer's RaceSession::budgetMs)
  int frames = 10;
  double budgetMs = 20;  // --mg-coarse N[,N...]: MultigridOptions::coarseSide
  // region
  double mpix = 15;
  std::optional<double> snr;  // --snr: region (2 when not given), multigrid (noise added)
  int dMax = 32;
  double minSegment = 16;
  // Each combination timed in turn (RegionSnakeOptions; -1: the device's default).
  std::vector<int> regionBands{-1};    // --region-bands B[,B...]: uploadBands
  std::vector<int> regionReserve{-1};  // --region-reserve N[,N...]: nodeReserve
  // surface
  int vertices = 50000;
  // split3d: the devices of the split (all, or chooseDevice selectors after --device's), the
  // halo planes, and whether to skip the one-device run (a volume larger than one device)
  std::vector<std::string> devices{"all"};
  int halo = 4;
  bool splitOnly = false;
  bool splitMultigrid = false;  // --multigrid: multigrid's split (SlabMultigridSolver)
  int splitLevels = -1;         // --split-levels N: its split levels (-1: its choice)
  int subDevices = 0;           // --sub-devices N: over N sub-devices of --device
  // --exchange host|copy[,...]: halos through pinned host memory (each device its own
  // context) or copied device to device (the devices in one context); each timed in turn
  std::vector<std::string> exchanges{"host"};
};

// One JSON Lines record (members in the order given), as every case prints with --json.
// CPU ms of the calling thread: the host's share where the device runs on other threads (PoCL).
inline double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

inline void printJsonLine(std::ostream& out, const nlohmann::ordered_json& record) {
  out << record.dump() << std::endl;  // each record out before a later case can fail
}

// Device-to-device copy bandwidth in GB/s (bytes read + bytes written), best of several runs
// of clEnqueueCopyBuffer timed by its OpenCL event.
double measureCopyGbps(ComputeContext& ctx);

struct EulerTiming {
  double kernelMs = 0;  // sum of the solver's kernel events for all iterations (best repeat)
  double spanMs = 0;    // first start to last end, launch gaps included (best repeat)
};

int runRegion(const BenchArgs& args, std::ostream& out);  // third paper, Table I

// Times `iterations` Euler steps (after a warm-up), best of `repeats`.
EulerTiming timeEuler(ComputeContext& ctx, EulerSolver& solver, int iterations, int repeats);

// The Euler solver the flags ask for at one precision and memory kind (tiles, one launch).
inline SolverConfig eulerConfig(const BenchArgs& args, Precision precision,
                                std::optional<MemoryKind> memory) {
  SolverConfig c;
  c.precision = precision;
  c.memory = memory;
  c.tile = args.tile;
  c.tile3d = args.tile3d;
  c.persistent = args.persistent;
  return c;
}

// The μ a case runs on this input, by the engine's rule (mu_rule.hpp): --mu as given, refused
// with the rule's sentence outside Euler's range (every case runs Euler; multigrid's range holds
// Euler's but μ = 0, which its solver refuses); else the case's default, fitted to the input.
inline double benchMu(const BenchArgs& args, const GvfInput& input, double fallback) {
  if (args.mu) return checkMu(SolverKind::Euler, input, *args.mu, MuRule::Refuse).mu;
  return checkMu(SolverKind::Euler, input, fallback, MuRule::FitDefault).mu;
}

// The first paper's traffic model: read V and V0, write V, dims components each.
double bytesPerPoint(int dims, Precision p);

int runEuler(const BenchArgs& args, int dims, std::ostream& out);  // euler2d, euler3d
int runSizes(const BenchArgs& args, std::ostream& out);            // Fig. 5
int runMemory(const BenchArgs& args, std::ostream& out);           // Figs. 6 and 7
int runAccuracy(const BenchArgs& args, std::ostream& out);         // Table 3 -> ACCURACY.md
int runMultigrid(const BenchArgs& args, std::ostream& out);        // second paper, Table 1
int runRace(const BenchArgs& args, std::ostream& out);             // the viewer's race
int runSurface(const BenchArgs& args, std::ostream& out);          // issue 30: surface snakes
int runSnake(const BenchArgs& args, std::ostream& out);            // issue 42: the viewer's snake
int runSplit(const BenchArgs& args, std::ostream& out);            // issue 41: z-slab split
int runForces(const BenchArgs& args, std::ostream& out);           // issue 43: GGVF, VFC, distance
int runFloor(const BenchArgs& args, std::ostream& out);            // a pass's byte floor

}  // namespace gvflab::bench
