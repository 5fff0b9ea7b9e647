#pragma once
// How far a GVF field is solved before snakes judge it: the one rule for the default, shared
// by the headless CLI, the viewer and the Python module, and the one run-to-target loop.
//
// By default a field is solved to a stated error, ε ≤ kDefaultTargetError (the multigrid
// paper's eq. 9: the mean residual |μ∇²V − (V − V0)|V0|²| over the grid), by multigrid unless
// a solver is named: multigrid reaches 1e-6 in a few full-multigrid cycles at every size
// measured (3 cycles, 37 ms for the 256x256 U on PoCL), where Euler's iterations grow with the
// square of the image side (28183 iterations for the same U). A named solver runs to the same
// error; an explicit iteration count without a target is a fixed count (the old behaviour).
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/solver.hpp"

namespace gvflab {

class ComputeContext;

// ε (eq. 9) a field is solved to unless told otherwise.
inline constexpr double kDefaultTargetError = 1e-6;

// The most iterations a run to a target takes before it gives up (and says so): Euler's
// covers the 1e-6 of a 1024x1024 image (about 16x the 256x256 count); one multigrid iteration
// is a whole full-multigrid cycle.
long defaultIterationCap(SolverKind kind);

// What a caller asked for; each part may be left to the rule.
struct FieldSolveRequest {
  std::optional<SolverKind> solver;   // --solver / solver=
  std::optional<long> iterations;     // --iterations / iterations=
  std::optional<double> targetError;  // --target-error / target_error=
};

// What runs: the solver kind, and either a fixed count or a target with a cap.
struct FieldSolvePlan {
  SolverKind kind = SolverKind::Multigrid;
  std::optional<double> targetError;  // nullopt: a fixed count of `iterations`
  long iterations = 0;                // the fixed count, or the cap on a run to the target
  bool defaultTarget = false;         // the target is kDefaultTargetError, not one asked for
  // "multigrid to error <= 1e-06 (at most 100 iterations)" or "euler, 500 iterations".
  std::string describe() const;
};

// The rule: a target asked for runs to it (cap: the iterations asked for, else the kind's
// default cap); iterations without a target are a fixed count; neither means
// kDefaultTargetError. The solver is the one named, else multigrid for a run to a target and
// Euler for a fixed count (an iteration count names Euler iterations, as it always did).
// Throws ParameterError for a target that is not a positive number or a negative count.
FieldSolvePlan planFieldSolve(const FieldSolveRequest& request);

// Watches ε over a solve: done once it reached the target, or once it settled above it (ε
// fell by less than 1% while the iterations grew by half, over at least kMinSamples
// measurements: the solver's floor, e.g. 16-bit storage), so nothing waits forever for an
// error it cannot reach. Measured against iterations, not samples, so the rule does not depend
// on how often ε is measured (each multigrid cycle, Euler chunks, the viewer's frames).
class ConvergenceWatch {
 public:
  static constexpr int kMinSamples = 8;
  explicit ConvergenceWatch(double target = kDefaultTargetError) : target_(target) {}
  void add(long iterations, double error);
  void reset();  // a new solve (new field, μ, solver)
  bool reached() const { return count_ > 0 && last_ <= target_; }
  bool settled() const;
  bool done() const { return reached() || settled(); }
  double target() const { return target_; }
  double last() const { return last_; }

 private:
  double target_;
  double last_ = 0;
  long lastIterations_ = 0;
  long count_ = 0;
  std::deque<std::pair<long, double>> past_;  // front: the latest at or before 2/3 of now
};

struct FieldSolveResult {
  double error = 0;      // ε at the end
  bool reached = true;   // the target was reached (always true for a fixed count)
  bool settled = false;  // stopped early: ε settled above the target (ConvergenceWatch)
};

// Runs plan on solver (already built, of plan.kind) from where it stands. Fixed counts go in
// chunks of at most maxChunk (<= 256); to a target, ε is checked after each multigrid
// iteration and after Euler chunks of 1/16 of the iterations done so far (overshoot <= ~6%),
// so ε's own kernels stay a small part of the run; the run also ends when ε settles above the
// target (ConvergenceWatch). `between` runs after each chunk with the iterations done and
// a way to get ε (progress lines, Ctrl+C checks; it may throw to stop). The context's profiler
// frame is closed after each chunk so long runs do not hold millions of events.
using FieldSolveProgress = std::function<void(long iterations, const std::function<double()>&)>;
FieldSolveResult runFieldSolve(ComputeContext& ctx, Solver& solver, const FieldSolvePlan& plan,
                               const FieldSolveProgress& between = {}, long maxChunk = 256);

// After a solve, on the field read back (Solver::readField, readField3D): ParameterError if any
// component is NaN or infinite, the sentence the CLI and the Python module both give.
void requireFiniteField(const std::vector<float>& values);

}  // namespace gvflab
