#include "viewer/model/solver_choice.hpp"

#include <algorithm>

#include "gvflab/device.hpp"
#include "gvflab/params.hpp"

namespace gvflab::viewer {

const char* solverKindName(SolverKind kind) {
  return kind == SolverKind::Euler ? "Euler" : "multigrid";
}

SolverChoice SolverChoice::fromOptions(const app::Options& options) {
  SolverChoice c;
  c.kind = options.solver == "multigrid" ? SolverKind::Multigrid : SolverKind::Euler;
  c.precision = options.storage.precision;
  c.memory = options.storage.memory;
  c.a = options.mgA, c.b = options.mgB, c.c = options.mgC;
  return c;
}

EulerOptions SolverChoice::eulerOptions() const {
  EulerOptions o;
  o.precision = precision;
  o.memory = memory;
  return o;
}

MultigridOptions SolverChoice::multigridOptions() const {
  MultigridOptions o;
  o.precision = precision;
  o.a = a, o.b = b, o.c = c;
  return o;
}

double muLimit(SolverKind kind, const GvfInput& input) {
  const double rangeMax = findSpec(gvfParamSpecs(), "mu").maxValue;
  if (kind == SolverKind::Multigrid) return rangeMax;  // implicit smoothing: no bound
  return std::min(EulerSolver::stabilityBound(input.maxV0Squared, input.dims()), rangeMax);
}

std::unique_ptr<Solver> makeSolver(std::shared_ptr<ComputeContext> ctx, const GvfInput& input,
                                   double mu, const SolverChoice& choice) {
  if (choice.kind == SolverKind::Multigrid)
    return std::make_unique<MultigridSolver>(std::move(ctx), input, mu, choice.multigridOptions());
  return std::make_unique<EulerSolver>(std::move(ctx), input, mu, choice.eulerOptions());
}

void setSolverMu(Solver& solver, double mu) {
  if (auto* euler = dynamic_cast<EulerSolver*>(&solver)) euler->setMu(mu);
  if (auto* mg = dynamic_cast<MultigridSolver*>(&solver)) mg->setMu(mu);
}

void checkFits(const ComputeContext& ctx, FieldShape shape, const SolverChoice& choice, bool both) {
  const double count = static_cast<double>(shape.count());
  // The multigrid pyramid beyond its two full fields, per fine point.
  const double coarse = static_cast<double>(MultigridSolver::pyramidBytes(shape, choice.precision) -
                                            2 * fieldBytes(shape, choice.precision)) /
                        count;
  if (both)
    checkSolverFits(ctx, shape, choice.precision, 3 + 2, coarse);
  else if (choice.kind == SolverKind::Multigrid)
    checkSolverFits(ctx, shape, choice.precision, 2, coarse);
  else
    checkSolverFits(ctx, shape, choice.precision, 3);
}

}  // namespace gvflab::viewer
