// The snake's host-side maths (circulant inverse, resampling, contour move) and the double
// references: the inverse against dense elimination, a circle's analytic shrinking under
// elasticity, pressure along the outward normal, and the capture-range walk.
#include <doctest/doctest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>
#include <random>

#include "gvflab/error.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/snake_reference.hpp"

using namespace gvflab;

namespace {

std::vector<glm::dvec2> toD(const std::vector<glm::vec2>& p) { return {p.begin(), p.end()}; }

reference::Field zeroField(int w, int h) {
  return {w, h, std::vector<double>(2 * static_cast<std::size_t>(w) * h, 0.0)};
}

double radiusOf(const std::vector<glm::dvec2>& p, glm::dvec2 c) {
  double r = 0;
  for (const auto& q : p) r += std::hypot(q.x - c.x, q.y - c.y);
  return r / p.size();
}

}  // namespace

TEST_CASE("the circulant row inverts gamma I + A exactly, also when N < 5 folds the stencil") {
  const double params[][3] = {{0.1, 0.05, 1.0}, {0.0, 0.0, 2.0}, {1.5, 0.7, 0.3}, {0.05, 0, 1}};
  for (int n : {3, 4, 5, 7, 64, 131}) {
    for (const auto& p : params) {
      CAPTURE(n);
      CAPTURE(p[0]);
      const auto m = reference::snakeMatrix(n, p[0], p[1], p[2]);
      const auto c = circulantInverseRow(n, p[0], p[1], p[2]);
      // (M C)_{ij} with C_{ij} = c[(j - i) mod n].
      double worst = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          double s = 0;
          for (int k = 0; k < n; ++k) s += m[i * n + k] * c[((j - k) % n + n) % n];
          worst = std::max(worst, std::abs(s - (i == j ? 1.0 : 0.0)));
        }
      CHECK(worst < 1e-10);
      double rowSum = 0;
      for (int j = 0; j < n; ++j) rowSum += m[j];
      CHECK(rowSum == doctest::Approx(p[2]));  // A annihilates translations
    }
  }
}

TEST_CASE("the circulant row of a long snake equals the direct Fourier sum") {
  // Snakes of 8 nodes and more take the banded path (open band + wrap-around correction); the
  // direct sum c_j = (1/N) Σ_k cos(2π k j / N) / λ_k is checked at a few j, N odd and even, at
  // the parameter table's extremes and where λ's two roots in 1 − cos θ coincide (α² = 4βγ).
  const double params[][3] = {{0.1, 0.05, 1.0}, {10, 10, 0.05}, {0.2, 0.01, 1.0}, {10, 0, 100}};
  for (int n : {8, 9, 3001, 4096})
    for (const auto& [alpha, beta, gamma] : params) {
      const auto c = circulantInverseRow(n, alpha, beta, gamma);
      REQUIRE(c.size() == static_cast<std::size_t>(n));
      for (int j : {0, 1, 2, 7, n / 2, n - 2, n - 1}) {
        long double s = 0;
        for (int k = 0; k < n; ++k) {
          const long double t = 2 * std::numbers::pi_v<long double> * k / n;
          const long double d = 1 - std::cos(t);
          s += std::cos(t * j) / (gamma + 2 * alpha * d + 4 * beta * d * d);
        }
        CAPTURE(n);
        CAPTURE(j);
        CHECK(c[j] == doctest::Approx(static_cast<double>(s / n)).epsilon(1e-9));
      }
    }
}

TEST_CASE("reference step: elasticity shrinks a circle by its Fourier mode's factor") {
  const int n = 40;
  const double alpha = 0.3, beta = 0.1, gamma = 1.0, r = 20;
  auto circle = toD(circleContour(50, 50, r, 2 * std::numbers::pi * r / n));
  REQUIRE(circle.size() == static_cast<std::size_t>(n));
  reference::SnakeStepParams p;
  p.alpha = alpha;
  p.beta = beta;
  p.gamma = gamma;
  auto next = reference::snakeStep(circle, zeroField(100, 100), p);
  const double c = 1 - std::cos(2 * std::numbers::pi / n);
  const double factor = gamma / (gamma + 2 * alpha * c + 4 * beta * c * c);
  // The float nodes are a circle to ~1e-6 relative.
  CHECK(radiusOf(next, {50, 50}) == doctest::Approx(r * factor).epsilon(1e-6));
  for (const auto& q : next) CHECK(std::hypot(q.x - 50, q.y - 50) == doctest::Approx(r * factor));
}

TEST_CASE("reference step: pressure pushes along the outward normal, force and clamping") {
  auto circle = toD(circleContour(30, 30, 10, 1.5));
  reference::SnakeStepParams p;
  p.pressure = 0.5;
  p.gamma = 2.0;
  auto grown = reference::snakeStep(circle, zeroField(60, 60), p);
  CHECK(radiusOf(grown, {30, 30}) == doctest::Approx(10 + 0.25).epsilon(1e-3));
  p.pressure = -0.5;
  CHECK(radiusOf(reference::snakeStep(circle, zeroField(60, 60), p), {30, 30}) < 10);
  // A uniform field (3, 4) normalised to (0.6, 0.8) moves every node by kappa/gamma times it.
  auto field = zeroField(60, 60);
  for (std::size_t i = 0; i < field.values.size(); i += 2) {
    field.values[i] = 3;
    field.values[i + 1] = 4;
  }
  reference::SnakeStepParams q;
  q.kappa = 1.0;
  auto moved = reference::snakeStep(circle, field, q);
  for (std::size_t i = 0; i < circle.size(); ++i) {
    CHECK(moved[i].x - circle[i].x == doctest::Approx(0.6).epsilon(1e-6));
    CHECK(moved[i].y - circle[i].y == doctest::Approx(0.8).epsilon(1e-6));
  }
  q.normalize = false;
  q.kappa = 0.1;
  moved = reference::snakeStep(circle, field, q);
  CHECK(moved[0].x - circle[0].x == doctest::Approx(0.3));
  // Points are kept inside the image [0, w] x [0, h].
  q.kappa = 100;
  for (const auto& m : reference::snakeStep(circle, field, q)) {
    CHECK(m.x <= 60.0);
    CHECK(m.y <= 60.0);
  }
}

TEST_CASE("bilinear sampling uses pixel centres at (i + 0.5, j + 0.5)") {
  reference::Grid g{3, 2, {0, 1, 2, 10, 11, 12}};
  CHECK(reference::sampleScalar(g, {0.5, 0.5}) == doctest::Approx(0));
  CHECK(reference::sampleScalar(g, {1.0, 0.5}) == doctest::Approx(0.5));
  CHECK(reference::sampleScalar(g, {1.5, 1.0}) == doctest::Approx(6));
  CHECK(reference::sampleScalar(g, {0.0, 0.0}) == doctest::Approx(0));   // clamped
  CHECK(reference::sampleScalar(g, {3.0, 2.0}) == doctest::Approx(12));  // clamped
}

TEST_CASE("resampling keeps every gap within [dmin, dmax] on irregular contours") {
  std::uint32_t s = 12345;
  auto rnd = [&] {
    s = s * 1664525u + 1013904223u;
    return static_cast<double>(s >> 8) / 16777216.0;
  };
  for (int trial = 0; trial < 200; ++trial) {
    // A star-shaped polygon with random radii and random (often tiny or huge) angle steps.
    std::vector<glm::vec2> pts;
    double a = 0;
    while (a < 2 * std::numbers::pi) {
      const double r = 20 + 15 * rnd();
      pts.push_back(
          {static_cast<float>(50 + r * std::cos(a)), static_cast<float>(50 + r * std::sin(a))});
      a += rnd() < 0.3 ? 0.001 : 0.4 * rnd();
    }
    const double dmin = 0.5 + 2 * rnd(), dmax = 2 * dmin + 3 * rnd();
    CAPTURE(trial);
    auto out = resampleContour(pts, dmin, dmax);
    REQUIRE(out.size() >= 3);
    for (std::size_t i = 0; i < out.size(); ++i) {
      const double d = glm::length(glm::dvec2(out[(i + 1) % out.size()]) - glm::dvec2(out[i]));
      CHECK(d >= dmin * (1 - 1e-6));
      CHECK(d <= dmax * (1 + 1e-6));
    }
  }
  // Already within bounds: unchanged. Long edges only: nodes are inserted on the edges.
  auto circle = circleContour(40, 40, 15, 1.5);
  CHECK(resampleContour(circle, 1.0, 2.5) == circle);
  std::vector<glm::vec2> square = {{10, 10}, {30, 10}, {30, 30}, {10, 30}};
  auto sq = resampleContour(square, 1.0, 2.5);
  CHECK(sq.size() == 32);  // 20 / 2.5 = 8 pieces per side
  CHECK(progressMove(sq, {square}) < 1e-5);
}

TEST_CASE("progress move: distance to the old contour, blind to sliding along it") {
  auto circle = circleContour(40, 40, 15, 1.5);
  auto shifted = circle;
  for (auto& p : shifted) p += glm::vec2(0.75f, 0.0f);
  CHECK(progressMove(shifted, {circle}) == doctest::Approx(0.75).epsilon(0.05));
  std::vector<glm::vec2> square = {{10, 10}, {30, 10}, {30, 30}, {10, 30}};
  std::vector<glm::vec2> slid = {{15, 10}, {30, 17}, {22, 30}, {10, 12}};  // same square
  CHECK(progressMove(slid, {square}) < 1e-6);
  CHECK(progressMove({}, {square}) == INFINITY);
}

TEST_CASE("distances to a contour: the grid search equals the brute force") {
  // Long contours (the grid path) and short ones, points near the contour, far inside and
  // outside its bounding box, on nodes and between them; a contour with one long edge.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> jitter(-3.0f, 3.0f), anywhere(-50.0f, 350.0f);
  auto wavy = [](int n, float cx, float cy, float r) {
    std::vector<glm::vec2> p(n);
    for (int i = 0; i < n; ++i) {
      const double a = 2 * std::numbers::pi * i / n;
      const double rr = r * (1 + 0.3 * std::sin(7 * a));
      p[i] = {static_cast<float>(cx + rr * std::cos(a)), static_cast<float>(cy + rr * std::sin(a))};
    }
    return p;
  };
  std::vector<glm::vec2> oneLongEdge = wavy(400, 150, 150, 60);
  oneLongEdge.insert(oneLongEdge.begin() + 200, glm::vec2(400, 20));
  for (const auto& ring : {wavy(3000, 150, 150, 100), wavy(17, 30, 30, 10), oneLongEdge,
                           std::vector<glm::vec2>{{5, 5}}}) {
    std::vector<glm::vec2> pts;
    for (std::size_t i = 0; i < ring.size(); i += 3)
      pts.push_back(ring[i] + glm::vec2(jitter(rng), jitter(rng)));
    for (int i = 0; i < 300; ++i) pts.push_back({anywhere(rng), anywhere(rng)});
    pts.push_back(ring[0]);
    const auto d = distancesToContour(pts, ring);
    REQUIRE(d.size() == pts.size());
    double worst = 0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      double best = INFINITY;
      for (std::size_t j = 0; j < ring.size(); ++j) {
        const glm::dvec2 a = ring[j], b = ring[(j + 1) % ring.size()], p = pts[i];
        const glm::dvec2 ab = b - a;
        const double len2 = glm::dot(ab, ab);
        const double t = len2 > 0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
        best = std::min(best, glm::length(p - (a + t * ab)));
      }
      worst = std::max(worst, std::abs(d[i] - best));
    }
    CAPTURE(ring.size());
    CHECK(worst < 1e-9);
    CHECK(d.back() < 1e-9);  // a node of the contour is on it
  }
  CHECK(distancesToContour({{1, 1}}, {}).front() == INFINITY);
}

TEST_CASE("distances bounded by the tolerance: exact within it, above it beyond") {
  // The stop rule's window test: nodes up to 6 px off a 2000-node contour, many outside its box.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> off(-6, 6);
  const auto ring = circleContour(300, 300, 500, 1.5);
  std::vector<glm::vec2> pts;
  for (std::size_t i = 0; i < ring.size(); i += 2) pts.push_back(ring[i] * 1.005f + off(rng));
  const auto exact = distancesToContour(pts, ring);
  for (double within : {0.0, 0.5, 2.0}) {
    const auto d = distancesToContour(pts, ring, true, within);
    for (std::size_t i = 0; i < pts.size(); ++i)
      CHECK((exact[i] <= within ? d[i] == exact[i] : d[i] > within));
    const double move = progressMove(pts, {ring, ring}, true, within);
    CHECK((move <= within) == (progressMove(pts, {ring}) <= within));
  }
}

TEST_CASE("circles are stored with a positive shoelace area; parameters are checked") {
  CHECK(signedArea2(circleContour(10, 10, 5, 1)) > 0);
  CHECK(circleContour(10, 10, 0.5, 1).size() == 8);
  CHECK_THROWS_AS(circleContour(10, 10, -1, 1), ParameterError);
  CHECK_THROWS_AS(circleContour(NAN, 10, 3, 1), ParameterError);
  auto p = SnakeParams::defaults();
  CHECK_NOTHROW(p.validate());
  p.dmax = 1.5 * p.dmin;
  CHECK_THROWS_WITH_AS(p.validate(), doctest::Contains("twice dmin"), ParameterError);
  p = SnakeParams::defaults();
  p.gamma = 0;
  CHECK_THROWS_AS(p.validate(), ParameterError);
  for (const auto& s : snakeParamSpecs()) {
    CHECK(s.minValue <= s.defaultValue);
    CHECK(s.defaultValue <= s.maxValue);
    CHECK(!s.help.empty());
  }
  CHECK(parseForce("gvf") == SnakeForce::Gvf);
  CHECK(parseForce("traditional") == SnakeForce::Traditional);
  for (SnakeForce f : kSnakeForces) CHECK(parseForce(forceName(f)) == f);
  CHECK(parseForce("ggvf") == SnakeForce::Ggvf);
  CHECK(parseForce("distance") == SnakeForce::Distance);
  CHECK_THROWS_AS(parseForce("balloon"), ParameterError);
}

TEST_CASE("reference capture walk: steps to an edge column along a uniform field") {
  const int w = 16, h = 3;
  reference::Field field = zeroField(w, h);
  for (std::size_t i = 0; i < field.values.size(); i += 2) field.values[i] = 1;  // +x
  reference::Grid edge{w, h, std::vector<double>(w * h, 0.0)};
  for (int y = 0; y < h; ++y) edge.values[y * w + 10] = 1;
  auto steps = reference::captureSteps(field, edge, 0.5, 100);
  for (int x = 0; x < w; ++x) CHECK(steps[w + x] == (x <= 10 ? 10 - x : -1));
  steps = reference::captureSteps(field, edge, 0.5, 4);  // too few steps
  CHECK(steps[w + 5] == -1);
  CHECK(steps[w + 6] == 4);
  auto none = reference::captureSteps(zeroField(w, h), edge, 0.5, 100);  // stuck
  CHECK(none[w + 3] == -1);
  CHECK(none[w + 10] == 0);
}

TEST_CASE("resampling leaves a collapsed contour with its nodes") {
  std::vector<glm::vec2> tiny = {{10, 10}, {10.1f, 10}, {10.05f, 10.1f}, {10, 10.05f}};
  CHECK(resampleContour(tiny, 1.0, 2.5) == tiny);
  std::vector<glm::vec2> thin = {{10, 10}, {10.2f, 10}, {14, 10.1f}, {10.1f, 10.2f}};
  auto out = resampleContour(thin, 1.0, 2.5);
  CHECK(out.size() >= 3);
}
