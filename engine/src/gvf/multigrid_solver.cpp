#include "gvflab/multigrid_solver.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include "cl/launch.hpp"
#include "gvf/multigrid_schedule.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/grid_spacing.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/param_fields.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab {
namespace {

using detail::coarseLevelBytes;
using detail::coarser;
using detail::kMaxCoarseLevels;
using detail::maxSide;

// mg_fused_pass's local memory (kernels/multigrid.cl): a tile of MF_T = 32 with a halo of
// MF_HMAX = 6 a side, v and V0 (level 0) or f as float2, and S below level 0 as float.
constexpr int kPassTile = 32, kPassHalo = 6;
std::uint64_t fusedPassBytes(int level) {
  const std::uint64_t side = kPassTile + 2 * kPassHalo;
  return side * side * (level == 0 ? 16 : 20);
}

}  // namespace

const std::vector<ParamSpec>& multigridParamSpecs() {
  static const std::vector<ParamSpec> specs = {
      {"mg-a", "a (FMG cycles)", 1, 16, kMultigridSweeps.a, true,
       "Full-multigrid cycles per multigrid iteration (paper: a = 1)."},
      {"mg-b", "b (pre-smoothing)", 0, 16, kMultigridSweeps.b, true,
       "Red-black Gauss-Seidel sweeps before each coarse-grid correction (paper: b = 2)."},
      {"mg-c", "c (post-smoothing)", 0, 16, kMultigridSweeps.c, true,
       "Red-black Gauss-Seidel sweeps after each coarse-grid correction (paper: c = 1; 2 "
       "reaches Euler's error sooner on GPUs)."},
      {"mg-cycle",
       "cycle",
       kCycleAuto,
       kCycleTwoGrid,
       kMultigridSweeps.cycle,
       true,
       "The iterations' schedule: fmg, every iteration full multigrid, then a V-cycle (the "
       "paper); vcycles, full multigrid first, then V-cycles (sooner on smooth or noisy fields, "
       "much later on sharp flat shapes as the U); twogrid, sweeps on the image's grid around a "
       "full-multigrid coarse solve (cheaper, one iteration more in 2D); auto, twogrid in 3D "
       "and fmg in 2D, where each measured faster.",
       {"auto", "fmg", "vcycles", "twogrid"}},
  };
  return specs;
}

const std::vector<ParamField<MultigridOptions>>& multigridParamFields() {
  static const std::vector<ParamField<MultigridOptions>> fields = {
      {"mg-a", &MultigridOptions::a},
      {"mg-b", &MultigridOptions::b},
      {"mg-c", &MultigridOptions::c},
      {"mg-cycle", &MultigridOptions::cycle}};
  return fields;
}

const ParamSpec& multigridMuSpec() {
  static const ParamSpec spec{"mu",
                              "mu",
                              0.0,
                              kMultigridMuMax,
                              0.15,
                              false,
                              "GVF regularisation; multigrid has no stability bound."};
  return spec;
}

std::uint64_t MultigridSolver::pyramidBytes(FieldShape shape, Precision precision, bool fused) {
  std::uint64_t bytes = (fused ? 3 : 2) * fieldBytes(shape, precision);
  for (FieldShape s = shape; maxSide(s) > 2;) {
    s = coarser(s);
    bytes += coarseLevelBytes(s, shape.dims()) + (fused ? s.count() * shape.dims() * 4ull : 0);
  }
  return bytes;
}

// Measured (BENCHMARKS.md, H200 span, two-pass -> fused): 2D faster in every precision
// (512² f32 2.85 -> 2.07 ms, 2048² 10.9 -> 7.8: a third fewer launches); 3D not (256³ f32
// 9.12 -> 8.94, f16 7.85 -> 8.69; 512³ f32 68.5 -> 70.1: the tile's halo costs what the
// second read saved). PoCL 64²x32 f32: 36 -> 44 ms (work-groups of 256 with a barrier).
// Fused passes (fused 2) go with it: H200 2048² 4.24 -> 3.90 ms (level 0), 3.67 (level 1 too);
// PoCL 384² slower.
// The one launch's first level in 3D on GPUs: the largest with no side above this.
constexpr int kPersistentSide3D = 64;

bool MultigridSolver::fusedChosen(const ComputeContext& ctx, FieldShape shape) {
  return ctx.info().isGpu && shape.dims() == 2;
}

MultigridSolver::MultigridSolver(std::shared_ptr<ComputeContext> ctx, GvfInput input, double mu,
                                 MultigridOptions options)
    : ctx_(std::move(ctx)), input_(std::move(input)), options_(options) {
  setMu(mu);
  setOptions({options.a, options.b, options.c, options.cycle});
  const FieldShape shape{input_.width, input_.height, input_.depth};
  fused_ = options.fused < 0 ? fusedChosen(*ctx_, shape) : options.fused > 0;
  persistent_ = persistentWanted();
  if (persistent_) {
    // The first level in the one launch: the largest with no side above persistentSide (3D:
    // level 1 at the most; level 0, in the storage's precision, launches per operator).
    const int top = options.persistentSide >= 0 ? options.persistentSide
                                                : (!ctx_->info().isGpu ? 0
                                                   : shape.dims() == 3 ? kPersistentSide3D
                                                                       : 512);
    persistentTop_ = 0;
    for (FieldShape s = shape; top > 0 && maxSide(s) > top && maxSide(s) > 2; ++persistentTop_)
      s = coarser(s);
    if (shape.dims() == 3) persistentTop_ = std::max(persistentTop_, 1);
    if (persistentTop_ == 0) fused_ = false;  // level 0 in place in the launch
  }
  fusedPasses_ = fused_ && options.fused != 1 && shape.dims() == 2 && maxSide(shape) > 2 &&
                 options.firstLevel == 0 && ctx_->info().localMemBytes >= fusedPassBytes(0);
  const int fields = fused_ ? 3 : 2;
  const double coarsePerPoint = double(pyramidBytes(shape, options_.precision, fused_) -
                                       fields * fieldBytes(shape, options_.precision)) /
                                double(shape.count());
  const bool fine = options_.firstLevel == 0;
  checkSolverFits(*ctx_, shape, options_.precision, fine ? fields : 0, coarsePerPoint);
  try {
    if (fine) {
      // 3D: rows in parity order (multigrid.cl), so a colour pass moves half the bytes.
      auto storage = [&] {
        return std::make_unique<FieldStorage>(*ctx_, shape, options_.precision, false,
                                              RowOrder::Parity);
      };
      v0_ = storage();
      v_ = storage();
      if (fused_) vAlt_ = storage();
      v0_->importFrom(input_.v0);
    }
    allocateLevels(shape);
    zeroPending_.assign(static_cast<std::size_t>(levels()), false);
    dummy_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, 16);
    auto& lib = ctx_->kernels();
    // Per-axis Laplacian weights (spacing.clh) are the finest level's on every level: each
    // coarser one doubles every axis, which k = μ/h_l² carries.
    const std::string spacingOpts = spacingBuildOptions(input_.spacing, shape.dims());
    // 3D: 32-bit point indices where every index of a component block fits (multigrid.cl).
    const bool index32 = shape.count() * shape.dims() < (std::uint64_t(1) << 31);
    const std::string coarseOpts =
        (shape.dims() == 3 ? std::string("-DDIMS3") + (index32 ? " -DMG_INDEX32" : "") : "") +
        spacingOpts;
    const std::string fineOpts = fine ? v0_->buildOptions() + " -DFINE" +
                                            (index32 && shape.dims() == 3 ? " -DMG_INDEX32" : "") +
                                            spacingOpts
                                      : coarseOpts;
    for (auto [k, opts] : {std::pair{&fine_, fineOpts}, std::pair{&coarse_, coarseOpts}}) {
      k->smooth = lib.kernel("multigrid.cl", "mg_smooth", opts);
      if (fused_) k->smoothFused = lib.kernel("multigrid.cl", "mg_smooth_fused", opts);
      k->restrict_ = lib.kernel("multigrid.cl", "mg_restrict", opts);
      k->restrictS = lib.kernel("multigrid.cl", "mg_restrict_s", opts);
      k->prolong = lib.kernel("multigrid.cl", "mg_prolong", opts);
      if (fusedPasses_) k->fusedPass = lib.kernel("multigrid.cl", "mg_fused_pass", opts);
    }
    chooseCoarseLevel();
    if (!fine) return;
    restrictS(0);
    if (persistent_) setUpPersistent(coarseOpts);
    metric_ = std::make_unique<ErrorMetric>(ctx_, shape, v0_->memory(),
                                            v0_->buildOptions() + spacingOpts);
  } catch (const cl::Error& e) {
    rethrowClError(e, "setting up the multigrid solver");
  }
  reset();
}

// S on every coarser level, once: the pyramid is built in the constructor, never reallocated.
void MultigridSolver::restrictS(int first) {
  for (int l = first; l < static_cast<int>(levels_.size()); ++l) {
    auto& k = kernelsOf(l).restrictS;
    const FieldShape f = shapeOf(l), c = shapeOf(l + 1);
    k.set(l == 0 ? cl::Buffer(v0_->buffer()) : levels_[l - 1].rhs,
          l == 0 ? dummy_ : levels_[l - 1].s, f.width, f.height, f.depth, levels_[l].s, c.width,
          c.height, c.depth);
    launch(k, "mg_restrict_s", c, l);
  }
}

MultigridSolver::~MultigridSolver() = default;

std::uint64_t MultigridSolver::deviceBytes() const {
  std::uint64_t bytes = v_ ? v_->bytes() + v0_->bytes() + (vAlt_ ? vAlt_->bytes() : 0) : 0;
  for (const Level& l : levels_)
    if (l.s())
      bytes += coarseLevelBytes(l.shape, input_.dims()) +
               (fused_ ? l.shape.count() * input_.dims() * 4ull : 0);
  if (coarsePool_()) bytes += coarsePoolBytes_;
  return bytes;
}

void MultigridSolver::setMu(double mu) {
  requireMu(SolverKind::Multigrid, input_, mu);  // the one rule: (0, kMultigridMuMax]
  mu_ = mu;
}

double MultigridSolver::muBound() const { return gvflab::muBound(SolverKind::Multigrid, input_); }

void MultigridSolver::setOptions(const MultigridSweeps& sweeps) {
  MultigridOptions o = options_;
  o.a = sweeps.a, o.b = sweeps.b, o.c = sweeps.c, o.cycle = sweeps.cycle;
  validateFields(o, multigridParamSpecs(), multigridParamFields());
  if (o.b + o.c < 1)
    throw ParameterError("Multigrid needs at least one smoothing sweep (b + c >= 1).");
  options_ = o;
  if (metric_) {  // constructed: the step lists exist
    recordCoarseOps();
    if (persistent_) recordPersistentOps();
  }
}

std::vector<double> MultigridSolver::ownParamValues() const {
  std::vector<double> values;
  for (const auto& f : multigridParamFields()) values.push_back(f.get(options_));
  return values;
}

// In the table's order, through its fields (test_param_bindings.cpp checks the order).
void MultigridSolver::setOwnParamValues(const std::vector<double>& values) {
  const auto& specs = multigridParamSpecs();
  const auto& fields = multigridParamFields();
  if (values.size() != fields.size())
    throw ParameterError("Multigrid takes " + std::to_string(fields.size()) +
                         " settings: a, b, c and cycle.");
  MultigridOptions o = options_;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    validate(specs[i], values[i]);  // before the int casts
    fields[i].set(o, values[i]);
  }
  setOptions({o.a, o.b, o.c, o.cycle});
}

std::string MultigridSolver::structure() const { return std::to_string(levels()) + " levels"; }

std::vector<SolverFact> MultigridSolver::facts() const {
  return {{"mg_a", std::int64_t{options_.a}},
          {"mg_b", std::int64_t{options_.b}},
          {"mg_c", std::int64_t{options_.c}},
          {"mg_cycle", choiceName(findSpec(multigridParamSpecs(), "mg-cycle"), cycle())},
          {"levels", std::int64_t{levels()}}};
}

std::vector<SolverTimingRow> MultigridSolver::timingRows() const {
  std::vector<SolverTimingRow> rows;
  for (const MultigridLevelTime& t : levelTimes()) {
    SolverTimingRow r;
    r.label = std::to_string(t.level);
    if (t.lastLevel > t.level) {
      r.label += "-" + std::to_string(t.lastLevel);
      r.tooltip = "Levels " + std::to_string(t.level) + " to " + std::to_string(t.lastLevel) +
                  (persistent_ && t.level == persistentTop_
                       ? " run in one launch, device-wide barriers between their steps."
                       : " are solved together by one work-group in local memory, one "
                         "launch each time the cycle reaches them.");
    }
    r.size = std::to_string(t.shape.width) + "x" + std::to_string(t.shape.height);
    if (t.shape.depth > 1) r.size += "x" + std::to_string(t.shape.depth);
    r.stats = t.stats;
    rows.push_back(std::move(r));
  }
  return rows;
}

FieldShape MultigridSolver::shapeOf(int level) const {
  return level == 0 ? FieldShape{input_.width, input_.height, input_.depth}
                    : levels_[level - 1].shape;
}

// Sets v, rhs, s, width, height, depth of `level` at argument positions 0..5.
template <class Kernel>
void MultigridSolver::bindLevel(Kernel& k, int level) {
  const FieldShape s = shapeOf(level);
  if (level == 0) {
    k.template arg<0>(v_->buffer());
    k.template arg<1>(v0_->buffer());
    k.template arg<2>(dummy_);
  } else {
    const Level& l = levels_[level - 1];
    k.template arg<0>(l.e);
    k.template arg<1>(l.rhs);
    k.template arg<2>(l.s);
  }
  k.template arg<3>(s.width);
  k.template arg<4>(s.height);
  k.template arg<5>(s.depth);
}

// The coarsest levels whose pool (e, rhs, S per level) fits the work-group's local memory
// and whose sides stay within options_.coarseSide; level 0 (the storage precision) never.
void MultigridSolver::chooseCoarseLevel() {
  const int dims = input_.dims();
  const DeviceInfo& info = ctx_->info();
  int side = options_.coarseSide;
  // Measured (BENCHMARKS.md, f32 span): H200 512^2 at 32/64/128/256: 3.7/2.3/3.6/8.4 ms,
  // 2048^2: 12.4/9.0/12.9/29.0 ms; 256^3 at 8/16/32: 9.2/9.0/14.9 ms. PoCL (one work-group is
  // one core) 384^2 at 0/16/32: 36.1/36.0/74.1 ms.
  if (side < 0) side = info.isGpu ? (dims == 3 ? 16 : 64) : (dims == 3 ? 8 : 16);
  const int count = static_cast<int>(levels_.size());
  coarseFrom_ = count + 1;
  std::uint64_t pool = 0;
  for (int l = count; l >= 1 && side > 0; --l) {
    const FieldShape s = shapeOf(l);
    if (maxSide(s) > side || count - l + 1 > kMaxCoarseLevels) break;
    pool += coarseLevelBytes(s, dims);
    coarseFrom_ = l;
  }
  coarsePoolBytes_ = static_cast<std::size_t>(pool);
  if (coarseFrom_ > count) return;
  // Local memory when the pool fits, else a global pool (one work-group still, cached).
  const std::string opts = (dims == 3 ? "-DDIMS3" : "") + spacingBuildOptions(input_.spacing, dims);
  coarseSolve_ = ctx_->kernels().kernel("multigrid.cl", "mg_coarse", opts);
  const std::uint64_t localUsed =
      coarseSolve_.get().getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(ctx_->device());
  if (options_.coarseGlobal || pool + localUsed + 1024 > info.localMemBytes) {
    coarseSolve_ = ctx_->kernels().kernel("multigrid.cl", "mg_coarse", opts + " -DCOARSE_GLOBAL");
    coarsePool_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, coarsePoolBytes_);
  }
  const std::size_t kernelGroup =
      coarseSolve_.get().getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(ctx_->device());
  coarseGroup_ = std::min<std::size_t>(kernelGroup, info.isGpu ? 1024 : 256);
  recordCoarseOps();
}

// The step lists of mg_coarse for the current b and c (setOptions records them again): S of
// its levels restricted first, then a V-cycle or full multigrid from coarseFrom_.
void MultigridSolver::recordCoarseOps() {
  if (coarseFrom_ >= levels()) return;
  const detail::CycleShape cycle{levels() - 1, options_.b, options_.c};
  for (bool fullMultigrid : {false, true}) {
    detail::StepRecorder rec(coarseFrom_);
    for (int l = coarseFrom_; l < cycle.last; ++l) rec.add(detail::kRestrictS, l);
    if (fullMultigrid)
      detail::fullMultigrid(rec, cycle, coarseFrom_);
    else
      detail::vcycle(rec, cycle, coarseFrom_);
    CoarseOps& ops = coarseOps_[fullMultigrid ? 1 : 0];
    ops.count = static_cast<int>(rec.ops.size());
    ops.steps = cl::Buffer(ctx_->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           rec.ops.size() * sizeof(cl_int4), rec.ops.data());
  }
}

std::string MultigridSolver::levelGroup(int level) const {
  return "mg level " + std::to_string(std::min(level, coarseFrom_));
}

std::vector<MultigridLevelTime> MultigridSolver::levelTimes() const {
  const auto groups = ctx_->profiler().groupStats();
  std::vector<MultigridLevelTime> rows;
  const int top = persistent_ ? persistentTop_ : levels();
  const auto one = groups.find("mg persistent");
  for (int l = 0; l < top && one != groups.end(); ++l)
    if (auto it = groups.find(levelGroup(l)); it != groups.end())
      rows.push_back({l, l, shapeOf(l), it->second});
  if (persistent_ && one != groups.end()) {
    rows.push_back({top, levels() - 1, shapeOf(top), one->second});
    return rows;
  }
  for (int l = 0; l < levels() && l <= coarseFrom_; ++l) {
    auto it = groups.find(levelGroup(l));
    if (it == groups.end()) continue;
    rows.push_back({l, l == coarseFrom_ ? levels() - 1 : l, shapeOf(l), it->second});
  }
  return rows;
}

void MultigridSolver::coarseSolve(bool fullMultigrid) {
  const Level& l = levels_[coarseFrom_ - 1];
  const FieldShape s = l.shape;
  auto& k = coarseSolve_;
  const CoarseOps& ops = coarseOps_[fullMultigrid ? 1 : 0];
  using Pool = std::variant<cl::Buffer, cl::LocalSpaceArg>;
  const Pool pool = coarsePool_() ? Pool(coarsePool_) : Pool(cl::Local(coarsePoolBytes_));
  k.set(l.e, l.rhs, l.s, s.width, s.height, s.depth, levels() - coarseFrom_,
        static_cast<float>(mu_ / std::ldexp(1.0, 2 * coarseFrom_)), ops.steps, ops.count, pool);
  detail::enqueueRange(*ctx_, k, "mg_coarse", cl::NDRange(coarseGroup_), cl::NDRange(coarseGroup_),
                       levelGroup(coarseFrom_));
}

void MultigridSolver::launch(cl::Kernel& k, const char* name, FieldShape over, int level,
                             bool halfX, int z0) {
  const bool is3d = input_.dims() == 3;
  const cl::NDRange local = is3d ? cl::NDRange(32, 4, 2) : detail::localSize2D(ctx_->info());
  const std::size_t w = halfX ? (over.width + 1) / 2 : over.width;
  detail::enqueueRange(*ctx_, k, name, detail::paddedRange(w, over.height, over.depth, local),
                       local, levelGroup(level), is3d ? cl::NDRange(0, 0, z0) : cl::NullRange);
}

void MultigridSolver::smooth(int level, int sweeps) {
  const bool fromZero = zeroPending_[level];
  zeroPending_[level] = false;
  if (fromZero && (fused_ || sweeps == 0)) zero(level);  // (zeroBySweep rules these out)
  if (fused_) return smoothFused(level, sweeps);
  for (int i = 0; i < sweeps; ++i)
    for (int colour = 0; colour < 2; ++colour)
      smoothPlanes(level, colour, 0, shapeOf(level).depth, fromZero && i == 0 && colour == 0);
}

bool MultigridSolver::zeroBySweep(int level) const {
  return options_.b > 0 && !fusedPasses_ && !persistentTakes(level) && redsOverwritten(level, true);
}

// z1 - z0 even or z1 the level's depth: the launch's rounding up to 2 planes adds none.
void MultigridSolver::smoothPlanes(int level, int colour, int z0, int z1, bool fromZero) {
  auto& k = kernelsOf(level).smooth;
  bindLevel(k, level);
  k.arg<6>(static_cast<float>(mu_ / std::ldexp(1.0, 2 * level)));  // k = μ / h², h = 2^l
  k.arg<7>(colour);
  k.arg<8>(fromZero ? 1 : 0);
  FieldShape over = shapeOf(level);
  over.depth = z1 - z0;
  launch(k, "mg_smooth", over, level, true, z0);
}

// Each sweep writes the other copy of the level's v, which then becomes v (mg_smooth_fused).
void MultigridSolver::smoothFused(int level, int sweeps) {
  auto& k = kernelsOf(level).smoothFused;
  const FieldShape s = shapeOf(level);
  const bool is3d = input_.dims() == 3;
  const int tileY = is3d ? 8 : 32, tileZ = is3d ? 8 : 1;  // MG_TY, MG_TZ in multigrid.cl
  const cl::NDRange global(detail::roundUp(s.width, 32), (s.height + tileY - 1) / tileY * 8,
                           (s.depth + tileZ - 1) / tileZ);
  for (int i = 0; i < sweeps; ++i) {
    const Level* l = level == 0 ? nullptr : &levels_[level - 1];
    k.set(l ? l->e : v_->buffer(), l ? l->eAlt : vAlt_->buffer(), l ? l->rhs : v0_->buffer(),
          l ? l->s : dummy_, s.width, s.height, s.depth,
          static_cast<float>(mu_ / std::ldexp(1.0, 2 * level)));
    detail::enqueueRange(*ctx_, k, "mg_smooth_fused", global, cl::NDRange(32, 8, 1),
                         levelGroup(level));
    if (level == 0)
      std::swap(v_, vAlt_);
    else
      std::swap(levels_[level - 1].e, levels_[level - 1].eAlt);
  }
}

// Right after a 3D red-black sweep on float32 values the black points' residuals are rounding
// (mg_restrict's with_residual 2); on a side of 1 a black point is its own neighbour, so not
// there. 2D keeps every residual: its fused passes (same bits as these launches) do.
bool MultigridSolver::blackResidualsZero(int level, bool afterSweep) const {
  const FieldShape f = shapeOf(level);
  return afterSweep && f.dims() == 3 && std::min({f.width, f.height, f.depth}) > 1 &&
         (level > 0 || options_.precision == Precision::F32);
}

void MultigridSolver::restrictResidual(int level, bool withResidual, bool blacksZero) {
  auto& k = kernelsOf(level).restrict_;
  const FieldShape c = shapeOf(level + 1);
  bindLevel(k, level);
  k.arg<6>(static_cast<float>(mu_ / std::ldexp(1.0, 2 * level)));
  k.arg<7>(withResidual ? (blacksZero ? 2 : 1) : 0);
  k.arg<8>(levels_[level].rhs);
  k.arg<9>(c.width);
  k.arg<10>(c.height);
  k.arg<11>(c.depth);
  launch(k, "mg_restrict", c, level);
}

// Not on a side of 1 (the mirror makes a red point its own neighbour), nor with the fused
// sweeps (mg_smooth_fused, one launch into the other copy), which keep every prolongation.
bool MultigridSolver::redsOverwritten(int level, bool beforeSweep) const {
  const FieldShape f = shapeOf(level);
  const int side = std::min({f.width, f.height, input_.dims() == 3 ? f.depth : f.width});
  return beforeSweep && !fused_ && side > 1 &&
         static_cast<float>(mu_ / std::ldexp(1.0, 2 * level)) > 0.0f;
}

void MultigridSolver::prolong(int level, bool add, bool blackOnly) {
  auto& k = kernelsOf(level).prolong;
  const FieldShape c = shapeOf(level + 1), f = shapeOf(level);
  k.set(levels_[level].e, c.width, c.height, c.depth,
        level == 0 ? v_->buffer() : levels_[level - 1].e, f.width, f.height, f.depth, add ? 1 : 0,
        blackOnly ? 1 : 0);
  launch(k, "mg_prolong", f, level, blackOnly);
}

// mg_fused_pass where its tile's halo reaches (2 sweeps and the restriction) and its tiles fit
// the device's local memory (below level 0 they hold S too: 38.7 KB against level 0's 31);
// e_{l+1} zeroed by the same launch: in place when not prolonging (nothing reads it), else into
// its other copy, swapped in, unless the one launch holds it.
bool MultigridSolver::fusedPass(int level, const detail::LevelRun& r) {
  if (!fusedPasses_ || 2 * r.sweeps + (r.restrict ? 2 : 0) > kPassHalo || level + 1 >= levels() ||
      ctx_->info().localMemBytes < fusedPassBytes(level))
    return false;
  const bool zeroE =
      r.restrict && r.zeroCoarse && (coarseFrom_ != level + 1 || persistentTakes(level + 1));
  const bool swapZero = zeroE && r.prolong && !persistentTakes(level + 1);
  const FieldShape f = shapeOf(level), c = shapeOf(level + 1);
  Level* fine = level == 0 ? nullptr : &levels_[level - 1];
  Level& coarse = levels_[level];
  auto& k = kernelsOf(level).fusedPass;
  k.set(fine ? fine->e : v_->buffer(), fine ? fine->eAlt : vAlt_->buffer(),
        fine ? fine->rhs : v0_->buffer(), fine ? fine->s : dummy_, coarse.e, coarse.rhs,
        swapZero ? coarse.eAlt : (zeroE && !r.prolong ? coarse.e : dummy_), f.width, f.height,
        c.width, c.height, static_cast<float>(mu_ / std::ldexp(1.0, 2 * level)), r.prolong,
        r.sweeps, r.restrict, zeroE && (swapZero || !r.prolong));
  detail::enqueueRange(
      *ctx_, k, "mg_fused_pass",
      cl::NDRange(detail::roundUp(f.width, kPassTile) * 8, (f.height + kPassTile - 1) / kPassTile),
      cl::NDRange(256, 1), levelGroup(level));
  if (r.prolong || r.sweeps > 0) fine ? std::swap(fine->e, fine->eAlt) : std::swap(v_, vAlt_);
  if (swapZero) std::swap(coarse.e, coarse.eAlt);
  if (zeroE && r.prolong && !swapZero) zero(level + 1);
  return true;
}

void MultigridSolver::zero(int level) {
  zeroPending_[level] = false;
  const Level& l = levels_[level - 1];
  cl::Event ev;
  ctx_->queue().enqueueFillBuffer(l.e, 0.0f, 0, l.shape.count() * input_.dims() * sizeof(float),
                                  nullptr, &ev);
  ctx_->profiler().record("mg_zero", ev, levelGroup(level));
}

// The schedule's steps as launches, a kernel per step; from persistentTop_ (when above level
// 0) the one launch takes over, from coarseFrom_ the one-work-group solve.
class MultigridSolver::Launches final : public detail::CycleSteps {
 public:
  // (A cycle left unfinished by an error leaves no correction counted as 0.)
  explicit Launches(MultigridSolver& s) : s_(s) {
    s_.zeroPending_.assign(static_cast<std::size_t>(s_.levels()), false);
  }
  bool takeOver(int level, bool fullMultigrid) override {
    if (s_.persistentTakes(level))
      s_.persistentSolve(fullMultigrid);
    else if (level == s_.coarseFrom_)
      s_.coarseSolve(fullMultigrid);  // zeroes its e itself
    else
      return false;
    return true;
  }
  void smooth(int level, int sweeps) override { s_.smooth(level, sweeps); }
  void restrictTo(int level, bool residual, bool zeroCoarse, bool afterSweep) override {
    s_.restrictResidual(level, residual, s_.blackResidualsZero(level, afterSweep));
    const bool coarseZeroes = level + 1 == s_.coarseFrom_ && !s_.persistentTakes(level + 1);
    if (zeroCoarse && !coarseZeroes) {
      if (s_.zeroBySweep(level + 1))
        s_.zeroPending_[level + 1] = true;
      else
        s_.zero(level + 1);
    }
  }
  void prolong(int level, bool add, bool beforeSweep) override {
    s_.prolong(level, add, s_.redsOverwritten(level, beforeSweep));
  }
  void zero(int level) override { s_.zero(level); }
  void run(int level, const detail::LevelRun& r) override {
    if (!s_.fusedPass(level, r)) CycleSteps::run(level, r);
  }

 private:
  MultigridSolver& s_;
};

int MultigridSolver::cycle() const {
  return resolveMultigridCycle(options_.cycle, input_.dims() == 3);
}

detail::CycleShape MultigridSolver::cycleShape() const {
  return {levels() - 1, options_.b, options_.c};
}

// (A launch from level 0 runs whole iterations only: vCycle() stays with the launches.)
bool MultigridSolver::persistentTakes(int level) const {
  return persistent_ && persistentTop_ > 0 && level == persistentTop_;
}

// Not an iteration, so confirmPersistentSteps cannot redo it: when a one-launch visit inside
// it gave up (not every work-group ran at once), V is put back and the cycle run by launches.
void MultigridSolver::vCycle() {
  confirmPersistentSteps(true);  // earlier iterations first, redone if they gave up
  const bool mayGiveUp = persistent_ && persistentTop_ > 0;
  try {
    cl::Buffer before;
    const std::size_t bytes = v_->bytes();
    if (mayGiveUp) {
      before = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, bytes);
      ctx_->queue().enqueueCopyBuffer(v_->buffer(), before, 0, 0, bytes);
    }
    Launches launches(*this);
    detail::iteration(launches, cycleShape(), detail::IterationKind::VCycle);
    if (mayGiveUp) {
      confirmPersistentSteps(false);
      if (!persistent_) {
        ctx_->queue().enqueueCopyBuffer(before, v_->buffer(), 0, 0, bytes);
        detail::iteration(launches, cycleShape(), detail::IterationKind::VCycle);
      }
    }
  } catch (const cl::Error& e) {
    rethrowClError(e, "running a multigrid V-cycle");
  }
  exportedAt_ = -1;
}

void MultigridSolver::fullMultigridCycle() { launchCycle(detail::IterationKind::FullMultigrid); }

// One cycle of the schedule (multigrid_schedule.cpp) as launches.
void MultigridSolver::launchCycle(detail::IterationKind kind) {
  try {
    Launches launches(*this);
    detail::iteration(launches, cycleShape(), kind);
  } catch (const cl::Error& e) {
    rethrowClError(e, "running a multigrid iteration");
  }
  exportedAt_ = -1;
}

// Levels 1..: e, rhs and S per level; on the one-launch path sub-buffers of one pool (the
// kernel addresses every level by offset), each aligned as the device requires.
void MultigridSolver::allocateLevels(FieldShape shape) {
  std::vector<FieldShape> shapes;
  for (FieldShape s = shape; maxSide(s) > 2;) shapes.push_back(s = coarser(s));
  const auto comps = static_cast<std::size_t>(shape.dims());
  const std::size_t align =
      std::max<std::size_t>(256, ctx_->device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8);
  std::vector<std::size_t> offsets;  // in the pool, bytes: e, rhs, S per level
  std::size_t total = 0;
  for (FieldShape s : shapes)
    for (std::size_t bytes : {s.count() * comps * 4, s.count() * comps * 4, s.count() * 4}) {
      offsets.push_back(total);
      total = (total + bytes + align - 1) / align * align;
    }
  if (persistent_)
    pool_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, std::max<std::size_t>(total, 16));
  auto buffer = [&](std::size_t at, std::size_t bytes) {
    if (!persistent_) return cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, bytes);
    cl_buffer_region region{at, bytes};
    return pool_.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  };
  std::vector<cl_int> table = {shape.width, shape.height, shape.depth, 0, 0, 0};
  for (std::size_t l = 0; l < shapes.size(); ++l) {
    const FieldShape s = shapes[l];
    const std::size_t n = s.count(), *o = &offsets[3 * l];
    if (int(l) + 1 < options_.firstLevel) {  // another's (a split's slabs)
      levels_.push_back(Level{s, {}, {}, {}, {}});
      continue;
    }
    levels_.push_back(Level{s, buffer(o[0], n * comps * 4), buffer(o[1], n * comps * 4),
                            buffer(o[2], n * 4), cl::Buffer()});
    if (fused_)  // (with one launch: the levels above it may still sweep both colours a launch)
      levels_.back().eAlt = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, n * comps * 4);
    table.insert(table.end(), {s.width, s.height, s.depth, static_cast<cl_int>(o[0] / 4),
                               static_cast<cl_int>(o[1] / 4), static_cast<cl_int>(o[2] / 4)});
  }
  if (!persistent_) return;
  table.insert(table.end(), 6, 0);  // the level below the coarsest: never read
  levelTable_ = cl::Buffer(ctx_->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           table.size() * sizeof(cl_int), table.data());
}

void MultigridSolver::step(int n) {
  if (n <= 0) return;
  if (persistent_ && persistentTop_ == 0) {
    try {
      stepPersistent(n);
    } catch (const cl::Error& e) {
      rethrowClError(e, "running the one-launch multigrid iterations");
    }
    iterations_ += n;
    exportedAt_ = -1;
    return;
  }
  for (int i = 0; i < n; ++i) {
    const auto kind = detail::iterationKind(cycle(), iterations_);
    for (int j = 0; j < options_.a; ++j) launchCycle(kind);
    ++iterations_;
  }
}

void MultigridSolver::reset() {
  confirmPersistentSteps(false);  // a give-up before this no longer needs redoing
  v_->importFrom(input_.v0);
  iterations_ = 0;
  exportedAt_ = -1;
}

const cl::Buffer& MultigridSolver::field() {
  confirmPersistentSteps(true);
  if (v_->precision() == Precision::F32 && input_.dims() == 2) return v_->buffer();
  if (exportedAt_ != iterations_) {
    if (!exported_())
      exported_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE,
                             input_.pixelCount() * input_.dims() * sizeof(float));
    v_->exportTo(exported_);
    exportedAt_ = iterations_;
  }
  return exported_;
}

double MultigridSolver::error() {
  confirmPersistentSteps(true);
  return metric_->compute(v_->memory(), mu_);
}

cl::CommandQueue& MultigridSolver::queue() { return ctx_->queue(); }

}  // namespace gvflab
