#include "gvflab/euler_solver.hpp"

#include <algorithm>
#include <array>

#include "cl/launch.hpp"
#include "gvf/march_tile.hpp"
#include "gvf/persistent_wait.hpp"
#include "gvf/tile3d.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/grid_spacing.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/kernel_library.hpp"

namespace gvflab {
namespace {

bool nvidiaGpu(const DeviceInfo& info) {
  return info.isGpu && info.platformName.find("NVIDIA") != std::string::npos;
}

// Work-items of a tile's work-group: rowsPerItem warps when marching.
int tileItems(const TileShape& t) {
  if (t.march) return 32 * t.rowsPerItem;
  return t.width / std::max(1, t.colsPerItem) * (t.height / std::max(1, t.rowsPerItem));
}

// The tile holds float2 values in every precision (gvf_euler2d_tiled.cl); marching warps only
// each lane's end pixels, where no shuffles exist (gvf_euler2d_march.cl).
std::uint64_t tileLocalBytes(const TileShape& t) {
  if (t.march) return 2ull * 32 * t.rowsPerItem * 2 * sizeof(float);
  return 2ull * t.width * t.height * sizeof(float);
}

TileShape resolveTile(TileShape t, const ComputeContext& ctx, int width, int height,
                      Precision precision) {
  if (t.width != 0) return t;
  const std::uint64_t points = static_cast<std::uint64_t>(width) * height;
  // Measured on an H200: grids that fit the L2 cache are bound by the steps inside a launch,
  // so more iterations per launch (halo 8) win; on large grids the cheaper halo-4 tile wins
  // (0.97 of the copy-speed model in f16 at 4096², 0.87 in snorm16). Blocks of 2 columns per
  // work-item (gvf_euler2d_wide.cl) measured faster there (docs/BENCHMARKS.md, "Issue 29 item
  // 3, second round": 512² f32 and f16 0.549 -> 0.509 ms, 4096² 7-8 % per iteration), except
  // snorm16 at 512², where they tie.
  // Float32 grids beyond the L2 cache on NVIDIA GPUs: warps marching down the rows, no
  // vertical halo and no barriers (gvf_euler2d_march.cl): 4096² 47.7 -> 33.5 us an iteration
  // on an H200, in chunks that keep the whole grid resident and rows fetched into L2 ahead
  // (march_tile.hpp); 2048² and the 16-bit fields measured slower (docs/BENCHMARKS.md,
  // march-42, march-chunks).
  if (points > 2048ull * 2048 && precision == Precision::F32 && nvidiaGpu(ctx.info()))
    return detail::marchTile(width, height, ctx.info().computeUnits);
  const bool small = points <= 1024ull * 1024, snorm = precision == Precision::SNorm16;
  const TileShape big = snorm ? TileShape{64, 64, 4, 8} : TileShape{64, 64, 2, 8, 2};
  const TileShape lean = snorm ? TileShape{64, 32, 2, 4, 2} : TileShape{64, 32, 4, 4, 2};
  const TileShape oldBig{64, 64, 4, 8}, oldLean{64, 32, 4, 4}, tiny{32, 32, 4, 4};
  const std::array<TileShape, 5> order =
      small ? std::array<TileShape, 5>{big, oldBig, lean, oldLean, tiny}
            : std::array<TileShape, 5>{lean, oldLean, big, oldBig, tiny};
  for (const TileShape& c : order)
    if (tileLocalBytes(c) <= ctx.info().localMemBytes &&
        static_cast<std::size_t>(tileItems(c)) <= ctx.info().maxWorkGroupSize)
      return c;
  return TileShape{16, 16, 2, 2};
}

std::string tileOptions(const TileShape& t, const ComputeContext& ctx) {
  const int cols = std::max(1, t.colsPerItem), items = tileItems(t);
  if (t.rowsPerItem < 1 || (!t.march && t.height % t.rowsPerItem != 0) || t.colsPerItem < 1 ||
      t.width % cols != 0 || (t.march && t.width != 32 * cols) || t.halo < 1 ||
      t.width <= 2 * t.halo || t.height <= 2 * t.halo ||
      static_cast<std::size_t>(items) > ctx.info().maxWorkGroupSize ||
      tileLocalBytes(t) > ctx.info().localMemBytes)
    throw ParameterError("Tile " + std::to_string(t.width) + "x" + std::to_string(t.height) +
                         " with " + std::to_string(t.rowsPerItem) + " rows and " +
                         std::to_string(t.colsPerItem) + " columns per work-item and halo " +
                         std::to_string(t.halo) + (t.march ? " marching" : "") +
                         " does not fit this device's work-groups.");
  return " -DTILE_W=" + std::to_string(t.width) + " -DTILE_H=" + std::to_string(t.height) +
         " -DROWS_PER_ITEM=" + std::to_string(t.rowsPerItem) + " -DHALO=" + std::to_string(t.halo) +
         (cols > 1 ? " -DCOLS_PER_ITEM=" + std::to_string(cols) : std::string());
}

// The 2D tile's file and its kernels (HALO steps a launch; all steps in one launch): blocks of
// several columns per work-item live in their own file.
struct TileKernels {
  const char* file;
  const char* steps;
  const char* persistent;
};
TileKernels tileKernels(const TileShape& t) {
  if (t.march) return {"gvf_euler2d_march.cl", "gvf_euler_steps_march", nullptr};
  if (t.colsPerItem > 1)
    return {"gvf_euler2d_wide.cl", "gvf_euler_steps_wide", "gvf_euler_steps_wide_persistent"};
  return {"gvf_euler2d_tiled.cl", "gvf_euler_steps_tiled", "gvf_euler_steps_persistent"};
}

std::array<std::size_t, 2> tileGroups2D(const TileShape& t, int width, int height) {
  const int innerW = t.width - 2 * t.halo, innerH = t.height - 2 * t.halo;
  if (t.march)  // strips of innerW written columns, rowsPerItem a group; chunks of height rows
    return {detail::roundUp(detail::roundUp(width, innerW) / innerW, t.rowsPerItem) / t.rowsPerItem,
            detail::roundUp(height, t.height) / t.height};
  return {detail::roundUp(width, innerW) / innerW, detail::roundUp(height, innerH) / innerH};
}

// The arguments every Euler kernel keeps for the solver's life: V0 (1) and the size (3, 4[, 5]).
template <bool Depth, class Kernel>
void bindFixed(Kernel& k, const FieldStorage& v0, const GvfInput& in) {
  k.template arg<1>(v0.memory());
  k.template arg<3>(in.width);
  k.template arg<4>(in.height);
  if constexpr (Depth) k.template arg<5>(in.depth);
}

}  // namespace

double EulerSolver::stabilityBound(double maxV0Squared, int dims) {
  return eulerStabilityBound(maxV0Squared, dims);
}

// Which kernels Euler runs: the first row that matches the input's dims, the device (GPU or
// not) and the memory kind as resolved sets the solver up and steps it.
struct EulerSolver::Strategy {
  int dims;
  std::optional<bool> gpu;           // nullopt: any device
  std::optional<MemoryKind> memory;  // nullopt: any memory
  void (EulerSolver::*setUp)(const std::string& buildOptions);
  void (EulerSolver::*step)(int n);
};

const EulerSolver::Strategy& EulerSolver::chooseStrategy(int dims, bool gpu, MemoryKind memory) {
  using E = EulerSolver;
  static const Strategy table[] = {
      // Local tiles, HALO iterations a launch or all in one (gvf_euler2d_tiled.cl, _wide.cl).
      {2, std::nullopt, MemoryKind::Local, &E::setUpTiles2D, &E::stepTiled2D},
      // Local tiles, 2 iterations a launch (gvf_euler3d_tiled.cl).
      {3, std::nullopt, MemoryKind::Local, &E::setUpTiles3D, &E::stepTiles3D},
      // CPUs: a work-item per row (gvf_euler_rows3d).
      {3, false, MemoryKind::Buffer, &E::setUpRows3D, &E::stepSingles},
      // CPUs: a work-item per row (gvf_euler_rows).
      {2, false, MemoryKind::Buffer, &E::setUpRows2D, &E::stepSingles},
      // Else a work-item per point, one iteration a launch (gvf_euler2d.cl, gvf_euler3d.cl).
      {3, std::nullopt, std::nullopt, &E::setUpPoints3D, &E::stepSingles},
      {2, std::nullopt, std::nullopt, &E::setUpPoints2D, &E::stepSingles},
  };
  const Strategy* s = std::begin(table);  // the last rows match any device and memory
  while (s->dims != dims || s->gpu.value_or(gpu) != gpu || s->memory.value_or(memory) != memory)
    ++s;
  return *s;
}

EulerSolver::EulerSolver(std::shared_ptr<ComputeContext> ctx, GvfInput input, double mu,
                         EulerOptions options)
    : EulerSolver(std::move(ctx), std::move(input), nullptr, mu, options) {}

EulerSolver::EulerSolver(std::shared_ptr<ComputeContext> ctx, GvfInput input,
                         std::unique_ptr<FieldStorage> v0, double mu, EulerOptions options)
    : ctx_(std::move(ctx)), input_(std::move(input)), mu_(0), options_(options) {
  setMu(mu);
  const bool is3d = input_.dims() == 3;
  if (!options_.memory)
    options_.memory = ctx_->info().isGpu ? MemoryKind::Local : MemoryKind::Buffer;
  const FieldShape shape{input_.width, input_.height, input_.depth};
  checkSolverFits(*ctx_, shape, options_.precision, 3, 0,
                  v0 ? std::optional<std::uint64_t>(0) : std::nullopt);
  // The preset tiles fall back to buffers on small devices; a chosen tile is refused when it
  // does not fit (resolveTile3D).
  if (is3d && *options_.memory == MemoryKind::Local) {
    auto tile = detail::resolveTile3D(options_.tile3d, options_.precision, ctx_->info(), shape,
                                      isUnitSpacing(input_.spacing, input_.dims()));
    if (tile) {
      options_.tile3d = *tile;
    } else {
      options_.memory = MemoryKind::Buffer;
      note_ = "the device's work-groups are too small for 3D local tiles: using buffers";
    }
  }
  const bool wantImage = *options_.memory == MemoryKind::Image;
  try {
    v0_ = std::move(v0);
    if (!v0_) {
      v0_ = std::make_unique<FieldStorage>(*ctx_, shape, options_.precision, wantImage);
      v0_->importFrom(input_.v0);
    }
    for (auto& v : v_)
      v = std::make_unique<FieldStorage>(*ctx_, shape, options_.precision, v0_->isImage());
    if (note_.empty()) note_ = v0_->note();
    if (wantImage && !v0_->isImage()) options_.memory = MemoryKind::Buffer;
    const std::string opts =
        v0_->buildOptions() + spacingBuildOptions(input_.spacing, input_.dims());
    const Strategy& strategy = chooseStrategy(input_.dims(), ctx_->info().isGpu, *options_.memory);
    (this->*strategy.setUp)(opts);
    step_ = strategy.step;
    metric_ = std::make_unique<ErrorMetric>(ctx_, shape, v0_->memory(), opts);
  } catch (const cl::Error& e) {
    rethrowClError(e, "setting up the Euler solver");
  }
  reset();
}

EulerSolver::~EulerSolver() = default;

void EulerSolver::setUpPoints2D(const std::string& opts) {
  step2d_ = ctx_->kernels().kernel("gvf_euler2d.cl", "gvf_euler_step", opts);
  bindFixed<false>(step2d_, *v0_, input_);
  local_ = detail::localSize2D(ctx_->info());
  global_ = detail::paddedRange(input_.width, input_.height, 1, local_);
}

// CPUs: a work-item per row (gvf_euler_rows), 16 rows per work-group.
void EulerSolver::setUpRows2D(const std::string& opts) {
  step2d_ = ctx_->kernels().kernel("gvf_euler2d.cl", "gvf_euler_rows", opts);
  bindFixed<false>(step2d_, *v0_, input_);
  local_ = cl::NDRange(16);
  global_ = cl::NDRange(detail::roundUp(input_.height, local_[0]));
}

void EulerSolver::setUpTiles2D(const std::string& opts) {
  options_.tile =
      resolveTile(options_.tile, *ctx_, input_.width, input_.height, options_.precision);
  const TileShape& t = options_.tile;
  // Shuffles between a warp's lanes (inline PTX) on NVIDIA, local memory elsewhere; there
  // short chunks fetch rows into L2 ahead of their loads and stream their stores
  // (march_tile.hpp).
  std::string tiled = opts + tileOptions(t, *ctx_);
  if (t.march && nvidiaGpu(ctx_->info()))
    tiled +=
        std::string(" -DMARCH_SHFL") + (detail::marchFetchesAhead(t) ? " -DMARCH_L2_AHEAD=3" : "");
  tiled2d_ = ctx_->kernels().kernel(tileKernels(t).file, tileKernels(t).steps, tiled);
  bindFixed<false>(tiled2d_, *v0_, input_);
  local_ = t.march ? cl::NDRange(tileItems(t), 1)
                   : cl::NDRange(t.width / std::max(1, t.colsPerItem), t.height / t.rowsPerItem);
  setUpPersistent2D(tiled);
}

void EulerSolver::setUpPoints3D(const std::string& opts) {
  step3d_ = ctx_->kernels().kernel("gvf_euler3d.cl", "gvf_euler_step3d", opts);
  bindFixed<true>(step3d_, *v0_, input_);
  local_ = cl::NDRange(32, 4, 2);
  global_ = detail::paddedRange(input_.width, input_.height, input_.depth, local_);
}

// CPUs: a work-item per row of x (gvf_euler_rows3d), 16 rows per work-group.
void EulerSolver::setUpRows3D(const std::string& opts) {
  step3d_ = ctx_->kernels().kernel("gvf_euler3d.cl", "gvf_euler_rows3d", opts);
  bindFixed<true>(step3d_, *v0_, input_);
  local_ = cl::NDRange(16, 1);
  global_ = detail::paddedRange(input_.height, input_.depth, 1, local_);
}

void EulerSolver::setUpTiles3D(const std::string& opts) {
  const FieldShape shape{input_.width, input_.height, input_.depth};
  const Tile3D& t = options_.tile3d;
  const std::string tileOpts = opts + detail::tile3dOptions(t, shape, ctx_->info());
  const detail::Tile3DKernel k = detail::tile3dKernel(t);
  pairKernel_ = ctx_->kernels().kernel(k.file, k.name, tileOpts);
  bindFixed<true>(pairKernel_, *v0_, input_);
  setUpPoints3D(opts);  // an odd last iteration runs a single-step kernel
  if (!t.halfPairs) return;
  // Half pairs: an odd last iteration in the same half arithmetic, so that steps taken one at a
  // time (a split's exchanges, the viewer) give the fields two-step launches give.
  const bool ptx = detail::halfPairInstructions(ctx_->info());
  step3d_ = ctx_->kernels().kernel("gvf_euler_step3d_h2.cl", "gvf_euler_step3d_h2",
                                   opts + (ptx ? " -DHALF2_PTX" : ""));
  bindFixed<true>(step3d_, *v0_, input_);
  step3dName_ = "gvf_euler_step3d_h2";
}

std::vector<SolverFact> EulerSolver::facts() const {
  return {{"memory", std::string(memoryName(memory()))},
          {"device_bytes", static_cast<std::int64_t>(deviceBytes())},
          {"storage_note", note_}};
}

std::uint64_t EulerSolver::deviceBytes() const {
  return v0_->bytes() + v_[0]->bytes() + v_[1]->bytes();
}

void EulerSolver::setMu(double mu) {
  mu_ = checkMu(SolverKind::Euler, input_, mu, MuRule::Refuse).mu;
}

double EulerSolver::muBound() const { return gvflab::muBound(SolverKind::Euler, input_); }

void EulerSolver::reset() {
  v_[0]->copyFrom(*v0_);
  current_ = 0;
  iterations_ = 0;
  exportedAt_ = -1;
}

void EulerSolver::setUpPersistent2D(const std::string& buildOptions) {
  const DeviceInfo& info = ctx_->info();
  const bool asked = options_.persistent.value_or(false);
  if (!options_.persistent.value_or(info.isGpu)) return;
  if (options_.tile.march) {
    if (asked) throw ParameterError("One launch for all iterations has no marching tiles.");
    return;
  }
  // The barrier between phases needs a device-wide memory fence (gvf_euler2d_tiled.cl).
  const bool nvidia = nvidiaGpu(info);
  if (info.isGpu && !nvidia) {
    if (asked)
      throw ParameterError(
          "One launch for all iterations needs a device-wide memory fence that "
          "gvflab knows only on NVIDIA GPUs and CPU devices, not on " +
          info.name + ".");
    return;
  }
  const auto groups = tileGroups2D(options_.tile, input_.width, input_.height);
  const std::size_t count = groups[0] * groups[1];
  const auto units = static_cast<std::size_t>(std::max(1, info.computeUnits));
  if (count > units) {
    if (asked)
      throw ParameterError("One launch for all iterations needs all " + std::to_string(count) +
                           " tiles of this " + std::to_string(input_.width) + "x" +
                           std::to_string(input_.height) + " image running at once, and " +
                           info.name + " has " + std::to_string(units) + " compute units.");
    return;  // auto: too many tiles to run at once
  }
  persistentKernel_ = ctx_->kernels().kernel(
      tileKernels(options_.tile).file, tileKernels(options_.tile).persistent,
      buildOptions + " -DSPIN_LIMIT=" + std::to_string(detail::persistentSpinLimit) +
          // Release/acquire instead of full fences at the barrier: H200, 512² x 512, 0.509 ->
          // 0.480 ms (docs/BENCHMARKS.md, "Issue 29 item 3, second round").
          (nvidia ? " -DGRID_FENCE_PTX -DGRID_ACQ_REL" : ""));
  bindFixed<false>(persistentKernel_, *v0_, input_);
  sync_.create(ctx_->context(), ctx_->queue());
  persistentKernel_.arg<7>(sync_.buffer());
  persistent_ = true;
}

void EulerSolver::stepPersistent2D(int n) {
  const TileShape& t = options_.tile;
  const auto groups = tileGroups2D(t, input_.width, input_.height);
  const int count = static_cast<int>(groups[0] * groups[1]);
  const int phases = (n + t.halo - 1) / t.halo;
  sync_.reserve(ctx_->queue(), static_cast<long long>(count) * phases);
  persistentKernel_.arg<0>(v_[current_]->memory());
  persistentKernel_.arg<2>(v_[1 - current_]->memory());
  persistentKernel_.arg<5>(static_cast<float>(mu_));
  persistentKernel_.arg<6>(n);
  persistentKernel_.arg<8>(sync_.base());
  detail::enqueueRange(*ctx_, persistentKernel_, tileKernels(options_.tile).persistent,
                       cl::NDRange(groups[0] * local_[0], groups[1] * local_[1]), local_);
  sync_.launched(static_cast<long long>(count) * (phases - 1));
  current_ = (current_ + phases) % 2;
}

void EulerSolver::confirmPersistentSteps() {
  try {
    if (!sync_.gaveUp(ctx_->queue())) return;
    // Some work-group never started while the others waited: the field is not to be trusted.
    persistent_ = false;
    note_ =
        "the device did not run all tiles at once: redid the iterations with one launch "
        "per " +
        std::to_string(options_.tile.halo) + " iterations";
    redoIterations(*this, iterations_);
  } catch (const cl::Error& e) {
    rethrowClError(e, "checking the one-launch Euler iterations");
  }
}

void EulerSolver::stepTiled2D(int n) {
  if (persistent_) return stepPersistent2D(n);
  const TileShape& t = options_.tile;
  const auto groups = tileGroups2D(t, input_.width, input_.height);
  const cl::NDRange global(groups[0] * local_[0], groups[1] * local_[1]);
  tiled2d_.arg<5>(static_cast<float>(mu_));
  for (int done = 0; done < n; done += t.halo) {
    tiled2d_.arg<0>(v_[current_]->memory());
    tiled2d_.arg<2>(v_[1 - current_]->memory());
    tiled2d_.arg<6>(std::min(t.halo, n - done));
    detail::enqueueRange(*ctx_, tiled2d_, tileKernels(t).steps, global, local_);
    current_ = 1 - current_;
  }
}

// Two iterations a launch in the 3D tiles, an odd last one alone (gvf_euler_step3d).
void EulerSolver::stepTiles3D(int n) {
  const Tile3D& t3 = options_.tile3d;
  const FieldShape shape{input_.width, input_.height, input_.depth};
  const cl::NDRange global(detail::tile3dGroups(t3, shape, 0) * t3.tx,
                           detail::tile3dGroups(t3, shape, 1) * (t3.ty / t3.rows),
                           detail::tile3dGroups(t3, shape, 2));
  pairKernel_.arg<6>(static_cast<float>(mu_));
  for (; n >= 2; n -= 2) {
    pairKernel_.arg<0>(v_[current_]->memory());
    pairKernel_.arg<2>(v_[1 - current_]->memory());
    detail::enqueueRange(*ctx_, pairKernel_, detail::tile3dKernel(t3).name, global,
                         cl::NDRange(t3.tx, t3.ty / t3.rows, 1));
    current_ = 1 - current_;
  }
  stepSingles(n);
}

// One iteration a launch of step2d_ or step3d_ over global_.
void EulerSolver::stepSingles(int n) {
  const auto run = [&](auto& kernel, const char* name) {
    for (int i = 0; i < n; ++i) {
      kernel.template arg<0>(v_[current_]->memory());
      kernel.template arg<2>(v_[1 - current_]->memory());
      detail::enqueueRange(*ctx_, kernel, name, global_, local_);
      current_ = 1 - current_;
    }
  };
  if (input_.dims() == 3) {
    step3d_.arg<6>(static_cast<float>(mu_));
    return run(step3d_, step3dName_);
  }
  step2d_.arg<5>(static_cast<float>(mu_));
  run(step2d_, "gvf_euler_step");
}

void EulerSolver::step(int n) {
  if (n <= 0) return;
  try {
    (this->*step_)(n);
  } catch (const cl::Error& e) {
    rethrowClError(e, "running Euler GVF iterations");
  }
  iterations_ += n;
}

const cl::Buffer& EulerSolver::field() {
  confirmPersistentSteps();
  const FieldStorage& cur = *v_[current_];
  // 2D float32 buffers already are the interleaved layout; 3D buffers are planar.
  if (!cur.isImage() && cur.precision() == Precision::F32 && input_.dims() == 2)
    return cur.buffer();
  if (exportedAt_ != iterations_) {
    if (!exported_())
      exported_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE,
                             input_.pixelCount() * input_.dims() * sizeof(float));
    v_[current_]->exportTo(exported_);
    exportedAt_ = iterations_;
  }
  return exported_;
}

double EulerSolver::error() {
  confirmPersistentSteps();
  return metric_->compute(v_[current_]->memory(), mu_);
}

cl::CommandQueue& EulerSolver::queue() { return ctx_->queue(); }

}  // namespace gvflab
