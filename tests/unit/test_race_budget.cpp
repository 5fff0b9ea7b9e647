// The race view's budget rule (engine/include/gvflab/race_budget.hpp) with simulated solvers: a
// cheap one (Euler-like, noisy ms per iteration) and one whose single iteration outlasts a frame's
// budget (multigrid on a slow device). Both must receive the same OpenCL time.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include "gvflab/race_budget.hpp"

using gvflab::BudgetStepper;

namespace {

// ms per iteration times a deterministic jitter in [1 - spread, 1 + spread].
struct FakeSolver {
  double msPerIteration;
  double spread = 0;
  std::uint32_t state = 12345;
  long iterations = 0;
  double step(int n) {
    state = state * 1664525u + 1013904223u;
    const double jitter = 1 + spread * (2.0 * ((state >> 8) & 0xFFFF) / 65535.0 - 1);
    iterations += n;
    return n * msPerIteration * jitter;
  }
};

}  // namespace

TEST_CASE("both solvers get the same OpenCL time, within one chunk") {
  const double budget = 10;
  FakeSolver euler{0.093, 0.3}, multigrid{27.0, 0.1};
  BudgetStepper a, b;
  for (int frame = 1; frame <= 300; ++frame) {
    a.run(budget, [&](int n) { return euler.step(n); });
    b.run(budget, [&](int n) { return multigrid.step(n); });
    const double target = frame * budget;
    // Never further from frames x budget than one chunk's misestimate (a chunk sized from
    // a fast measurement can run up to 1.3 / 0.7 as long) or one iteration: the difference
    // is carried, so it never accumulates.
    CHECK(std::abs(a.totalMs() - target) <= (1.3 / 0.7 - 1) * budget + 0.093 * 1.3);
    CHECK(std::abs(b.totalMs() - target) <= 1.1 * 27.0);
  }
  MESSAGE("Euler " << a.iterations() << " iterations in " << a.totalMs() << " ms, multigrid "
                   << b.iterations() << " in " << b.totalMs() << " ms");
  CHECK(std::abs(a.totalMs() - b.totalMs()) <= 1.1 * 27.0);
  CHECK(std::abs(a.totalMs() - b.totalMs()) / 3000 < 0.01);
  CHECK(a.iterations() == euler.iterations);
  CHECK(b.iterations() == multigrid.iterations);
  CHECK(b.iterations() == doctest::Approx(3000 / 27.0).epsilon(0.05));
}

TEST_CASE("a solver slower than the budget steps every few frames and pays the time back") {
  BudgetStepper s;
  FakeSolver slow{25.0};
  int steppedFrames = 0;
  for (int frame = 0; frame < 100; ++frame) {
    BudgetStepper::Frame f = s.run(10, [&](int n) { return slow.step(n); });
    CHECK(f.iterations <= 1);  // never a burst to catch up
    steppedFrames += f.iterations > 0;
  }
  CHECK(steppedFrames == doctest::Approx(40).epsilon(0.05));
  CHECK(s.creditMs() < 0.5 * 25 + 10);  // at most: just short of half an iteration, + a frame
  CHECK(s.creditMs() > -25);
}

TEST_CASE("a cheap solver fills the frame in a few chunks, sized from its measured speed") {
  BudgetStepper s;
  FakeSolver fast{0.01};
  BudgetStepper::Frame first = s.run(5, [&](int n) { return fast.step(n); });
  CHECK(first.chunks <= BudgetStepper::kMaxChunks);
  CHECK(first.ms == doctest::Approx(5).epsilon(0.01));
  CHECK(s.msPerIteration() == doctest::Approx(0.01));
  BudgetStepper::Frame second = s.run(5, [&](int n) { return fast.step(n); });
  CHECK(second.chunks == 1);  // the speed is known: one chunk does it
  CHECK(second.iterations == 500);
}

TEST_CASE("a zero budget steps nothing") {
  BudgetStepper s;
  int calls = 0;
  BudgetStepper::Frame f = s.run(0, [&](int) { return ++calls, 1.0; });
  CHECK(f.iterations == 0);
  CHECK(calls == 0);
}
