#pragma once
// The one rule for GVF's μ: the range each solver kind runs with, per dimension and input.
// Every client asks here (the headless CLI and the viewer through gvf_pipeline.hpp, session
// files, the viewer's race and μ slider, the bench, the Python module); none keeps a number for
// μ of its own. A refusal is one sentence naming μ, the solver and its range.
//
// Euler is explicit, V += μ∇²V − (V − V0)|V0|² with unit time step. On a grid of spacing h_i
// (world units, gvflab/grid_spacing.hpp) the Laplacian is Σ_i (V[i−1] + V[i+1] − 2V)/h_i²; its
// highest-frequency mode (the checkerboard) has eigenvalue −4·Σ1/h_i², so one step multiplies
// it by 1 − 4μ·Σ1/h_i² − |V0|², which stays in [−1, 1] iff 4μ·Σ1/h_i² + max|V0|² ≤ 2:
//   μ ≤ (2 − max|V0|²) / (4·Σ1/h_i²),
// with unit spacing (Σ = dims) at most 1/4 in 2D and 1/6 in 3D (V0 = 0) and lower on strong
// edges. V0 is in world units too, so fine spacing (h < 1) raises max|V0|² and lowers the
// bound on both counts. μ = 0 runs (V stays V0).
//
// Multigrid solves the implicit equation: its smoother's system k(Σ neighbours − 2·dims·v) −
// S·v = f with k = μ/h² and S = |V0|² ≥ 0 is diagonally dominant for every μ > 0, so
// Gauss-Seidel converges and no stability bound applies. μ = 0 is refused: the diagonal
// 2·dims·k + S is then 0 wherever V0 = 0 (a division by zero, and V0 left unsmoothed). The top
// is a sanity limit on the input, not a bound of the scheme.
#include <string>

#include "gvflab/grid_spacing.hpp"
#include "gvflab/solver_kind.hpp"

namespace gvflab {

struct GvfInput;

// The largest μ multigrid takes (see above).
inline constexpr double kMultigridMuMax = 1e4;

// Euler's stability bound, (2 − max|V0|²)/(4·Σ1/h_i²), 0 where V0 alone is too strong.
double eulerStabilityBound(double maxV0Squared, int dims,
                           const GridSpacing& spacing = {1.0, 1.0, 1.0});

struct MuRange {
  double low = 0;
  double high = 0;
  bool lowOpen = false;            // (low, high]: low itself refused (multigrid's μ = 0)
  bool contains(double mu) const;  // false for NaN
};

// The range of a kind in 2D or 3D before the input is known (Euler's top with V0 = 0).
MuRange muRange(SolverKind kind, int dims);
// The range on this input: Euler's top is its stability bound here.
MuRange muRange(SolverKind kind, const GvfInput& input);
// The top of muRange(kind, input): the largest μ a solver of this kind runs with here
// (Solver::muBound() returns it).
double muBound(SolverKind kind, const GvfInput& input);

// The sentence refusing mu for this kind and input, e.g. "mu = 0.3 is outside the euler
// solver's range [0, 0.2184] for this image: ...". Empty when mu is in the range.
std::string muRefusal(SolverKind kind, const GvfInput& input, double mu);
// ParameterError with muRefusal's sentence unless mu is in muRange(kind, input).
void requireMu(SolverKind kind, const GvfInput& input, double mu);
// Before a solver or input is known (the CLI's --mu, a session file's "mu"): ParameterError
// unless some solver runs mu on some input ("mu = -1 is outside every solver's range ...").
void requireMuForSomeSolver(double mu);

// What a client does with a μ beyond the top of the range. Below the range, NaN or infinite
// is always a ParameterError (requireMu's sentence).
enum class MuRule {
  Refuse,      // ParameterError (the solvers, the CLI, Python, session files, the bench)
  ClampBound,  // beyond Euler's stability bound: the bound (never an unstable step); beyond
               // the range otherwise: ParameterError (a μ the viewer's user asks for now)
  ClampAll,    // beyond the top: the top, for either kind (a μ asked for earlier, applied
               // again to a new input or solver; the viewer, which shows the clamp)
  FitDefault,  // a default nobody asked for, fitted to this input (the CLI's and Python's
               // without a μ): beyond the top, the top (3D's Euler bound is below the 2D
               // default); but a top of 0 (max|V0|² ≥ 2: V would stay V0, unsmoothed) is
               // refused with the reason rather than run silently as μ = 0
};
struct MuCheck {
  double mu = 0;         // what to run
  double bound = 0;      // muBound(kind, input)
  bool clamped = false;  // mu is the bound, not what was asked for
  std::string refusal;   // when clamped: muRefusal's sentence for the μ asked for
};
MuCheck checkMu(SolverKind kind, const GvfInput& input, double mu, MuRule rule);

// GGVF (Xu & Prince 1998) runs an explicit step with weights per point and μ as its time step,
//   V += μ (g ∇²V − h (V − V0)),  g = exp(−|V0|/K),  h = 1 − g
// (ggvf_solver.hpp; the field it settles to does not depend on μ). The checkerboard factor is
// 1 − μ(4g·Σ1/h_i² + h), in [−1, 1] iff μ((4·Σ1/h_i² − 1)g + 1) ≤ 2 at every point. The left
// side grows with g, which reaches 1 wherever V0 = 0 (every image with a flat region), so the
// bound is 2/(4·Σ1/h_i²) for every input and every K: 1/4 in 2D and 1/6 in 3D at unit spacing,
// the same number as Euler's GVF bound with V0 = 0. μ = 0 runs (V stays V0).
double ggvfStabilityBound(int dims, const GridSpacing& spacing = {1.0, 1.0, 1.0});
MuRange ggvfMuRange(const GvfInput& input);
// "mu = 0.3 is outside the GGVF solver's range [0, 0.25] ..." or empty when it is inside.
std::string ggvfMuRefusal(const GvfInput& input, double mu);
// ParameterError with ggvfMuRefusal's sentence unless mu is in ggvfMuRange(input).
void requireGgvfMu(const GvfInput& input, double mu);

}  // namespace gvflab
