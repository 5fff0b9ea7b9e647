#pragma once
// Multigrid's schedule, written once: the paper's V-cycle (Alg. 3), recursive full multigrid
// (Alg. 4) and the iterations of MultigridCycle (params.hpp), as the steps they take in launch
// order. Three executors take the steps: MultigridSolver's
// launches (a kernel per step), mg_coarse (one work-group, one launch) and mg_persistent (the
// one launch); the last two run lists recorded by StepRecorder. Also the level sizes both
// multigrid_solver.cpp and multigrid_persistent.cpp use.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/field_storage.hpp"
#include "gvflab/params.hpp"

namespace gvflab::detail {

inline FieldShape coarser(FieldShape s) {
  return {(s.width + 1) / 2, (s.height + 1) / 2, (s.depth + 1) / 2};
}

inline int maxSide(FieldShape s) { return std::max({s.width, s.height, s.depth}); }

// Float32 correction, right-hand side (dims components each) and S on one coarse level.
inline std::uint64_t coarseLevelBytes(FieldShape s, int dims) {
  return s.count() * (2ull * dims + 1) * sizeof(float);
}

// The step codes and flags of kernels/multigrid_ops.clh (checked there by static_asserts in
// multigrid_schedule.cpp): a recorded step is int4 (code | flags, level, a, b).
enum StepCode : int { kSmooth, kRestrict, kProlong, kZero, kRestrictS, kLoad, kStore };
enum StepFlag : int { kCodeMask = 15, kGroup0 = 16, kGridSync = 32, kSolo = 64 };
constexpr int kMaxCoarseLevels = 16;  // MG_MAX_LEVELS

// The levels a schedule runs over (0..last) and the paper's sweeps b and c.
struct CycleShape {
  int last = 0, b = kMultigridSweeps.b, c = kMultigridSweeps.c;
};

// The steps on one level between two visits of the coarser ones, in this order:
// [prolong(level, true, sweeps > 0)], smooth(level, sweeps),
// [restrictTo(level, true, zeroCoarse, sweeps > 0)].
struct LevelRun {
  bool prolong = false;
  int sweeps = 0;
  bool restrict = false, zeroCoarse = false;
};

// What each step of a cycle does: an executor.
class CycleSteps {
 public:
  virtual ~CycleSteps() = default;
  // Whether this executor takes levels `level`.. over in one launch (a V-cycle from there, or
  // full multigrid); the schedule then skips them.
  virtual bool takeOver(int /*level*/, bool /*fullMultigrid*/) { return false; }
  virtual void smooth(int level, int sweeps) = 0;  // both colours per sweep
  // rhs_{l+1} = restrict(f - A e) (residual) or restrict(f); zeroCoarse: e_{l+1} = 0 too;
  // afterSweep: a red-black sweep on this level came just before (nothing changed e since).
  virtual void restrictTo(int level, bool residual, bool zeroCoarse, bool afterSweep) = 0;
  // e_l = [e_l +] P e_{l+1}; beforeSweep: a red-black sweep on this level comes right after
  // (it overwrites every red point without reading it).
  virtual void prolong(int level, bool add, bool beforeSweep) = 0;
  virtual void zero(int level) = 0;  // e_l = 0
  // A run of steps on one level; executors that fuse them override this (default: one by one).
  virtual void run(int level, const LevelRun& r);
};

// prolongFirst: V += P e_{level+1} first (as part of the first run; never taken over then).
void vcycle(CycleSteps& steps, const CycleShape& shape, int level, bool prolongFirst = false);
void fullMultigrid(CycleSteps& steps, const CycleShape& shape, int level);
// One iteration's cycle on V (level 0):
//  FullMultigrid: the residual to level 1, full multigrid for the correction there, V += P e_1,
//    a V-cycle on V (the paper's);
//  VCycle: the V-cycle alone;
//  TwoGrid: b sweeps, the residual to level 1, full multigrid for the correction there,
//    V += P e_1, c sweeps (FullMultigrid less the V-cycle's own visit of level 1).
enum class IterationKind { FullMultigrid, VCycle, TwoGrid };
void iteration(CycleSteps& steps, const CycleShape& shape, IterationKind kind);
// The iteration that follows `done` iterations since reset() under a resolved MultigridCycle.
inline IterationKind iterationKind(int cycle, long done) {
  if (cycle == kCycleTwoGrid) return IterationKind::TwoGrid;
  return cycle == kCycleVCycles && done > 0 ? IterationKind::VCycle : IterationKind::FullMultigrid;
}

// Records the steps as int4 (code, level - first, a, b) in launch order.
class StepRecorder final : public CycleSteps {
 public:
  explicit StepRecorder(int first = 0) : first_(first) {}
  std::vector<cl_int4> ops;
  void add(int code, int level, int a = 0, int b = 0) {
    ops.push_back({{code, level - first_, a, b}});
  }
  void smooth(int level, int sweeps) override;
  // (The one-work-group and one-launch steps read every point's residual: afterSweep unused.)
  void restrictTo(int level, bool residual, bool zeroCoarse, bool /*afterSweep*/) override {
    add(kRestrict, level, residual ? 1 : 0, zeroCoarse ? 1 : 0);
  }
  // (The one-work-group and one-launch steps prolong every point: beforeSweep unused.)
  void prolong(int level, bool sum, bool /*beforeSweep*/) override {
    add(kProlong, level, sum ? 1 : 0);
  }
  void zero(int level) override { add(kZero, level); }

 private:
  int first_;
};

}  // namespace gvflab::detail
