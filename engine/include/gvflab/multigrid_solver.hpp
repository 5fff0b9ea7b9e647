#pragma once
// Full-multigrid GVF (second paper, Alg. 2-4) behind the Solver interface, 2D and 3D:
// red-black Gauss-Seidel smoothing in place, residual fused into the restriction (average of
// the 2x2 / 2x2x2 children), nearest-cell prolongation, V-cycles and full multigrid with the
// paper's a, b, c and μ. Discretisation and level sizes: see multigrid_reference.hpp.
//
// All components are solved in one pass (each kernel reads and writes float2 / float3): the
// paper went one component at a time only to save memory, and this layout needs less memory
// than Euler's anyway. Level 0 holds V and V0 only (f = -|V0|²V0 and S = |V0|² are made on
// the fly, and the residual is fused into the restriction, never stored); each coarser level
// holds a float32 correction, right-hand side and S. Bytes per fine point, float32: 2D about
// 16 + 20/3 ≈ 22.7 (Euler 24), 3D about 24 + 28/7 = 28 (Euler 36).
// Level 0 uses the chosen storage precision (float32, float16, snorm16) in buffers (images
// would need a second copy of V: Gauss-Seidel updates in place); coarser levels are float32.
// An iteration is one call of the paper's FULLMULTIGRID: `a` full-multigrid cycles on the
// residual equation, each correction added to V (so iterating keeps converging).
// Launches: levels above coarseLevel() one kernel per operator (a red-black sweep one launch
// per colour in place, or both colours in one tiled launch into a second copy: options.fused;
// with fused 2 in 2D also a level's steps between two visits of the next in one launch);
// the levels from coarseLevel()
// down are solved by one work-group in one launch (mg_coarse) each time a cycle reaches them,
// the same steps in the same order (see chooseCoarseLevel for the measured side per device).
// Every launch is filed in the profiler under its level: levelTimes() says which level costs what.
// One launch (MultigridOptions::persistent, NVIDIA GPUs by default: 2D float32, 3D from level
// 1): the levels of side <= persistentSide run as one launch per visit of the cycle (from level
// 0: a whole step() in one launch), all work-groups on the large levels with device-wide
// barriers, work-group 0 alone in local memory from 32² / 8³ down (BENCHMARKS.md, "Multigrid in
// one launch", "Round 4, tenth session").
#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

#include "gvflab/error_metric.hpp"
#include "gvflab/field_storage.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/one_launch_sync.hpp"
#include "gvflab/params.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/solver.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

class ComputeContext;
namespace detail {
struct CycleShape;
struct LevelRun;
enum class IterationKind;  // multigrid_schedule.hpp
}  // namespace detail

struct MultigridOptions {
  Precision precision = Precision::F32;
  int a = kMultigridSweeps.a;  // full-multigrid cycles per iteration
  int b = kMultigridSweeps.b;  // pre-smoothing sweeps
  int c = kMultigridSweeps.c;  // post-smoothing sweeps
  // The iterations' schedule (MultigridCycle, params.hpp; auto resolved by dims: cycle()).
  int cycle = kMultigridSweeps.cycle;
  // Levels with no side above this are solved together by one work-group, in one launch per
  // V-cycle or full-multigrid descent (-1: chosen per device; 0: never); in local memory
  // where they fit, else in a global scratch buffer.
  int coarseSide = -1;
  bool coarseGlobal = false;  // the global pool even where local memory would do (tests)
  // Smoothing sweeps above the one-work-group levels: both colours in one tiled launch
  // (mg_smooth_fused, into a second copy of each level's v: one more field of memory) or one
  // launch per colour in place. -1: chosen per device and dims (fusedChosen: GPUs in 2D, where
  // measured faster); 0: two launches; 1: fused; 2 (2D): fused, and each launched level's steps
  // between two visits of the next (prolongation, sweeps, residual restriction) in one launch
  // (mg_fused_pass). field() then alternates between two buffers, as Euler's does: take it
  // again after each step.
  int fused = -1;
  // Every iteration of a step() in ONE launch (mg_persistent, kernels/multigrid_persistent.cl):
  // all work-groups do the levels above the coarse side, work-group 0 alone those within it,
  // device-wide barriers between steps. 2D float32, or 3D from level 1 (level 0 launches; not on
  // a split's coarse levels); elsewhere it stays off. -1: on for NVIDIA GPUs unless fused = 1;
  // 0: off; 1: on (CPU devices too; other GPUs are refused: no device-wide fence known there).
  // Should not every work-group run at once, the launch gives up and the iterations are redone
  // launch by launch (storageNote() says so).
  int persistent = -1;
  int persistentGroups = 0;  // its work-groups (0: one per compute unit; never more)
  // Levels with no side above this go in the one launch, one launch per cycle's visit, the
  // larger ones launch per operator as without it (-1: GPUs 512 in 2D, 64 in 3D; CPUs all;
  // 0: all; 3D starts at level 1 at the most).
  int persistentSide = -1;
  bool trace = false;  // one launch on NVIDIA: time each step (persistentTrace; bench)
  // One launch, bits (same arithmetic in the same order, so the same bits): 1 (NVIDIA): a step
  // with no device-wide barrier after it ends with one work-group barrier, not two
  // (-DMGP_LIGHT); 2: each prolongation above the local pool folded into the two colour steps
  // after it (one device-wide step less per visit); 4 (NVIDIA): the step list and k in local
  // memory (-DMGP_LOCAL_OPS). -1: chosen (BENCHMARKS.md).
  int persistentVariant = -1;
  // Levels firstLevel.. only (no V, V0 or finer levels): the coarse levels of a split whose
  // finer ones are over devices (SlabMultigridSolver, which fills S there and drives it).
  int firstLevel = 0;
};

// One row of the per-level cost: the profiler's stats for the launches on `level` (or, for
// the one-work-group launch, levels level..lastLevel together).
struct MultigridLevelTime {
  int level = 0;
  int lastLevel = 0;
  FieldShape shape;
  KernelStats stats;
};

// a, b, c and cycle with ranges, defaults and help (drive the CLI, the panel and the tests).
const std::vector<ParamSpec>& multigridParamSpecs();
// Multigrid's mu as a parameter (help, default, top); its range, (0, kMultigridMuMax], and why
// are mu_rule.hpp's, which every check uses.
const ParamSpec& multigridMuSpec();

class MultigridSolver : public Solver {
 public:
  // Throws ParameterError for μ ≤ 0 or NaN or a, b, c out of range, and ResourceError
  // (naming the size and the limit) when the pyramid does not fit the device.
  MultigridSolver(std::shared_ptr<ComputeContext> ctx, GvfInput input, double mu,
                  MultigridOptions options = {});
  ~MultigridSolver() override;

  // Device bytes of the level pyramid (level 0's V and V0 included).
  static std::uint64_t pyramidBytes(FieldShape shape, Precision precision, bool fused = false);
  // Whether fused sweeps (MultigridOptions::fused = -1) are used on this device and shape.
  static bool fusedChosen(const ComputeContext& ctx, FieldShape shape);

  void setMu(double mu) override;  // keeps the current field; no stability bound applies
  double mu() const override { return mu_; }
  double muBound() const override;  // the top of the mu range (gvf_pipeline.hpp muBound)
  void setOptions(const MultigridSweeps& sweeps);  // same ranges as multigridParamSpecs()
  const MultigridOptions& options() const { return options_; }
  Precision precision() const { return options_.precision; }
  int levels() const { return static_cast<int>(levels_.size()) + 1; }
  // First level solved by the one-work-group launch; levels() when none is.
  int coarseLevel() const { return coarseFrom_; }
  bool fusedSweeps() const { return fused_; }
  // Whether step() runs in one launch (MultigridOptions::persistent, as resolved), its
  // work-groups and the first level work-group 0 does alone (levels() when none).
  bool persistent() const { return persistent_; }
  int persistentGroups() const { return static_cast<int>(persistentGroups_); }
  int persistentCoarseLevel() const { return persistentFrom_; }  // work-group 0, local memory
  int persistentSoloLevel() const { return persistentSolo_; }    // work-group 0 from here down
  int persistentTopLevel() const { return persistentTop_; }      // first level in the one launch
  std::string storageNote() const override { return note_; }
  // Per level, the last one-launch step's time on it (MultigridOptions::trace, NVIDIA only;
  // empty elsewhere): work-group 0's global-timer stamps after each step's barrier, each
  // step's time filed under its level; stats.launches counts steps.
  std::vector<MultigridLevelTime> persistentTrace() const;
  // Per-level times from the context's profiler (rows in level order, levels that ran).
  std::vector<MultigridLevelTime> levelTimes() const;
  std::uint64_t deviceBytes() const override;
  // a, b, c, cycle through the Solver interface (multigridParamSpecs order).
  const std::vector<ParamSpec>& ownParams() const override { return multigridParamSpecs(); }
  std::vector<double> ownParamValues() const override;
  void setOwnParamValues(const std::vector<double>& values) override;  // as setOptions
  std::string structure() const override;                              // "N levels"
  std::vector<SolverFact> facts() const override;            // mg_a, mg_b, mg_c, mg_cycle, levels
  std::vector<SolverTimingRow> timingRows() const override;  // levelTimes() as rows
  const GvfInput& input() const { return input_; }

  // Single building blocks, for tests: one V-cycle at level 0; one full-multigrid cycle.
  void vCycle();
  void fullMultigridCycle();

  std::string name() const override { return "multigrid"; }
  std::string kernelPrefix() const override { return "mg_"; }
  // n iterations of `a` cycles each, as MultigridOptions::cycle schedules them.
  int cycle() const;  // options().cycle, auto resolved by dims (never kCycleAuto)
  void step(int n) override;
  const cl::Buffer& field() override;
  double error() override;
  long iterations() const override { return iterations_; }
  void reset() override;  // V = V0 (as Euler, so both start from the same field)
  int width() const override { return input_.width; }
  int height() const override { return input_.height; }
  int depth() const override { return input_.depth; }

 protected:
  cl::CommandQueue& queue() override;

 private:
  friend class SlabMultigridSolver;
  void restrictS(int first);  // S of levels first+1.. from level first's
  struct Level {              // levels 1..L (level 0 is v_ and v0_)
    FieldShape shape;
    cl::Buffer e;     // correction (the unknown on this level)
    cl::Buffer rhs;   // right-hand side
    cl::Buffer s;     // restricted |V0|²
    cl::Buffer eAlt;  // the fused sweep's output (then swapped with e); only when fused_
  };
  // The arguments of multigrid.cl's kernels (w, h, d: the level's size; cw, ch, cd: the next
  // coarser level's).
  struct Kernels {
    // v, rhs, s, w, h, d, k, colour, from_zero
    TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_float, cl_int,
                cl_int>
        smooth;
    // vin, vout, rhs, s, w, h, d, k
    TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_float>
        smoothFused;
    // v, rhs, s, w, h, d, k, with_residual, out, cw, ch, cd
    TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_float, cl_int,
                cl::Buffer, cl_int, cl_int, cl_int>
        restrict_;
    // rhs, s, w, h, d, out, cw, ch, cd
    TypedKernel<cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl::Buffer, cl_int, cl_int, cl_int>
        restrictS;
    // e, cw, ch, cd, v, w, h, d, add, black_only
    TypedKernel<cl::Buffer, cl_int, cl_int, cl_int, cl::Buffer, cl_int, cl_int, cl_int, cl_int,
                cl_int>
        prolong;
    // vin, vout, rhs, s, e1, rhs1, e1z, w, h, cw, ch, k, prolong, sweeps, restrict, zero_e
    TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer,
                cl_int, cl_int, cl_int, cl_int, cl_float, cl_int, cl_int, cl_int, cl_int>
        fusedPass;
  };
  void chooseCoarseLevel();
  void recordCoarseOps();
  void coarseSolve(bool fullMultigrid);  // levels coarseFrom_.. in one launch
  std::string levelGroup(int level) const;
  FieldShape shapeOf(int level) const;
  Kernels& kernelsOf(int level) { return level == 0 ? fine_ : coarse_; }
  void smooth(int level, int sweeps);
  // One colour on planes [z0, z1); fromZero: e is 0 there, unread (mg_smooth's from_zero).
  void smoothPlanes(int level, int colour, int z0, int z1, bool fromZero = false);
  void smoothFused(int level, int sweeps);
  // level -> level + 1; blacksZero: the black points' residuals count as 0 (mg_restrict's 2).
  void restrictResidual(int level, bool withResidual, bool blacksZero = false);
  // Whether they may, with a whole red-black sweep on the level just before.
  bool blackResidualsZero(int level, bool afterSweep) const;
  // level + 1 -> level; blackOnly: only the points the next sweep's red pass reads.
  void prolong(int level, bool add, bool blackOnly = false);
  // Whether a prolongation right before a sweep may skip the red points: the red pass stores
  // each of them from black neighbours alone (no side of 1; 2·DIMS·k + S positive).
  bool redsOverwritten(int level, bool beforeSweep) const;
  void zero(int level);
  // e_level = 0 left to the next sweep's red pass (its neighbours read as 0, the black pass
  // overwrites the rest): when b > 0 sweeps come first and the red points are overwritten.
  bool zeroBySweep(int level) const;
  std::vector<bool> zeroPending_;  // per level: its e is 0 for its next sweep, not in memory
  bool fusedPass(int level, const detail::LevelRun& r);  // the run in one launch; false: not here
  class Launches;  // the schedule's executor that launches a kernel per step
  detail::CycleShape cycleShape() const;
  bool persistentTakes(int level) const;  // the one launch takes over at this level
  template <class Kernel>
  void bindLevel(Kernel& k, int level);  // arguments 0..5: v, rhs, s, w, h, d
  // over: the points launched, from plane z0 on (3D).
  void launch(cl::Kernel& k, const char* name, FieldShape over, int level, bool halfX = false,
              int z0 = 0);
  bool persistentWanted() const;
  void allocateLevels(FieldShape shape);
  void setUpPersistent(const std::string& levelOpts);  // the coarse levels' build options
  void launchCycle(detail::IterationKind kind);  // `iteration` of multigrid_schedule.hpp, launched
  void recordPersistentOps();
  void stepPersistent(int n);
  void stepPersistentList(int which, int n);  // n iterations of list `which`, in chunks
  void launchPersistent(int which, int iterations);
  void persistentSolve(bool fullMultigrid);  // levels persistentTop_.. in one launch
  void confirmPersistentSteps(bool redo);

  std::shared_ptr<ComputeContext> ctx_;
  GvfInput input_;
  double mu_ = 0;
  MultigridOptions options_;
  std::unique_ptr<FieldStorage> v_;
  std::unique_ptr<FieldStorage> v0_;
  std::unique_ptr<FieldStorage> vAlt_;  // the fused sweep's level-0 output, swapped with v_
  bool fused_ = false;
  bool fusedPasses_ = false;  // options.fused 2, as resolved (2D, level 1 launched)
  std::vector<Level> levels_;
  Kernels fine_, coarse_;
  // e, rhs, s, w, h, d, levels, k0, ops, op_count, pool (local memory or a global buffer)
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_int, cl_float,
              cl::Buffer, cl_int, std::variant<cl::Buffer, cl::LocalSpaceArg>>
      coarseSolve_;
  int coarseFrom_ = 0;               // first level of the one-work-group solve (levels() = none)
  std::size_t coarseGroup_ = 0;      // its work-group size
  std::size_t coarsePoolBytes_ = 0;  // its pool: local memory, or coarsePool_ when too large
  cl::Buffer coarsePool_;
  struct CoarseOps {
    cl::Buffer steps;  // int4 per step (multigrid.cl, MG_OP_*)
    int count = 0;
  };
  CoarseOps coarseOps_[2];  // V-cycle, full multigrid
  cl::Buffer dummy_;        // the unused S argument of level-0 kernels
  long iterations_ = 0;
  cl::Buffer exported_;
  long exportedAt_ = -1;
  std::unique_ptr<ErrorMetric> metric_;
  // The one-launch path (mg_persistent): levels 1.. as sub-buffers of pool_.
  bool persistent_ = false;
  int persistentFrom_ = 0, persistentSolo_ = 0;
  bool foldProlong_ = false;
  std::size_t persistentGroups_ = 0, persistentGroupSize_ = 0;
  int persistentTop_ = 0;
  std::size_t localPoolBytes_ = 0;
  cl::Buffer pool_, levelTable_, levelK_, trace_;
  OneLaunchSync sync_;
  // 0: whole iterations (top level 0); 1: vcycle(top); 2: fmg(top); 3: later iterations where
  // they differ from the first (top level 0, V-cycles after the first)
  struct PersistentOps {
    cl::Buffer steps;
    std::vector<cl_int4> host;
    int gridSyncs = 0;
  };
  PersistentOps persistentOps_[4];
  int tracedOps_ = 0;  // which list the last launch ran
  bool tracing_ = false;
  std::size_t traceCapacity_ = 0, traceCount_ = 0;
  std::vector<float> levelKHost_;
  double levelKMu_ = -1;
  std::string note_;
  // v, v0, pool, level table, k per level, ops, op count, iterations, sync, sync base, trace,
  // levels, first level of work-group 0, its local pool
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int,
              cl_int, cl::Buffer, cl_int, cl::Buffer, cl_int, cl_int, cl::LocalSpaceArg>
      persistentKernel_;
};

}  // namespace gvflab
