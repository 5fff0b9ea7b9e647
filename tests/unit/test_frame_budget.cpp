// The viewer's frame budget (FrameBudget) on made-up device times: a logical clock, no OpenCL
// and no wall time. The frame loop below is Session::stepBudgeted's: up to two sub-chunks in
// flight, the next one planned while the previous one runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <functional>

#include "viewer/model/frame_budget.hpp"
#include "viewer/model/frame_stats.hpp"
#include "viewer/model/race_session.hpp"

using namespace gvflab::viewer;

namespace {

struct FrameRun {
  double ms = 0;  // the solver's time in the frame
  int iterations = 0;
};

// cost(first, n): device ms of n iterations starting at the run's iteration `first`.
FrameRun runFrame(FrameBudget& b, double windowMs, long& iterations,
                  const std::function<double(long, int)>& cost) {
  struct InFlight {
    int n;
    double predicted, queued, end;
  };
  std::deque<InFlight> inFlight;
  double t = 0, deviceFree = 0, lastEnd = 0;
  int done = 0;
  for (;;) {
    double committed = t;
    for (const InFlight& c : inFlight) committed += c.predicted;
    const int n = inFlight.size() < 2 ? b.nextChunk(windowMs, committed, done) : 0;
    if (n > 0) {
      const double start = std::max(t, deviceFree);
      deviceFree = start + cost(iterations, n);
      iterations += n;
      inFlight.push_back({n, b.predictedMs(n), t, deviceFree});
      done += n;
      if (inFlight.size() < 2) continue;
    }
    if (inFlight.empty()) break;
    const InFlight c = inFlight.front();
    inFlight.pop_front();
    t = std::max(t, c.end);
    b.measured(c.n, t - std::max(c.queued, lastEnd));
    lastEnd = t;
  }
  return {t, done};
}

}  // namespace

TEST_CASE("the frame budget's sub-chunks keep the solver inside its window") {
  FrameBudget b;
  long iterations = 0;
  // 0.05 ms an iteration and 0.03 ms a sub-chunk (launches, the wait): 4096² on the H200.
  auto steady = [](long, int n) { return 0.03 + 0.05 * n; };
  const double window = b.windowMs(12, 1);  // nothing known after the solver yet: 11 ms
  CHECK(window == doctest::Approx(11));
  for (int f = 0; f < 40; ++f) {
    const FrameRun r = runFrame(b, window, iterations, steady);
    CAPTURE(f);
    CHECK(r.ms <= window + 1e-9);
    CHECK(r.iterations >= 1);
    if (f >= 2) CHECK(r.iterations >= 0.9 * window / 0.05);  // the window is used, not a part
  }
  CHECK(b.msPerIteration() == doctest::Approx(0.05).epsilon(0.05));
}

TEST_CASE("a device slowing down mid-frame costs at most the sub-chunks in flight") {
  FrameBudget b;
  long iterations = 0;
  const double window = 8;
  const long slowFrom = 5 * 150 + 37;  // within the sixth frame
  auto cost = [&](long first, int n) {
    double ms = 0.03;
    for (long i = first; i < first + n; ++i) ms += i >= slowFrom ? 0.1 : 0.05;  // twice as slow
    return ms;
  };
  double worst = 0;
  for (int f = 0; f < 30; ++f) {
    const FrameRun r = runFrame(b, window, iterations, cost);
    worst = std::max(worst, r.ms);
    CAPTURE(f);
    // Two sub-chunks of at most kSubChunkMs (predicted) may be in flight when it slows down.
    CHECK(r.ms <= window + 2 * FrameBudget::kSubChunkMs);
    if (iterations > slowFrom + 200) CHECK(r.ms <= window + 1e-9);  // measured again: inside
  }
  MESSAGE("worst solver frame " << worst << " ms for a window of " << window << " ms");
}

TEST_CASE("the frame budget's window, first chunk and limits") {
  FrameBudget b;
  // Before any measurement: a few iterations to measure, then nothing until measured.
  CHECK(b.nextChunk(10, 0, 0) == FrameBudget::kFirstIterations);
  CHECK(b.nextChunk(10, 0, FrameBudget::kFirstIterations) == 0);
  // One iteration longer than the window (multigrid at a large size): still one a frame.
  b.measured(1, 30);
  CHECK(b.nextChunk(10, 0, 0) == 1);
  CHECK(b.nextChunk(10, 0, 1) == 0);
  // Sub-chunks of at most kSubChunkMs, predicted with the safety factor.
  b.reset();
  b.measured(100, 1.0);  // 0.01 ms an iteration
  const int n = b.nextChunk(50, 0, 0);
  CHECK(b.predictedMs(n) <= FrameBudget::kSubChunkMs);
  CHECK(b.predictedMs(n + 1) > FrameBudget::kSubChunkMs);
  CHECK(b.nextChunk(50, 49.995, 10) == 0);  // the next one would pass the window
  // Never more than kMaxIterations a frame, however cheap.
  b.measured(1000000, 1e-3);
  CHECK(b.nextChunk(1e6, 0, FrameBudget::kMaxIterations - 3) <= 3);
  CHECK(b.nextChunk(1e6, 0, FrameBudget::kMaxIterations) == 0);
  // The rest of the frame: the median of the last frames, so a lasting rise counts after a
  // few frames and a lone spike (a snake resampling) not at all.
  b.afterSolver(3);
  CHECK(b.windowMs(12, 1) == doctest::Approx(8));
  b.afterSolver(3);
  b.afterSolver(3);
  b.afterSolver(17);  // a snake resampling: no room kept for it afterwards
  CHECK(b.afterSolverMs() == doctest::Approx(3));
  CHECK(b.windowMs(12, 1) == doctest::Approx(8));
  b.afterSolver(9);  // streamlines switched on: 9 from now on
  CHECK(b.afterSolverMs() == doctest::Approx(3));
  b.afterSolver(9);
  CHECK(b.afterSolverMs() == doctest::Approx(9));
  CHECK(b.windowMs(12, 1) == doctest::Approx(3));  // a quarter of the budget at least
}

TEST_CASE("the race's capture-range bands: rows scaled to the target, at most doubled") {
  CHECK(captureBandRows(0, 0, 3, 8) == 16);     // before any band
  CHECK(captureBandRows(16, 0, 3, 8) == 16);    // not measured: the same rows
  CHECK(captureBandRows(16, 1.0, 3, 8) == 32);  // 48 would fit, but at most twice the last
  CHECK(captureBandRows(32, 6, 3, 8) == 16);    // half the time
  CHECK(captureBandRows(8, 100, 3, 8) == 8);    // never under one work-group of rows
  CHECK(captureBandRows(10, 1, 1, 4) == 12);    // rounded up to whole work-groups
  CHECK(captureBandRows(0, 0, 3, 4, 10) == 12);
}

TEST_CASE("the surfaces' share grows with a solver step that alone overruns the frame budget") {
  CHECK(followerBudgetMs(0.35, 12, 5) == doctest::Approx(4.2));     // a device: within budget
  CHECK(followerBudgetMs(0.35, 12, 100) == doctest::Approx(35.0));  // a CPU's multigrid cycle
  CHECK(followerBudgetMs(0.35, 0, 100) == 0);                       // fixed steps per frame
}
