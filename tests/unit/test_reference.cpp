// The double-precision reference itself: boundary rule, blur, gradients, Euler, ε.
#include <doctest/doctest.h>

#include <numeric>

#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/phantoms.hpp"
#include "test_support.hpp"

using namespace gvflab;

TEST_CASE("boundary rule mirrors about the border pixel") {
  CHECK(reference::reflect(-1, 10) == 1);
  CHECK(reference::reflect(10, 10) == 8);
  CHECK(reference::reflect(-3, 10) == 3);
  CHECK(reference::reflect(12, 10) == 6);
  CHECK(reference::reflect(5, 10) == 5);
  CHECK(reference::reflect(-1, 1) == 0);
  CHECK(reference::reflect(2, 2) == 0);
  CHECK(reference::reflect(-25, 4) == 1);  // far outside a tiny image still lands inside
}

TEST_CASE("central differences vanish at the border") {
  reference::Grid g{6, 5, {}};
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 6; ++x) g.values.push_back(x * x + 3.0 * y * y);
  auto d = reference::gradient(g);
  for (int y = 0; y < 5; ++y) {
    CHECK(d.values[2 * (y * 6 + 0)] == doctest::Approx(0));
    CHECK(d.values[2 * (y * 6 + 5)] == doctest::Approx(0));
    CHECK(d.values[2 * (y * 6 + 2)] == doctest::Approx(4.0));  // (9 - 1) / 2
  }
  for (int x = 0; x < 6; ++x) CHECK(d.values[2 * (4 * 6 + x) + 1] == doctest::Approx(0));
}

TEST_CASE("Gaussian weights are normalised and sigma 0 is the identity") {
  for (double s : {0.5, 1.0, 2.5}) {
    auto w = gaussianWeights(s);
    double sum = w[0];
    for (std::size_t k = 1; k < w.size(); ++k) sum += 2 * w[k];
    CHECK(sum == doctest::Approx(1.0));
    CHECK(static_cast<int>(w.size()) - 1 == static_cast<int>(std::ceil(3 * s)));
  }
  CHECK(gaussianWeights(0) == std::vector<double>{1.0});
  auto img = test::toGrid(test::randomImage(9, 7, 3));
  auto same = reference::gaussianBlur(img, 0);
  CHECK(same.values == img.values);
  CHECK_THROWS_AS(gaussianWeights(-1), ParameterError);
  CHECK_THROWS_AS(gaussianWeights(NAN), ParameterError);
}

TEST_CASE("edge map is normalised to a maximum of one and zero on flat images") {
  auto f = reference::edgeMap(test::toGrid(makePhantom("u", 64)), 1.0);
  CHECK(*std::max_element(f.values.begin(), f.values.end()) == doctest::Approx(1.0));
  CHECK(*std::min_element(f.values.begin(), f.values.end()) >= 0.0);
  auto flat = reference::edgeMap(reference::Grid{8, 8, std::vector<double>(64, 0.3)}, 1.0);
  CHECK(test::maxAbs(flat.values) == 0.0);
}

TEST_CASE("reference Euler lowers the error and an unstable mu blows up") {
  auto img = test::toGrid(makePhantom("u", 48));
  auto v0 = reference::initialField(img, 1.0, V0Mode::EdgeGradient);
  double maxS = 0;
  for (std::size_t i = 0; i < v0.values.size() / 2; ++i)
    maxS = std::max(
        maxS, v0.values[2 * i] * v0.values[2 * i] + v0.values[2 * i + 1] * v0.values[2 * i + 1]);
  const double bound = EulerSolver::stabilityBound(maxS);
  CHECK(bound == doctest::Approx((2 - maxS) / 8));
  auto e0 = reference::gvfError(v0, v0, 0.15);
  auto v = reference::eulerIterate(v0, v0, 0.15, 200);
  auto e1 = reference::gvfError(v, v0, 0.15);
  CHECK(e1 < 0.2 * e0);
  // Beyond the bound the highest-frequency mode grows: a checkerboard explodes.
  reference::Field checker = v0;
  for (int y = 0; y < checker.height; ++y)
    for (int x = 0; x < checker.width; ++x)
      checker.values[2 * (y * checker.width + x)] += ((x + y) % 2 ? 1e-3 : -1e-3);
  auto bad = reference::eulerIterate(checker, v0, 0.3, 200);
  CHECK(test::maxAbs(bad.values) > 1e3);
}
