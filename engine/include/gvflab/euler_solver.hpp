#pragma once
// Explicit Euler GVF (first paper, Alg. 1 in 2D, Alg. 2 in 3D), unit time step, double-buffered,
// in any precision (float32, float16, snorm16) and memory kind (buffers, images, local tiles).
#include <cstdint>
#include <memory>
#include <optional>

#include "gvflab/error_metric.hpp"
#include "gvflab/field_storage.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/mu_rule.hpp"
#include "gvflab/one_launch_sync.hpp"
#include "gvflab/solver.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

class ComputeContext;

// The temporal-blocking tile of 2D local-memory Euler (gvf_euler2d_tiled.cl): each launch (or
// phase of a persistent launch) advances `halo` iterations in a width x height tile and writes
// its inner part. width 0 picks 64x64 (halo 8) for grids up to 1024² and 64x32 (halo 4) above
// (the fastest on an H200), or the next that fits the device's work-groups and local memory;
// marching warps (march) for float32 grids above 2048² on NVIDIA GPUs.
struct TileShape {
  int width = 0;
  int height = 0;
  int rowsPerItem = 4;  // pixels of a column each work-item owns
  int halo = 8;         // iterations per launch
  // Pixels of a row each work-item owns; above 1 the blocks of gvf_euler2d_wide.cl (fewer
  // local-memory accesses per pixel).
  int colsPerItem = 1;
  // A warp marching down the rows instead (gvf_euler2d_march.cl): a strip of width = 32 *
  // colsPerItem columns, a chunk of `height` rows, rowsPerItem warps a work-group.
  bool march = false;
};

// The 3D local-memory tile (gvf_euler3d_tiled.cl): tx x ty columns (with a frame of two
// voxels) streamed over zChunk planes, two iterations per launch, each work-item owning `rows`
// consecutive rows of a column. tx 0 picks the preset for the precision and the volume (the
// fastest shapes on an H200, docs/BENCHMARKS.md, the one whose tiles cover the volume's
// columns best for its time): in f16 half-precision pairs (halfPairs) where the device has
// f16x2 instructions and the grid unit spacing, of columns (pairColumns: 66 x 20 x 4, 34 x 36
// with 2 or 3 rows, 34 x 42 x 3) where the width is even, else of rows (36 x 20 or 36 x 40
// with 4 rows); without them 68 x 20
// with 4 rows or 36 x 36 / 36 x 39 with 3 and the next planes loaded a loop turn ahead
// (rawPrefetch); 68 x 20 with 4 rows, the same and plane indices computed without branches
// (branchlessPlanes) in snorm16; in float32 68 x 20 with 4 rows,
// branchless plane indices and V0 copied asynchronously (asyncV0) where the device can, else
// 20 x 36 with 3 rows and branchless plane indices; or smaller ones that fit the device.
// zChunk 0 picks the chunk that walks the fewest planes over all waves of work-groups
// (tile3dChunk in tile3d.hpp). An odd last iteration of a step() runs alone.
struct Tile3D {
  int tx = 0;
  int ty = 0;
  int rows = 1;  // ty must be a multiple of it
  int zChunk = 0;
  bool rawPrefetch = false;
  bool branchlessPlanes = false;
  bool wideIndices = false;  // 64-bit element indices even where 32 bits suffice (for tests)
  // float32 only, NVIDIA compute capability 8.0 and later: V0's next plane copied into local
  // memory by cp.async, holding no registers while in flight (the preset there: 68 x 20 x 4).
  bool asyncV0 = false;
  // f16 only, an even number of rows, unit spacing: the steps in half-precision pairs, two rows
  // a 32-bit word (gvf_euler3d_tiled_h2.cl; PTX f16x2 on NVIDIA GPUs of compute capability 5.3
  // and later). Not equal to the float32 arithmetic: within the f16 storage's own error.
  bool halfPairs = false;
  // With halfPairs: a word holds two columns instead of two rows (gvf_euler3d_tiled_h2c.cl), so
  // a load moves a word where pairs of rows load each half alone; tx then counts lanes of two
  // columns, the frame one lane a side. Any number of rows; the volume's width even. The same
  // field as pairs of rows, bit for bit.
  bool pairColumns = false;
  bool operator==(const Tile3D&) const = default;
};

struct EulerOptions {
  Precision precision = Precision::F32;
  // nullopt: Local (several iterations per launch) on GPUs, Buffer on CPUs.
  std::optional<MemoryKind> memory;
  TileShape tile;
  Tile3D tile3d;
  // 2D local tiles: all iterations of a step() in one launch, the work-groups meeting at a
  // device-wide barrier between tile phases (gvf_euler_steps_persistent). That needs every
  // work-group running at once and a device-wide memory fence: nullopt uses it on NVIDIA GPUs
  // when the tiles number no more than the compute units (small grids, where launches cost
  // more than the work); true asks for it on NVIDIA GPUs and CPU devices (ParameterError when
  // the tiles outnumber the compute units or on other GPUs), false never.
  std::optional<bool> persistent;
};

class EulerSolver : public Solver {
 public:
  // Throws ParameterError if mu is NaN, negative or beyond the stability bound, and
  // ResourceError (naming the size, the limit and what would fit) when the fields do not fit.
  EulerSolver(std::shared_ptr<ComputeContext> ctx, GvfInput input, double mu,
              EulerOptions options = {});
  // V0 already in `v0`, a buffer storage of input's shape in options.precision (input's
  // buffers unused): a split's slab, whose V0 is made piece by piece (slab_split.hpp).
  EulerSolver(std::shared_ptr<ComputeContext> ctx, GvfInput input, std::unique_ptr<FieldStorage> v0,
              double mu, EulerOptions options);
  ~EulerSolver() override;

  // Largest stable μ for the explicit step V += μ∇²V − (V − V0)|V0|² with unit time step:
  // the highest-frequency mode decays iff 4·μ·Σ1/h_i² + max|V0|² ≤ 2 (Σ1/h_i² = dims for unit
  // spacing; mu_rule.hpp).
  static double stabilityBound(double maxV0Squared, int dims = 2);
  double stabilityBound() const {
    return eulerStabilityBound(input_.maxV0Squared, input_.dims(), input_.spacing);
  }

  void setMu(double mu) override;  // checkMu(Euler, ..., MuRule::Refuse); keeps the field
  double mu() const override { return mu_; }
  double muBound() const override;
  Precision precision() const { return options_.precision; }
  MemoryKind memory() const { return *options_.memory; }
  const Tile3D& tile3d() const { return options_.tile3d; }  // as resolved (3D local memory)
  // Whether step() runs 2D local tiles in one launch (EulerOptions::persistent, as resolved).
  bool persistent() const { return persistent_; }
  // Fallbacks taken for the requested memory kind, in a sentence ("" when none).
  const std::string& note() const { return note_; }
  // Device bytes held by the solver's three fields (V twice, V0), the paper's memory figure.
  std::uint64_t deviceBytes() const override;
  // The current field's storage and V0's: a split's halo exchange (slab_split.hpp) writes the
  // first's planes, its gather reads both.
  const FieldStorage& storage() const { return *v_[current_]; }
  const FieldStorage& v0Storage() const { return *v0_; }
  std::optional<MemoryKind> memoryKind() const override { return memory(); }
  std::string storageNote() const override { return note_; }
  std::vector<SolverFact> facts() const override;  // memory, device_bytes, storage_note

  std::string name() const override { return "euler"; }
  std::string kernelPrefix() const override { return "gvf_euler"; }
  void step(int n) override;
  const cl::Buffer& field() override;
  double error() override;
  long iterations() const override { return iterations_; }
  void reset() override;
  int width() const override { return input_.width; }
  int height() const override { return input_.height; }
  int depth() const override { return input_.depth; }

 protected:
  cl::CommandQueue& queue() override;

 private:
  struct Strategy;  // a row of the kernel choice (euler_solver.cpp)
  static const Strategy& chooseStrategy(int dims, bool gpu, MemoryKind memory);
  void setUpPoints2D(const std::string& buildOptions);
  void setUpRows2D(const std::string& buildOptions);
  void setUpTiles2D(const std::string& buildOptions);
  void setUpPoints3D(const std::string& buildOptions);
  void setUpRows3D(const std::string& buildOptions);
  void setUpTiles3D(const std::string& buildOptions);
  void stepTiled2D(int n);
  void setUpPersistent2D(const std::string& buildOptions);
  void stepPersistent2D(int n);
  // Before the field is read: if a one-launch step found its work-groups not all running
  // (the kernel gave up waiting), redo the iterations launch by launch.
  void confirmPersistentSteps();
  void stepTiles3D(int n);
  void stepSingles(int n);
  void (EulerSolver::*step_)(int n) = nullptr;  // the chosen strategy's
  std::shared_ptr<ComputeContext> ctx_;
  GvfInput input_;
  double mu_;
  EulerOptions options_;
  std::string note_;
  std::unique_ptr<FieldStorage> v_[2];
  std::unique_ptr<FieldStorage> v0_;
  int current_ = 0;
  long iterations_ = 0;
  // v, v0, out, width, height, [depth,] mu[, steps]: one iteration a launch (2D, 3D), or
  // `steps` a launch in a local-memory tile (2D)
  TypedKernel<cl::Memory, cl::Memory, cl::Memory, cl_int, cl_int, cl_float> step2d_;
  TypedKernel<cl::Memory, cl::Memory, cl::Memory, cl_int, cl_int, cl_int, cl_float> step3d_;
  const char* step3dName_ = "gvf_euler_step3d";  // its name on the timers
  TypedKernel<cl::Memory, cl::Memory, cl::Memory, cl_int, cl_int, cl_float, cl_int> tiled2d_;
  // 3D local memory: two iterations per launch (gvf_euler_2steps3d_tiled).
  TypedKernel<cl::Memory, cl::Memory, cl::Memory, cl_int, cl_int, cl_int, cl_float> pairKernel_;
  // 2D local memory: a whole step() per launch; va, v0, vb, width, height, mu, iterations,
  // sync, syncBase
  TypedKernel<cl::Memory, cl::Memory, cl::Memory, cl_int, cl_int, cl_float, cl_int, cl::Buffer,
              cl_int>
      persistentKernel_;
  bool persistent_ = false;
  OneLaunchSync sync_;          // the persistent kernel's arrival count and give-up flag
  cl::NDRange local_, global_;  // global_: stepSingles' range
  cl::Buffer exported_;         // float32 copy for field() when the storage differs
  long exportedAt_ = -1;
  std::unique_ptr<ErrorMetric> metric_;
};

// Refuses (ResourceError) a solve whose fields would not fit the device, naming the bytes,
// the limit, and what would fit instead (16-bit storage, a smaller size). extraBytesPerPoint:
// what the solver holds beside its `fields` full fields (multigrid's coarser levels); input:
// the input's bytes resident beside them (default solverInputBytes).
void checkSolverFits(const ComputeContext& ctx, FieldShape shape, Precision precision,
                     int fields = 3, double extraBytesPerPoint = 0,
                     std::optional<std::uint64_t> input = std::nullopt);
// What checkSolverFits counts: the `fields` fields, the extra bytes per point, and the input
// (f and float32 V0) that stays resident beside the solver (solverInputBytes).
std::uint64_t solverBytes(FieldShape shape, Precision precision, int fields = 3,
                          double extraBytesPerPoint = 0);
std::uint64_t solverInputBytes(FieldShape shape);

}  // namespace gvflab
