#include "gvf/multigrid_schedule.hpp"

namespace gvflab::detail {
namespace {
#include "multigrid_ops.clh"  // plain defines: the kernels' step codes
static_assert(kSmooth == MG_OP_SMOOTH && kRestrict == MG_OP_RESTRICT && kProlong == MG_OP_PROLONG &&
              kZero == MG_OP_ZERO && kRestrictS == MG_OP_RESTRICT_S && kLoad == MG_OP_LOAD &&
              kStore == MG_OP_STORE);
static_assert(kCodeMask == MG_OP_MASK && kGroup0 == MG_OP_GROUP0 && kGridSync == MG_OP_GRID_SYNC &&
              kSolo == MG_OP_SOLO);
static_assert(kMaxCoarseLevels == MG_MAX_LEVELS);
}  // namespace

void CycleSteps::run(int level, const LevelRun& r) {
  if (r.prolong) prolong(level, true, r.sweeps > 0);
  smooth(level, r.sweeps);
  if (r.restrict) restrictTo(level, true, r.zeroCoarse, r.sweeps > 0);
}

void vcycle(CycleSteps& steps, const CycleShape& shape, int level, bool prolongFirst) {
  if (!prolongFirst && steps.takeOver(level, false)) return;
  const bool deeper = level < shape.last;
  steps.run(level, {prolongFirst, shape.b, deeper, true});
  if (deeper) vcycle(steps, shape, level + 1);
  steps.run(level, {deeper, shape.c});
}

void fullMultigrid(CycleSteps& steps, const CycleShape& shape, int level) {
  if (steps.takeOver(level, true)) return;
  if (level < shape.last) {
    steps.restrictTo(level, false, false, false);
    fullMultigrid(steps, shape, level + 1);
    steps.prolong(level, false, shape.b > 0);  // vcycle(level) starts with b sweeps
  } else {
    steps.zero(level);
  }
  vcycle(steps, shape, level);
}

// Correction form worked on V directly: A(V + e) = f  <=>  A e = f - A V.
void iteration(CycleSteps& steps, const CycleShape& shape, IterationKind kind) {
  if (kind == IterationKind::VCycle || shape.last == 0) return vcycle(steps, shape, 0);
  const bool twoGrid = kind == IterationKind::TwoGrid;
  // (Full multigrid sets e_1 from e_2, or zeroes it on the last level: no fill here.)
  steps.run(0, {.sweeps = twoGrid ? shape.b : 0, .restrict = true});
  fullMultigrid(steps, shape, 1);
  if (twoGrid)
    steps.run(0, {.prolong = true, .sweeps = shape.c});
  else
    vcycle(steps, shape, 0, true);
}

void StepRecorder::smooth(int level, int sweeps) {
  for (int i = 0; i < sweeps; ++i)
    for (int colour = 0; colour < 2; ++colour) add(kSmooth, level, colour);
}

}  // namespace gvflab::detail
