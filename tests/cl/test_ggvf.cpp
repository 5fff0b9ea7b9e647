// GGVF on the device against the double reference, and its μ rule.
// Tolerance: 2e-5 absolute on the field (|V| <= 0.71 for the loaders' f): float32 rounding over
// up to 40 steps of a five-point stencil with weights in [0, 1] stays well below it.
#include <doctest/doctest.h>

#include "cl/force_support.hpp"
#include "gvflab/error.hpp"
#include "gvflab/force_reference.hpp"
#include "gvflab/ggvf_solver.hpp"
#include "gvflab/mu_rule.hpp"
#include "gvflab/phantoms.hpp"
#include "test_support.hpp"
#include "volume_support.hpp"

using namespace gvflab;

namespace {
constexpr double kTol = 2e-5;

void compareWithReference(const GvfInput& in, double k, double mu, int iterations) {
  auto ctx = test::sharedContext();
  GgvfSolver solver(ctx, in, mu, GgvfParams{.k = k});
  solver.step(iterations);
  const auto v0 = test::v0FieldOf(*ctx, in);
  const auto ref = reference::ggvfIterate(v0, v0, k, mu, iterations);
  const auto got = test::readFloats(*ctx, solver.field(), in.pixelCount() * in.dims());
  CHECK(test::maxAbsDiff(got, ref.values) < kTol);
  CHECK(solver.iterations() == iterations);
  CHECK(solver.error() == doctest::Approx(reference::ggvfError(ref, v0, k)).epsilon(1e-3));
}
}  // namespace

TEST_CASE("GGVF matches the reference on phantoms, random images and a spacing") {
  auto ctx = test::sharedContext();
  for (const auto& name : phantomNames())
    for (double k : {0.05, 1.0}) {
      CAPTURE(name);
      CAPTURE(k);
      compareWithReference(buildGvfInput(*ctx, makePhantom(name, 64), 1.0), k, 0.25, 40);
    }
  // Sizes that are no multiple of any work-group shape, and degenerate ones.
  const int sizes[][2] = {{37, 23}, {67, 45}, {1, 17}, {3, 2}};
  std::uint32_t seed = 3;
  for (auto [w, h] : sizes) {
    CAPTURE(w);
    CAPTURE(h);
    compareWithReference(buildGvfInput(*ctx, test::randomImage(w, h, seed++), 1.0), 0.1, 0.2, 25);
  }
  const GridSpacing spacing{0.8, 1.5, 1.0};
  compareWithReference(
      buildGvfInput(*ctx, test::randomImage(29, 31, 77), 1.0, V0Mode::EdgeGradient, spacing), 0.2,
      0.9 * ggvfStabilityBound(2, spacing), 25);
}

TEST_CASE("GGVF matches the reference in 3D, with and without spacing") {
  auto ctx = test::sharedContext();
  compareWithReference(buildGvfInput(*ctx, test::randomVolumeOf(13, 11, 9, 5), 1.0), 0.1, 0.16, 20);
  compareWithReference(buildGvfInput(*ctx, test::ballVolumeOf(17, 12, 10), 0.0), 0.05, 0.15, 20);
  const GridSpacing spacing{1.0, 1.0, 2.0};
  compareWithReference(
      buildGvfInput(*ctx, test::randomVolumeOf(9, 10, 7, 6), 1.0, V0Mode::EdgeGradient, spacing),
      0.5, ggvfStabilityBound(3, spacing), 15);
}

TEST_CASE("GGVF's mu rule: the bound is 2 / (4 sum 1/h^2) and it is the scheme's") {
  auto ctx = test::sharedContext();
  const GvfInput in = buildGvfInput(*ctx, test::randomImage(24, 20, 8), 1.0);
  CHECK(ggvfMuRange(in).high == doctest::Approx(0.25));
  CHECK(ggvfStabilityBound(3) == doctest::Approx(1.0 / 6));
  CHECK(ggvfStabilityBound(2, {0.5, 1.0, 1.0}) == doctest::Approx(2.0 / (4 * 5)));
  CHECK_THROWS_WITH_AS(GgvfSolver(ctx, in, 0.26), doctest::Contains("GGVF solver's range"),
                       ParameterError);
  CHECK_THROWS_AS(GgvfSolver(ctx, in, -0.1), ParameterError);
  CHECK_THROWS_AS(GgvfSolver(ctx, in, NAN), ParameterError);
  CHECK_THROWS_WITH_AS(GgvfSolver(ctx, in, 0.1, GgvfParams{.k = 0.0}), doctest::Contains("GGVF K"),
                       ParameterError);
  GgvfSolver solver(ctx, in, 0.1);
  CHECK_THROWS_AS(solver.setMu(0.3), ParameterError);
  CHECK(solver.mu() == 0.1);
  // The bound is where the scheme turns unstable: with K large (g near 1 everywhere) the
  // checkerboard mode decays at the bound and grows just above it (the reference, no clamp).
  const auto v0 = test::v0FieldOf(*ctx, in);
  const double start = reference::maxSquaredNorm(v0);
  CHECK(reference::maxSquaredNorm(reference::ggvfIterate(v0, v0, 10.0, 0.25, 300)) <= start);
  CHECK(reference::maxSquaredNorm(reference::ggvfIterate(v0, v0, 10.0, 0.3, 300)) > 1e6 * start);
}

TEST_CASE("GGVF's K is its own parameter: a new K keeps the field, reset goes back to V0") {
  auto ctx = test::sharedContext();
  const GvfInput in = buildGvfInput(*ctx, makePhantom("u", 48), 1.0);
  GgvfSolver solver(ctx, in, 0.2, GgvfParams{.k = 0.05});
  REQUIRE(solver.ownParams().size() == 1);
  CHECK(solver.ownParams()[0].key == "ggvf-k");
  solver.step(10);
  solver.setOwnParamValues({0.5});
  CHECK(solver.ownParamValues() == std::vector<double>{0.5});
  CHECK(solver.iterations() == 10);
  CHECK_THROWS_AS(solver.setOwnParamValues({-1.0}), ParameterError);
  CHECK(solver.params().k == 0.5);
  solver.step(10);
  // Ten steps at K = 0.05, then ten at K = 0.5: the reference does the same.
  const auto v0 = test::v0FieldOf(*ctx, in);
  auto ref = reference::ggvfIterate(v0, v0, 0.05, 0.2, 10);
  ref = reference::ggvfIterate(ref, v0, 0.5, 0.2, 10);
  CHECK(test::maxAbsDiff(test::readFloats(*ctx, solver.field(), 2 * in.pixelCount()), ref.values) <
        kTol);
  solver.reset();
  CHECK(solver.iterations() == 0);
  CHECK(test::maxAbsDiff(test::readFloats(*ctx, solver.field(), 2 * in.pixelCount()), v0.values) ==
        0.0);
}
