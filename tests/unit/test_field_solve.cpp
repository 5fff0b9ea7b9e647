// The one rule for how far a field is solved before snakes judge it (gvflab/field_solve.hpp):
// by default multigrid to 1e-6, a named solver to the same error, an iteration count alone a
// fixed count; and the watch that ends a solve whose error settled above its target.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "gvflab/error.hpp"
#include "gvflab/field_solve.hpp"
#include "gvflab/snake_trails.hpp"

using namespace gvflab;

TEST_CASE("by default the field is solved to 1e-6 by multigrid") {
  const FieldSolvePlan plan = planFieldSolve({});
  CHECK(plan.kind == SolverKind::Multigrid);
  REQUIRE(plan.targetError.has_value());
  CHECK(*plan.targetError == doctest::Approx(1e-6));
  CHECK(plan.defaultTarget);
  CHECK(plan.iterations == defaultIterationCap(SolverKind::Multigrid));
  CHECK(plan.describe() == "multigrid to error <= 1e-06 (at most 100 iterations)");
}

TEST_CASE("a named solver runs to the same error; a count alone is a fixed count") {
  FieldSolveRequest euler;
  euler.solver = SolverKind::Euler;
  const FieldSolvePlan e = planFieldSolve(euler);
  CHECK(e.kind == SolverKind::Euler);
  CHECK(e.targetError == doctest::Approx(kDefaultTargetError));
  CHECK(e.iterations == defaultIterationCap(SolverKind::Euler));

  FieldSolveRequest fixed;
  fixed.iterations = 500;
  const FieldSolvePlan f = planFieldSolve(fixed);
  CHECK(f.kind == SolverKind::Euler);  // an iteration count names Euler iterations
  CHECK_FALSE(f.targetError.has_value());
  CHECK(f.iterations == 500);

  FieldSolveRequest capped;
  capped.iterations = 40;
  capped.targetError = 1e-4;
  const FieldSolvePlan c = planFieldSolve(capped);
  CHECK(c.kind == SolverKind::Multigrid);
  CHECK(c.targetError == doctest::Approx(1e-4));
  CHECK_FALSE(c.defaultTarget);
  CHECK(c.iterations == 40);

  FieldSolveRequest bad;
  bad.targetError = -1;
  CHECK_THROWS_AS(planFieldSolve(bad), ParameterError);
  bad.targetError = std::nan("");
  CHECK_THROWS_AS(planFieldSolve(bad), ParameterError);
}

TEST_CASE("the watch: reached at the target, settled when the error stops falling") {
  ConvergenceWatch w(1e-6);
  CHECK_FALSE(w.done());
  // Multigrid-like: a decade per cycle down to a floor of 2e-5 (16-bit storage).
  double e = 1e-2;
  int cycles = 0;
  for (; cycles < 100 && !w.done(); ++cycles) {
    w.add(cycles, e);
    e = std::max(e / 10, 2e-5);
  }
  CHECK_FALSE(w.reached());
  CHECK(w.settled());
  CHECK(cycles < 20);  // a few cycles after the floor, not the cap

  // Euler-like, sampled in chunks of 1/16 of the iterations done: diffusion's power law, then
  // the slowest mode's exponential. Slow, but never "settled" while it keeps falling.
  ConvergenceWatch slow(1e-30);
  for (long it = 0; it < 200000; it += std::clamp<long>(it / 16, 1, 256)) {
    slow.add(it, std::pow(it + 1.0, -0.5) * std::exp(-it / 3000.0));
    REQUIRE_FALSE(slow.settled());
  }

  ConvergenceWatch hit(1e-3);
  hit.add(1, 5e-4);
  CHECK(hit.reached());
  hit.reset();
  CHECK_FALSE(hit.done());
}

TEST_CASE("trails: a shape every N of a snake's iterations, bounded, restarted on replay") {
  SnakeTrails trails;
  SnakeContour c;
  c.id = 7;
  c.points = {{0, 0}, {10, 0}, {10, 10}};
  trails.record({c});
  CHECK(trails.trails().empty());  // off by default
  trails.setEvery(10);
  for (long it = 0; it <= 100; it += 4) {
    c.iterations = it;
    c.points[0].x = static_cast<float>(it);
    trails.record({c});
  }
  REQUIRE(trails.trails().size() == 1);
  const auto& shapes = trails.trails()[0].shapes;
  CHECK(shapes.size() == 11);  // the start, then one per 10 iterations up to 100
  CHECK(shapes.front()[0].x == 0);
  CHECK(shapes[1][0].x == 12);  // the first step past 10

  for (long it = 104; it <= 10000; it += 4) {
    c.iterations = it;
    trails.record({c});
  }
  CHECK(trails.trails()[0].shapes.size() <= SnakeTrails::kMaxShapes);
  CHECK(trails.trails()[0].shapes.front()[0].x == 0);  // still from the start

  c.iterations = 0;  // a replay
  trails.record({c});
  CHECK(trails.trails()[0].shapes.size() == 1);
  trails.record({});  // the snake was deleted
  CHECK(trails.trails().empty());
}
