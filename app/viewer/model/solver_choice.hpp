#pragma once
// Which GVF solver the viewer runs (Euler or multigrid) with its settings, and the few places
// where the two differ: μ's limit (Euler's stability bound; multigrid has none), making one,
// and checking up front that it fits the device.
#include <memory>
#include <optional>

#include "cli/options.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/multigrid_solver.hpp"

namespace gvflab::viewer {

enum class SolverKind { Euler, Multigrid };

const char* solverKindName(SolverKind kind);  // "Euler", "multigrid"

struct SolverChoice {
  SolverKind kind = SolverKind::Euler;
  Precision precision = Precision::F32;  // both solvers
  std::optional<MemoryKind> memory;      // Euler only; nullopt: the device's default
  int a = 1, b = 2, c = 1;               // multigrid only (multigridParamSpecs)

  static SolverChoice fromOptions(const app::Options& options);  // --solver, --mg-*, ...
  EulerOptions eulerOptions() const;
  MultigridOptions multigridOptions() const;
};

// The largest μ the viewer lets a solver run with: Euler's stability bound for this input
// (within the parameter's range); for multigrid the parameter's range alone.
double muLimit(SolverKind kind, const GvfInput& input);

std::unique_ptr<Solver> makeSolver(std::shared_ptr<ComputeContext> ctx, const GvfInput& input,
                                   double mu, const SolverChoice& choice);

// Sets μ on either solver (Euler checks its bound and throws ParameterError beyond it).
void setSolverMu(Solver& solver, double mu);

// Refuses (ResourceError naming the size and the limit) a solve that would not fit the device,
// before anything is allocated. With both = true: an Euler and a multigrid solver together
// (the race view).
void checkFits(const ComputeContext& ctx, FieldShape shape, const SolverChoice& choice,
               bool both = false);

}  // namespace gvflab::viewer
