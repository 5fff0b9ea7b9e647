// ParametricSnake on the device against the double reference (one step and a few steps, many
// snakes in one batch, node counts that are not multiples of the work-group size), resampling,
// the convergence flag, and clear errors. Tolerance: 2e-3 px after one step, 1e-2 px after
// five (coordinates ~100 in float32; the circulant sum adds ~N rounding errors).
#include <doctest/doctest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>
#include <optional>
#include <string>

#include "cl/cl_fixture.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/snake_reference.hpp"
#include "test_support.hpp"

using namespace gvflab;

namespace {

struct Fields {
  GvfInput input;
  std::unique_ptr<EulerSolver> solver;
  Field2D gvf, traditional;
};

Fields makeFields(const Image2D& img, int iterations) {
  auto ctx = test::sharedContext();
  Fields f{buildGvfInput(*ctx, img, 1.0), nullptr, {}, {}};
  f.solver = std::make_unique<EulerSolver>(ctx, f.input, 0.15);
  f.solver->step(iterations);
  f.gvf = f.solver->readField();
  f.traditional = readV0(*ctx, f.input);
  return f;
}

// A wobbly closed curve with n nodes spaced about 1.6 px (inside [1, 2.5], so adding it to
// the engine does not resample it).
std::vector<glm::vec2> wobble(double cx, double cy, int n, double phase) {
  const double r = 1.6 * n / (2 * std::numbers::pi);
  std::vector<glm::vec2> p(n);
  for (int i = 0; i < n; ++i) {
    double a = 2 * std::numbers::pi * i / n;
    double rr = r * (1 + 0.04 * std::sin(3 * a + phase));
    p[i] = {static_cast<float>(cx + rr * std::cos(a)), static_cast<float>(cy + rr * std::sin(a))};
  }
  return p;
}

// A float2 field of zeros: no external force anywhere.
cl::Buffer zeroField(ComputeContext& ctx, int width, int height) {
  Field2D zero(width, height);
  return cl::Buffer(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                    zero.data.size() * sizeof(float), zero.data.data());
}

double maxDiff(const std::vector<glm::vec2>& a, const std::vector<glm::dvec2>& b) {
  if (a.size() != b.size()) return INFINITY;
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, glm::length(glm::dvec2(a[i]) - b[i]));
  return m;
}

}  // namespace

TEST_CASE("one batch of snakes matches the double reference step by step") {
  auto ctx = test::sharedContext();
  Fields f = makeFields(test::randomImage(131, 117, 4242), 40);
  const reference::Field gvf = test::toRef(f.gvf), trad = test::toRef(f.traditional);
  struct Case {
    double alpha, beta, gamma, kappa, pressure;
    bool normalize;
  };
  const Case cases[] = {{0.1, 0.05, 1.0, 0.6, 0.0, true},
                        {0.4, 0.3, 0.7, 1.2, 0.3, true},
                        {0.0, 0.0, 2.0, 3.0, -0.2, false}};
  for (const Case& c : cases) {
    CAPTURE(c.alpha);
    SnakeParams sp = SnakeParams::defaults();
    sp.alpha = c.alpha;
    sp.beta = c.beta;
    sp.gamma = c.gamma;
    sp.kappa = c.kappa;
    sp.pressure = c.pressure;
    sp.normalize = c.normalize;
    ParametricSnake snakes(ctx, 131, 117, sp);
    snakes.setFields(f.solver->field(), f.input.v0);
    // Node counts 7..130: not multiples of the 64-wide work-groups; both forces in one batch.
    const int counts[] = {7, 37, 65, 130};
    std::vector<std::vector<glm::dvec2>> ref;
    std::vector<SnakeForce> forces;
    for (int k = 0; k < 4; ++k) {
      const float centres[4][2] = {{20, 20}, {40, 85}, {65, 40}, {90, 75}};
      auto pts = wobble(centres[k][0], centres[k][1], counts[k], k);
      forces.push_back(k % 2 ? SnakeForce::Traditional : SnakeForce::Gvf);
      snakes.add(pts, forces.back());
      ref.emplace_back(pts.begin(), pts.end());
    }
    auto before = snakes.contours();
    for (int k = 0; k < 4; ++k) REQUIRE(before[k].points.size() == ref[k].size());
    const reference::SnakeStepParams rp{.alpha = c.alpha,
                                        .beta = c.beta,
                                        .gamma = c.gamma,
                                        .kappa = c.kappa,
                                        .pressure = c.pressure,
                                        .normalize = c.normalize};
    for (int step = 1; step <= 5; ++step) {
      CAPTURE(step);
      snakes.step(1);
      auto got = snakes.contours();
      for (int k = 0; k < 4; ++k) {
        ref[k] = reference::snakeStep(ref[k], forces[k] == SnakeForce::Gvf ? gvf : trad, rp);
        CHECK(got[k].iterations == step);
        CHECK(maxDiff(got[k].points, ref[k]) < (step == 1 ? 2e-3 : 1e-2));
      }
    }
  }
}

TEST_CASE("per-snake force and pressure in one batch match the double reference") {
  auto ctx = test::sharedContext();
  Fields f = makeFields(test::randomImage(97, 89, 777), 30);
  const reference::Field gvf = test::toRef(f.gvf), trad = test::toRef(f.traditional);
  SnakeParams sp = SnakeParams::defaults();
  sp.pressure = 0.15;  // the snakes without their own pressure feel this one
  ParametricSnake snakes(ctx, 97, 89, sp);
  snakes.setFields(f.solver->field(), f.input.v0);
  struct Case {
    int nodes;
    SnakeForce force;
    std::optional<double> pressure;
    float cx, cy;
  };
  // Node counts around the 64-wide work-groups; every force with and without own pressure.
  const Case cases[] = {{11, SnakeForce::Gvf, -0.4, 25, 25},
                        {63, SnakeForce::Traditional, std::nullopt, 60, 30},
                        {66, SnakeForce::Gvf, std::nullopt, 30, 62},
                        {29, SnakeForce::Traditional, 0.7, 70, 65}};
  std::vector<std::vector<glm::dvec2>> ref;
  for (const Case& c : cases) {
    auto pts = wobble(c.cx, c.cy, c.nodes, c.nodes);
    snakes.add(pts, c.force, c.pressure);
    ref.emplace_back(pts.begin(), pts.end());
  }
  auto start = snakes.contours();
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(start[k].pressure == doctest::Approx(cases[k].pressure.value_or(sp.pressure)));
    CHECK(start[k].force == cases[k].force);
  }
  for (int step = 1; step <= 4; ++step) {
    snakes.step(1);
    auto got = snakes.contours();
    for (std::size_t k = 0; k < 4; ++k) {
      CAPTURE(k);
      const reference::SnakeStepParams rp{.alpha = sp.alpha,
                                          .beta = sp.beta,
                                          .gamma = sp.gamma,
                                          .kappa = sp.kappa,
                                          .pressure = cases[k].pressure.value_or(sp.pressure),
                                          .normalize = sp.normalize};
      ref[k] = reference::snakeStep(ref[k], cases[k].force == SnakeForce::Gvf ? gvf : trad, rp);
      CHECK(maxDiff(got[k].points, ref[k]) < (step == 1 ? 2e-3 : 1e-2));
    }
  }
  // The hold test on the device against its double reference (tolerance 1e-4: unit forces
  // in float32, bilinear weights ~1e-6 apart).
  const auto hold = snakes.holdStrengths();
  const auto now = snakes.contours();
  REQUIRE(hold.size() == 4);
  double worst = 0;
  int held = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    std::vector<glm::dvec2> x(now[k].points.begin(), now[k].points.end());
    const auto want =
        reference::holdStrengths(x, cases[k].force == SnakeForce::Gvf ? gvf : trad, kHoldDistance);
    REQUIRE(hold[k].size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      worst = std::max(worst, std::abs(hold[k][i] - want[i]));
      held += want[i] >= kHoldLevel;
    }
  }
  MESSAGE("hold strength: worst difference " << worst << ", " << held << " nodes held");
  CHECK(worst < 1e-4);
  // An own pressure outside the pressure's range is refused.
  CHECK_THROWS_AS(snakes.add(wobble(50, 50, 20, 0), SnakeForce::Gvf, 9.0), ParameterError);
  CHECK_THROWS_AS(snakes.setPressure(now[0].id, -9.0), ParameterError);
}

TEST_CASE("restart returns every snake to its starting contour") {
  auto ctx = test::sharedContext();
  cl::Buffer flat = zeroField(*ctx, 80, 80);
  SnakeParams sp = SnakeParams::defaults();
  sp.pressure = 0.5;
  ParametricSnake snakes(ctx, 80, 80, sp);
  snakes.setFields(flat, flat);
  const int a = snakes.add(circleContour(40, 40, 6, 1.5));
  snakes.add(circleContour(20, 20, 5, 1.5), SnakeForce::Traditional, -0.2);
  const auto start = snakes.contours();
  CHECK(start[0].initial == start[0].points);
  snakes.step(40);
  auto moved = snakes.contours();
  CHECK(signedArea2(moved[0].points) > 1.5 * signedArea2(start[0].points));
  CHECK(moved[0].initial == start[0].points);  // the start is kept while it moves
  snakes.restart();
  auto again = snakes.contours();
  for (std::size_t k = 0; k < 2; ++k) {
    CHECK(again[k].points == start[k].points);
    CHECK(again[k].iterations == 0);
    CHECK(again[k].state == SnakeState::Moving);
    CHECK(again[k].force == start[k].force);
  }
  // setInitial changes only the start; a hand edit makes the edit the start.
  snakes.setInitial(a, circleContour(50, 50, 8, 1.5));
  CHECK(snakes.contours()[0].points == start[0].points);
  CHECK(snakes.contours()[0].initial != start[0].points);
  snakes.setPoints(a, circleContour(30, 30, 7, 1.5));
  CHECK(snakes.contours()[0].initial == snakes.contours()[0].points);
}

TEST_CASE("state names") {
  CHECK(std::string(snakeStateName(SnakeState::Moving)) == "moving");
  CHECK(std::string(snakeStateName(SnakeState::Converged)) == "converged");
  CHECK(std::string(snakeStateName(SnakeState::Stalled)) == "stalled");
}

TEST_CASE("the longest stretch without hold runs from held node to held node") {
  const std::vector<glm::vec2> square = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  CHECK(longestUnheldStretch(square, {true, true, true, true}) == 0);
  CHECK(longestUnheldStretch(square, {false, false, false, false}) == 40);
  CHECK(longestUnheldStretch(square, {true, false, true, true}) == 20);
  CHECK(longestUnheldStretch(square, {false, false, true, true}) == 30);  // wraps around
  CHECK(longestUnheldStretch(square, {true, false, true, false}) == 20);
}

TEST_CASE("resampling keeps the node spacing in [dmin, dmax] while a balloon inflates") {
  auto ctx = test::sharedContext();
  cl::Buffer flat = zeroField(*ctx, 90, 70);
  for (auto [dmin, dmax] : {std::pair{1.0, 2.5}, std::pair{0.5, 1.0}, std::pair{2.0, 6.0}}) {
    CAPTURE(dmin);
    SnakeParams sp = SnakeParams::defaults();
    sp.pressure = 0.5;
    sp.alpha = sp.beta = 0;  // elasticity grows with the spacing; keep the test about spacing
    sp.dmin = dmin;
    sp.dmax = dmax;
    ParametricSnake snakes(ctx, 90, 70, sp);
    snakes.setFields(flat, flat);
    // Clockwise on screen: the engine reverses it so that pressure still inflates.
    std::vector<glm::vec2> poly = {{40, 30}, {40, 40}, {50, 40}, {52, 35}, {50, 30}};
    snakes.add(poly);
    const std::size_t startNodes = snakes.nodeCount();
    snakes.step(60);  // a multiple of the resampling interval: contours() sees resampled nodes
    auto c = snakes.contours()[0];
    CHECK(signedArea2(c.points) > 2 * 2 * 100);  // inflated well beyond its 10x10 start
    CHECK(c.points.size() > startNodes);
    for (std::size_t i = 0; i < c.points.size(); ++i) {
      double d = glm::length(c.points[(i + 1) % c.points.size()] - c.points[i]);
      CHECK(d >= dmin * 0.999);
      CHECK(d <= dmax * 1.001);
    }
    for (const auto& p : c.points) {  // kept inside the image
      CHECK(p.x >= 0);
      CHECK(p.y >= 0);
      CHECK(p.x <= 90);
      CHECK(p.y <= 70);
    }
  }
}

TEST_CASE("states: a snake that never moves in a zero field stalls; moving ones stay moving") {
  auto ctx = test::sharedContext();
  cl::Buffer flat = zeroField(*ctx, 64, 64);
  SnakeParams sp = SnakeParams::defaults();
  sp.alpha = sp.beta = 0;  // nothing moves a snake in a zero field
  ParametricSnake snakes(ctx, 64, 64, sp);
  snakes.setFields(flat, flat);
  const int still = snakes.add(circleContour(32, 32, 10, 1.5));
  snakes.step(sp.window - sp.resample);
  CHECK(snakes.contours()[0].state == SnakeState::Moving);
  snakes.step(500);  // stops early once no snake moves
  auto c = snakes.contours();
  // Stopped, but nothing holds it: stalled, never "converged".
  CHECK(c[0].state == SnakeState::Stalled);
  CHECK(!c[0].converged());
  CHECK(c[0].held == 0);
  CHECK(c[0].iterations == sp.window);
  CHECK(snakes.allStopped());
  CHECK(!snakes.allConverged());  // stalled is not converged

  // A balloon keeps moving; the still snake stays converged and keeps its iteration count.
  sp.pressure = 0.3;
  snakes.setParams(sp);  // new parameters: every snake moves again...
  CHECK(snakes.contours()[0].state == SnakeState::Moving);
  snakes.remove(still);
  snakes.add(circleContour(32, 32, 5, 1.5));
  snakes.step(100);
  c = snakes.contours();
  REQUIRE(c.size() == 1);
  CHECK(c[0].state == SnakeState::Moving);
  CHECK(c[0].iterations == 100);
  // A hand edit replaces the nodes.
  snakes.setPoints(c[0].id, circleContour(20, 20, 6, 1.5));
  CHECK(std::abs(snakes.contours()[0].points[0].x - 26.0f) < 1e-4);
}

TEST_CASE("snakes refuse bad input with sentences") {
  auto ctx = test::sharedContext();
  ParametricSnake snakes(ctx, 50, 40);
  CHECK_THROWS_WITH_AS(snakes.add({{10, 10}, {60, 10}, {10, 20}}), doctest::Contains("outside"),
                       ParameterError);
  CHECK_THROWS_AS(snakes.add({{10, 10}, {20, 10}}), ParameterError);
  CHECK_THROWS_AS(snakes.add({{10, 10}, {20, 10}, {30, 10}}), ParameterError);  // no area
  CHECK_THROWS_AS(snakes.add({{10, NAN}, {20, 10}, {30, 20}}), ParameterError);
  snakes.add(circleContour(25, 20, 5, 1.5));
  CHECK_THROWS_WITH_AS(snakes.step(1), doctest::Contains("force field"), InputError);
  SnakeParams bad = SnakeParams::defaults();
  bad.kappa = -1;
  CHECK_THROWS_AS(snakes.setParams(bad), ParameterError);
  CHECK(snakes.params().kappa == SnakeParams::defaults().kappa);
  Field2D small(10, 10);
  cl::Buffer b(ctx->context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
               small.data.size() * sizeof(float), small.data.data());
  CHECK_THROWS_AS(snakes.setFields(b, b), InputError);
}
