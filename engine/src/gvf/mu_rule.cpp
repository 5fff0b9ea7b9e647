#include "gvflab/mu_rule.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"

namespace gvflab {
namespace {

std::string rangeText(const MuRange& r) {
  std::ostringstream s;
  s << (r.lowOpen ? "(" : "[") << r.low << ", " << r.high << "]";
  return s.str();
}

}  // namespace

double eulerStabilityBound(double maxV0Squared, int dims, const GridSpacing& spacing) {
  return std::max(0.0, (2.0 - maxV0Squared) / (4.0 * inverseSquareSum(spacing, dims)));
}

bool MuRange::contains(double mu) const {
  return (lowOpen ? mu > low : mu >= low) && mu <= high;  // false for NaN
}

MuRange muRange(SolverKind kind, int dims) {
  if (kind == SolverKind::Multigrid) return {0.0, kMultigridMuMax, true};
  return {0.0, eulerStabilityBound(0.0, dims), false};
}

MuRange muRange(SolverKind kind, const GvfInput& input) {
  MuRange r = muRange(kind, input.dims());
  if (kind == SolverKind::Euler)
    r.high = eulerStabilityBound(input.maxV0Squared, input.dims(), input.spacing);
  return r;
}

double muBound(SolverKind kind, const GvfInput& input) { return muRange(kind, input).high; }

std::string muRefusal(SolverKind kind, const GvfInput& input, double mu) {
  const MuRange r = muRange(kind, input);
  if (r.contains(mu)) return {};
  std::ostringstream s;
  const char* what = input.dims() == 3 ? "volume" : "image";
  s << "mu = " << mu << " is outside the " << solverKindName(kind) << " solver's range "
    << rangeText(r);
  if (kind == SolverKind::Euler && input.maxV0Squared >= 2.0) {
    s << ": max|V0|^2 = " << input.maxV0Squared << " is at least 2, so Euler cannot smooth this "
      << what << " with any mu > 0 (V would stay V0). V0 is the gradient of the edge map";
    if (!isUnitSpacing(input.spacing, input.dims()))
      s << " per world unit, large with the fine spacing "
        << spacingText(input.spacing, input.dims()) << ", or of an edge map outside [0, 1]";
    else
      s << ", here outside [0, 1]";
    s << " (v0 'image' on data in physical units such as HU, or an edge map given unscaled): "
      << "use the multigrid solver, or rescale it to [0, 1].";
  } else if (kind == SolverKind::Euler && isUnitSpacing(input.spacing, input.dims()))
    s << ", whose top is the Euler stability bound " << r.high << " for this " << what
      << " ((2 - max|V0|^2) / " << 4 * input.dims() << ", max|V0|^2 = " << input.maxV0Squared
      << "); use a smaller mu or the multigrid solver, which has no such bound.";
  else if (kind == SolverKind::Euler)
    s << ", whose top is the Euler stability bound " << r.high << " for this " << what
      << " with spacing " << spacingText(input.spacing, input.dims())
      << " ((2 - max|V0|^2) / (4 * sum of 1/h^2) = (2 - max|V0|^2) / "
      << 4 * inverseSquareSum(input.spacing, input.dims()) << ", max|V0|^2 = " << input.maxV0Squared
      << "); use a smaller mu or the multigrid solver, which has no such bound.";
  else
    s << " (no stability bound, but mu = 0 would leave V0 unsmoothed).";
  return s.str();
}

void requireMu(SolverKind kind, const GvfInput& input, double mu) {
  const std::string refusal = muRefusal(kind, input, mu);
  if (!refusal.empty()) throw ParameterError(refusal);
}

void requireMuForSomeSolver(double mu) {
  const MuRange euler = muRange(SolverKind::Euler, 2),
                multigrid = muRange(SolverKind::Multigrid, 2);
  if (euler.contains(mu) || multigrid.contains(mu)) return;
  std::ostringstream s;
  s << "mu = " << mu << " is outside every solver's range (euler: " << rangeText(euler)
    << " in 2D, " << rangeText(muRange(SolverKind::Euler, 3))
    << " in 3D, lower on strong edges; multigrid: " << rangeText(multigrid) << ").";
  throw ParameterError(s.str());
}

MuCheck checkMu(SolverKind kind, const GvfInput& input, double mu, MuRule rule) {
  const MuRange r = muRange(kind, input);
  MuCheck c{mu, r.high, false, {}};
  if (r.contains(mu)) return c;
  const bool fitted = rule == MuRule::FitDefault && r.high > 0;  // never to a silent μ = 0
  const bool clamp = std::isfinite(mu) && mu > r.high &&
                     (rule == MuRule::ClampAll || fitted ||
                      (rule == MuRule::ClampBound && kind == SolverKind::Euler));
  if (!clamp) requireMu(kind, input, mu);  // throws the rule's sentence
  return {r.high, r.high, true, muRefusal(kind, input, mu)};
}

double ggvfStabilityBound(int dims, const GridSpacing& spacing) {
  return 2.0 / (4.0 * inverseSquareSum(spacing, dims));
}

MuRange ggvfMuRange(const GvfInput& input) {
  return {0.0, ggvfStabilityBound(input.dims(), input.spacing), false};
}

std::string ggvfMuRefusal(const GvfInput& input, double mu) {
  const MuRange r = ggvfMuRange(input);
  if (r.contains(mu)) return {};
  std::ostringstream s;
  s << "mu = " << mu << " is outside the GGVF solver's range " << rangeText(r)
    << ", whose top is its Euler stability bound 2 / (4 * sum of 1/h^2) = " << r.high
    << " (reached where grad f = 0, whatever K); use a smaller mu.";
  return s.str();
}

void requireGgvfMu(const GvfInput& input, double mu) {
  const std::string refusal = ggvfMuRefusal(input, mu);
  if (!refusal.empty()) throw ParameterError(refusal);
}

}  // namespace gvflab
