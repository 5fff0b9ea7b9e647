// Open snakes (SnakeBoundary free, fixed, free-fixed, fixed-free) on the device against the
// double reference (dense matrix built from the energy term by term, independent of the
// product's banded LU), on a random image and a phantom; fixed ends that never move; a free
// snake that settles on a straight edge; the geometry an open snake needs (resampling that
// keeps its ends, open-polyline distances and hold gaps, collapse by length).
#include <doctest/doctest.h>

#include <cmath>
#include <glm/geometric.hpp>

#include "cl/cl_fixture.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/snake_reference.hpp"
#include "test_support.hpp"

using namespace gvflab;

namespace {

constexpr SnakeBoundary kOpen[] = {SnakeBoundary::Free, SnakeBoundary::Fixed,
                                   SnakeBoundary::FreeFixed, SnakeBoundary::FixedFree};

// A wavy open polyline of n nodes about 1.6 px apart (inside [dmin, dmax]: not resampled).
std::vector<glm::vec2> wavyLine(double x0, double y0, int n, double phase) {
  std::vector<glm::vec2> p(n);
  for (int i = 0; i < n; ++i)
    p[i] = {static_cast<float>(x0 + 1.5 * i),
            static_cast<float>(y0 + 2.0 * std::sin(0.3 * i + phase))};
  return p;
}

double maxDiff(const std::vector<glm::vec2>& a, const std::vector<glm::dvec2>& b) {
  if (a.size() != b.size()) return INFINITY;
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, glm::length(glm::dvec2(a[i]) - b[i]));
  return m;
}

}  // namespace

TEST_CASE("open snakes of every boundary condition match the double reference") {
  auto ctx = test::sharedContext();
  for (const bool phantom : {false, true}) {
    CAPTURE(phantom);
    const Image2D img = phantom ? makePhantom("u", 128) : test::randomImage(128, 128, 77);
    GvfInput input = buildGvfInput(*ctx, img, 1.0);
    EulerSolver solver(ctx, input, 0.15);
    solver.step(30);
    const reference::Field gvf = test::toRef(solver.readField());
    const reference::Field trad = test::toRef(readV0(*ctx, input));
    SnakeParams sp = SnakeParams::defaults();
    sp.alpha = 0.2, sp.beta = 0.1, sp.kappa = 0.8, sp.pressure = 0.3;
    ParametricSnake snakes(ctx, 128, 128, sp);
    snakes.setFields(solver.field(), input.v0);
    // One batch: a closed snake among the open ones (the two solves side by side), node
    // counts that are not multiples of the work-group size, both forces.
    std::vector<std::vector<glm::dvec2>> ref;
    std::vector<SnakeBoundary> bounds;
    std::vector<SnakeForce> forces;
    const int counts[] = {7, 40, 65, 23};
    for (int k = 0; k < 4; ++k) {
      const auto pts = wavyLine(10 + 3 * k, 15 + 27 * k, counts[k], k);
      bounds.push_back(kOpen[k]);
      forces.push_back(k % 2 ? SnakeForce::Traditional : SnakeForce::Gvf);
      snakes.add(pts, forces.back(), std::nullopt, bounds.back());
      ref.emplace_back(pts.begin(), pts.end());
    }
    snakes.add(circleContour(100, 100, 12, 1.6));
    const auto before = snakes.contours();
    for (int k = 0; k < 4; ++k) {
      REQUIRE(before[k].points.size() == ref[k].size());
      CHECK(before[k].boundary == bounds[k]);
      CHECK_FALSE(before[k].closed());
    }
    for (int step = 1; step <= 5; ++step) {
      CAPTURE(step);
      snakes.step(1);
      const auto got = snakes.contours();
      for (int k = 0; k < 4; ++k) {
        CAPTURE(boundaryName(bounds[k]));
        const reference::SnakeStepParams rp{.alpha = sp.alpha,
                                            .beta = sp.beta,
                                            .gamma = sp.gamma,
                                            .kappa = sp.kappa,
                                            .pressure = sp.pressure,
                                            .normalize = sp.normalize,
                                            .boundary = bounds[k]};
        ref[k] = reference::snakeStep(ref[k], forces[k] == SnakeForce::Gvf ? gvf : trad, rp);
        CHECK(maxDiff(got[k].points, ref[k]) < (step == 1 ? 2e-3 : 1e-2));
      }
    }
  }
}

TEST_CASE("the banded LU of an open snake solves its dense matrix") {
  const int n = 9;
  for (SnakeBoundary b : kOpen) {
    CAPTURE(boundaryName(b));
    const auto lu = openSnakeFactors(n, 0.3, 0.2, 0.7, b);
    const auto m = reference::snakeMatrix(n, 0.3, 0.2, 0.7, b);
    std::vector<glm::dvec2> rhs(n);
    for (int i = 0; i < n; ++i) rhs[i] = {std::sin(i + 1.0), std::cos(2.0 * i)};
    const auto want = reference::solveDense(m, rhs);
    std::vector<glm::dvec2> x(n);
    for (int r = 0; r < n; ++r) {
      x[r] = rhs[r];
      if (r >= 1) x[r] -= lu[5 * r + 1] * x[r - 1];
      if (r >= 2) x[r] -= lu[5 * r] * x[r - 2];
    }
    for (int r = n - 1; r >= 0; --r) {
      if (r + 1 < n) x[r] -= lu[5 * r + 3] * x[r + 1];
      if (r + 2 < n) x[r] -= lu[5 * r + 4] * x[r + 2];
      x[r] *= lu[5 * r + 2];
    }
    for (int i = 0; i < n; ++i) CHECK(glm::length(x[i] - want[i]) < 1e-12);
  }
  // In the interior, the open matrix is the closed one's stencil.
  const auto open = reference::snakeMatrix(12, 0.3, 0.2, 0.7, SnakeBoundary::Free);
  const auto closed = reference::snakeMatrix(12, 0.3, 0.2, 0.7);
  for (int c = 0; c < 12; ++c) CHECK(open[6 * 12 + c] == doctest::Approx(closed[6 * 12 + c]));
}

TEST_CASE("fixed ends never move, through many iterations and resamplings") {
  auto ctx = test::sharedContext();
  const Image2D img = makePhantom("u", 96);
  GvfInput input = buildGvfInput(*ctx, img, 1.0);
  EulerSolver solver(ctx, input, 0.15);
  solver.step(100);
  ParametricSnake snakes(ctx, 96, 96);
  snakes.setFields(solver.field(), input);
  const std::vector<glm::vec2> line = {{10.25f, 20.5f}, {50.0f, 60.0f}, {85.75f, 30.125f}};
  snakes.add(line, SnakeForce::Gvf, 0.2, SnakeBoundary::Fixed);
  snakes.add(line, SnakeForce::Gvf, 0.2, SnakeBoundary::FixedFree);
  snakes.add(line, SnakeForce::Gvf, 0.2, SnakeBoundary::FreeFixed);
  snakes.add(line, SnakeForce::Gvf, 0.2, SnakeBoundary::Free);
  snakes.step(300);
  const auto c = snakes.contours();
  CHECK(c[0].points.front() == line.front());
  CHECK(c[0].points.back() == line.back());
  CHECK(c[1].points.front() == line.front());
  CHECK(c[1].points.back() != line.back());
  CHECK(c[2].points.front() != line.front());
  CHECK(c[2].points.back() == line.back());
  CHECK(c[3].points.front() != line.front());
  CHECK(c[0].points.size() > 20);  // it moved and was resampled in between
  CHECK(c[0].initial.front() == line.front());
}

TEST_CASE("a free snake settles on a straight edge and converges there") {
  auto ctx = test::sharedContext();
  Image2D img(64, 64);  // dark above y = 32, bright below: one horizontal edge
  for (int y = 32; y < 64; ++y)
    for (int x = 0; x < 64; ++x) img.at(x, y) = 1.0f;
  GvfInput input = buildGvfInput(*ctx, img, 1.0);
  EulerSolver solver(ctx, input, 0.15);
  solver.step(300);
  SnakeParams sp = SnakeParams::defaults();
  sp.alpha = 0.01;  // elasticity shortens a free snake from its ends
  ParametricSnake snakes(ctx, 64, 64, sp);
  snakes.setFields(solver.field(), input);
  snakes.add({{12, 22}, {52, 24}}, SnakeForce::Gvf, std::nullopt, SnakeBoundary::Free);
  snakes.step(2000);
  const auto c = snakes.contours();
  REQUIRE(c.size() == 1);
  CHECK(c[0].state == SnakeState::Converged);
  for (const auto& p : c[0].points) CHECK(std::abs(p.y - 32.0f) < 1.0f);
  const double length = glm::length(c[0].points.back() - c[0].points.front());
  CHECK(length > 25);  // still a line along the edge, not a dot
}

TEST_CASE("open snake geometry: resampling keeps the ends, distances and gaps stay open") {
  const std::vector<glm::vec2> line = {{0.3f, 0.7f}, {0.9f, 0.7f}, {10.0f, 0.7f}, {10.5f, 0.7f}};
  const auto r = resampleContour(line, 1.0, 2.5, false);
  REQUIRE(r.size() >= 5);
  CHECK(r.front() == line.front());
  CHECK(r.back() == line.back());
  for (std::size_t i = 0; i + 1 < r.size(); ++i) {
    CHECK(glm::length(r[i + 1] - r[i]) <= 2.5f + 1e-4f);
    CHECK(glm::length(r[i + 1] - r[i]) >= 1.0f - 1e-4f);
  }
  CHECK(resampledNodeCount(line, 1.0, 2.5, false) == r.size());
  // A point across the ends' gap is far from the open polyline, near the closed one.
  const std::vector<glm::vec2> vee = {{0, 0}, {10, 10}, {20, 0}};
  CHECK(distancesToContour({{10, 0}}, vee, true)[0] < 1e-9);
  CHECK(distancesToContour({{10, 0}}, vee, false)[0] > 7);
  // Unheld ends count as stretches; the closing segment does not exist.
  const std::vector<glm::vec2> straight = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}};
  CHECK(longestUnheldStretch(straight, {false, true, true, true, false}, false) ==
        doctest::Approx(1));
  CHECK(longestUnheldStretch(straight, {true, false, false, true, true}, false) ==
        doctest::Approx(3));
  // Collapse by length for an open snake (no area to measure).
  CHECK(collapsedContour({{5, 5}, {5.1f, 5}}, straight, 1.0, false));
  CHECK_FALSE(collapsedContour({{5, 5}, {7.5f, 5}}, straight, 1.0, false));
}

TEST_CASE("open snakes are refused with a sentence when they span no length") {
  auto ctx = test::sharedContext();
  ParametricSnake snakes(ctx, 32, 32);
  CHECK_THROWS_AS(snakes.add({{5, 5}}, SnakeForce::Gvf, std::nullopt, SnakeBoundary::Free),
                  ParameterError);
  CHECK_THROWS_AS(snakes.add({{5, 5}, {5, 5}}, SnakeForce::Gvf, std::nullopt, SnakeBoundary::Fixed),
                  ParameterError);
  CHECK_NOTHROW(snakes.add({{5, 5}, {25, 5}}, SnakeForce::Gvf, std::nullopt, SnakeBoundary::Free));
  CHECK(parseBoundary("fixed-free") == SnakeBoundary::FixedFree);
  CHECK_THROWS_AS(parseBoundary("open"), ParameterError);
}
