#include "gvflab/field_solve.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab {

long defaultIterationCap(SolverKind kind) { return kind == SolverKind::Multigrid ? 100 : 100000; }

std::string FieldSolvePlan::describe() const {
  std::ostringstream s;
  s << solverKindName(kind);
  if (targetError)
    s << " to error <= " << *targetError << " (at most " << iterations << " iterations)";
  else
    s << ", " << iterations << " iterations";
  return s.str();
}

FieldSolvePlan planFieldSolve(const FieldSolveRequest& request) {
  if (request.targetError && !(std::isfinite(*request.targetError) && *request.targetError > 0))
    throw ParameterError("the target error must be a positive number.");
  if (request.iterations && *request.iterations < 0)
    throw ParameterError("the iteration count must be 0 or more.");
  FieldSolvePlan plan;
  const bool fixed = request.iterations && !request.targetError;
  plan.kind = request.solver.value_or(fixed ? SolverKind::Euler : SolverKind::Multigrid);
  if (fixed) {
    plan.iterations = *request.iterations;
    return plan;
  }
  plan.targetError = request.targetError.value_or(kDefaultTargetError);
  plan.defaultTarget = !request.targetError;
  plan.iterations = request.iterations.value_or(defaultIterationCap(plan.kind));
  return plan;
}

void ConvergenceWatch::add(long iterations, double error) {
  last_ = error;
  lastIterations_ = iterations;
  ++count_;
  past_.emplace_back(iterations, error);
  while (past_.size() > 1 && 3 * past_[1].first <= 2 * iterations) past_.pop_front();
  if (past_.size() > 4096) past_.erase(past_.begin() + 1);  // a viewer left running for hours
}

void ConvergenceWatch::reset() {
  last_ = 0;
  count_ = 0;
  past_.clear();
}

bool ConvergenceWatch::settled() const {
  if (count_ < kMinSamples || past_.empty()) return false;
  const auto& [then, error] = past_.front();
  return then < lastIterations_ && 3 * then <= 2 * lastIterations_ && !(last_ < 0.99 * error);
}

FieldSolveResult runFieldSolve(ComputeContext& ctx, Solver& solver, const FieldSolvePlan& plan,
                               const FieldSolveProgress& between, long maxChunk) {
  FieldSolveResult r;
  bool fresh = false;  // r.error is the current field's (a run to a target measured it)
  const std::function<double()> error = [&] { return fresh ? r.error : solver.error(); };
  auto after = [&] {
    ctx.profiler().endFrame();
    if (between) between(solver.iterations(), error);
  };
  const long start = solver.iterations();
  if (!plan.targetError) {
    const long chunk = std::clamp<long>(maxChunk, 1, 256);
    for (long done = 0; done < plan.iterations;) {
      const long n = std::min(chunk, plan.iterations - done);
      solver.step(static_cast<int>(n));
      done += n;
      after();
    }
    r.error = solver.error();
    return r;
  }
  const long end = start + plan.iterations;
  const bool multigrid = plan.kind == SolverKind::Multigrid;  // an iteration is a whole cycle
  ConvergenceWatch watch(*plan.targetError);
  r.error = solver.error();
  watch.add(solver.iterations(), r.error);
  while (!watch.done() && solver.iterations() < end) {
    const long done = solver.iterations();
    const long chunk = multigrid ? 1 : std::clamp<long>(done / 16, 1, 256);
    solver.step(static_cast<int>(std::min(chunk, end - done)));
    r.error = solver.error();
    watch.add(solver.iterations(), r.error);
    fresh = true;
    after();
  }
  r.reached = watch.reached();
  r.settled = !r.reached && watch.settled();
  return r;
}

void requireFiniteField(const std::vector<float>& values) {
  for (float v : values)
    if (!std::isfinite(v))
      throw ParameterError("The field became NaN or infinite; lower mu or check the input.");
}

}  // namespace gvflab
