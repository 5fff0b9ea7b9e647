// The double-precision multigrid reference: level sizes, and the discretisation derived from
// eq. 2 — multigrid run to convergence reaches the fixed point of the unit-step Euler
// iteration (max difference < 1e-8 once both residuals ε are below 1e-11), in 2D and 3D, on
// sizes that are not powers of two.
#include <doctest/doctest.h>

#include "gvflab/multigrid_reference.hpp"
#include "gvflab/phantoms.hpp"
#include "volume_support.hpp"

using namespace gvflab;
using namespace gvflab::reference;

namespace {

Field eulerToConvergence(const Field& v0, double mu, double tol) {
  Field v = v0;
  for (int chunk = 0; chunk < 400 && gvfError(v, v0, mu) > tol; ++chunk)
    v = eulerIterate(v, v0, mu, 250);
  return v;
}

double maxDiff(const Field& a, const Field& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.values.size(); ++i)
    m = std::max(m, std::abs(a.values[i] - b.values[i]));
  return m;
}

}  // namespace

TEST_CASE("the level pyramid halves every side rounding up and never crops") {
  auto l = multigridLevels(512, 512, 1);
  CHECK(l.size() == 9);  // 512 ... 2
  CHECK(l.back() == Shape3{2, 2, 1});
  l = multigridLevels(37, 5, 1);
  REQUIRE(l.size() == 6);  // 37, 19, 10, 5, 3, 2
  CHECK(l[1] == Shape3{19, 3, 1});
  CHECK(l[5] == Shape3{2, 1, 1});
  l = multigridLevels(13, 7, 5);
  CHECK(l[1] == Shape3{7, 4, 3});
  CHECK(l.back() == Shape3{2, 1, 1});
  CHECK(multigridLevels(2, 1, 1).size() == 1);
}

TEST_CASE(
    "restriction averages 2x2 children, missing ones by the boundary rule; prolongation "
    "copies the parent") {
  Grid s{3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  Grid c = restrictGrid(s);
  REQUIRE(c.width == 2);
  CHECK(c.values[0] == doctest::Approx((1 + 2 + 4 + 5) / 4.0));
  CHECK(c.values[1] == doctest::Approx((3 + 2 + 6 + 5) / 4.0));  // x = 3 reads x = 1
  CHECK(c.values[3] == doctest::Approx((9 + 8 + 6 + 5) / 4.0));
  Field v{3, 3, std::vector<double>(18, 1.0)};
  Field e{2, 2, {1, -1, 2, -2, 3, -3, 4, -4}};
  prolongAdd(v, e);
  CHECK(v.values[2 * 4] == 2.0);       // (1, 1) from parent (0, 0)
  CHECK(v.values[2 * 8 + 1] == -3.0);  // (2, 2) from parent (1, 1): 1 - 4
}

TEST_CASE("one Gauss-Seidel point update zeroes that point's residual") {
  Image2D img = makePhantom("u", 16);
  Field v0 = initialField(test::toGrid(img), 1.0, V0Mode::EdgeGradient);
  Field f = multigridRhs(v0);
  Grid s = multigridS(v0);
  Field v = v0;
  smoothColour(v, f, s, 0.1, 0);
  Field r = multigridResidual(v, f, s, 0.1);
  for (int y = 0; y < 16; ++y)
    for (int x = (y & 1); x < 16; x += 2)
      for (int c = 0; c < 2; ++c) CHECK(std::abs(r.values[2 * (y * 16 + x) + c]) < 1e-14);
}

TEST_CASE("multigrid and Euler converge to the same field (2D and 3D, odd sizes)") {
  const double mu = 0.1, tol = 1e-11;
  MultigridParams p{.mu = mu, .a = 1, .b = 2, .c = 1};
  auto check = [&](const Field& v0) {
    const Field euler = eulerToConvergence(v0, mu, tol);
    REQUIRE(gvfError(euler, v0, mu) <= tol);
    Field mg = v0;
    int iterations = 0;
    double last = gvfError(mg, v0, mu);
    while (gvfError(mg, v0, mu) > tol && iterations < 60) {
      mg = multigridIterate(mg, v0, p, 1, iterations);
      ++iterations;
      const double e = gvfError(mg, v0, mu);
      CHECK(e < last);  // every iteration lowers ε
      last = e;
    }
    CAPTURE(iterations);
    CHECK(gvfError(mg, v0, mu) <= tol);
    CHECK(maxDiff(mg, euler) < 1e-8);
    CHECK(test::maxAbs(mg.values) > 0.01);  // a field, not a trivial zero
    return iterations;
  };
  // Full multigrid each iteration, V-cycles after the first, two-grid iterations.
  for (const int cycle : {kCycleFull, kCycleVCycles, kCycleTwoGrid}) {
    CAPTURE(cycle);
    p.cycle = cycle;
    const int it2 =
        check(initialField(test::toGrid(makePhantom("u", 40)), 1.0, V0Mode::EdgeGradient));
    CHECK(it2 < 40);
    check(initialField(test::toGrid(test::randomImage(23, 17, 5)), 1.0, V0Mode::EdgeGradient));
    check(initialField(test::toGrid(makePhantom("u", 17)), 1.0, V0Mode::EdgeGradient));  // 2^k+1
    check(initialField(test::toGridOf(test::ballVolumeOf(13, 10, 9)), 0.5, V0Mode::EdgeGradient));
    check(initialField(test::toGridOf(test::ballVolumeOf(9, 9, 9)), 0.5, V0Mode::EdgeGradient));
  }
}

TEST_CASE("the printed eq. 4 (h²S instead of 2h²S) has another fixed point than Euler") {
  // Its fixed point solves μ∇²v − (S/2)v = f: halving S changes the solution wherever S > 0.
  Image2D img = makePhantom("u", 24);
  Field v0 = initialField(test::toGrid(img), 1.0, V0Mode::EdgeGradient);
  Grid half = multigridS(v0);
  for (double& x : half.values) x *= 0.5;
  Field v = v0;
  Field f = multigridRhs(v0);
  for (int i = 0; i < 4000; ++i) smooth(v, f, half, 0.1, 1);
  CHECK(gvfError(v, v0, 0.1) > 1e-3);  // far from a GVF solution
}
