// The default μ fitted to an input (MuRule::FitDefault, the CLI's and Python's without a μ):
// lowered to the solver's top where that is lower, but never silently to μ = 0 when V0 alone
// breaks Euler's stability (max|V0|² ≥ 2: an edge map outside [0, 1], v0 'image' on HU data).
#include <doctest/doctest.h>

#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/mu_rule.hpp"

using namespace gvflab;

namespace {

GvfInput inputWith(double maxV0Squared, int depth) {
  GvfInput in;
  in.width = in.height = 16;
  in.depth = depth;
  in.maxV0Squared = maxV0Squared;
  return in;
}

}  // namespace

TEST_CASE("a fitted default is lowered to Euler's top, which says so") {
  const MuCheck c = checkMu(SolverKind::Euler, inputWith(0.0, 8), 0.2, MuRule::FitDefault);
  CHECK(c.mu == doctest::Approx(1.0 / 6));
  CHECK(c.clamped);
  CHECK(checkMu(SolverKind::Euler, inputWith(0.3, 1), 0.2, MuRule::FitDefault).mu == 0.2);
}

TEST_CASE("a fitted default is refused, with the reason, where Euler's top is 0") {
  for (double v0 : {2.0, 5.0, 1e6}) {
    CAPTURE(v0);
    const GvfInput in = inputWith(v0, 1);
    CHECK(muBound(SolverKind::Euler, in) == 0.0);
    CHECK_THROWS_WITH_AS(checkMu(SolverKind::Euler, in, 0.2, MuRule::FitDefault),
                         doctest::Contains("is at least 2, so Euler cannot smooth this image"),
                         ParameterError);
    CHECK_THROWS_WITH_AS(checkMu(SolverKind::Euler, in, 0.2, MuRule::Refuse),
                         doctest::Contains("use the multigrid solver, or rescale it to [0, 1]"),
                         ParameterError);
    // μ = 0 asked for runs as asked; multigrid takes the default.
    CHECK(checkMu(SolverKind::Euler, in, 0.0, MuRule::Refuse).mu == 0.0);
    CHECK(checkMu(SolverKind::Multigrid, in, 0.2, MuRule::FitDefault).mu == 0.2);
    // The viewer's clamp shows its notice (Session::noteMu); it stays a clamp.
    CHECK(checkMu(SolverKind::Euler, in, 0.2, MuRule::ClampAll).clamped);
  }
}
