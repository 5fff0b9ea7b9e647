#pragma once
// The viewer's frame budget (issue 29 item 5): a frame's solver iterations go to the device in
// sub-chunks of at most kSubChunkMs (predicted), each sized from a running per-iteration
// estimate, and no sub-chunk is started that is predicted to end past the solver's window: the
// budget less what the frame already spent and what its rest (snakes, upload, draw) is expected
// to take. A frame then overshoots by at most one sub-chunk's misestimate; one chunk a frame
// sized by the last frame's feedback overshot by its whole misestimate (30% growth a frame plus
// any slow-down of the device: 13.8 ms solver frames at 4096², docs/BENCHMARKS.md "Issue 29 item
// 5, frame budget"). No clock here: the caller passes times, so tests feed in made-up ones.

#include <array>

namespace gvflab::viewer {

class FrameBudget {
 public:
  static constexpr int kMaxIterations = 4096;  // a frame's most (as the feedback rule's)
  static constexpr double kSafety = 1.15;      // predicted ms = n x ms per iteration x this
  static constexpr double kSubChunkMs = 2.0;   // the most predicted ms of one sub-chunk
  static constexpr int kFirstIterations = 4;   // before any measurement

  // The solver's ms this frame: budgetMs less elapsedMs (the frame so far) and the expected
  // rest of the frame; never under a quarter of the budget, so the solver always moves on.
  double windowMs(double budgetMs, double elapsedMs) const;
  // Iterations of the next sub-chunk, 0 to stop. committedMs: the solver's time so far this
  // frame plus the predicted time of the sub-chunks still running; done: iterations queued this
  // frame. The first sub-chunk of a frame has at least one iteration, whatever it is predicted
  // to take (the solver must move on, as with the feedback rule).
  int nextChunk(double windowMs, double committedMs, int done) const;
  double predictedMs(int n) const;  // of a sub-chunk of n iterations

  // A sub-chunk of n iterations took ms (from when it could start to its end).
  void measured(int n, double ms);
  // The frame's work after the solver took ms. The estimate is the median of the last
  // kAfterFrames: a lasting change counts after a few frames, a lone spike (a snake resampling,
  // which no solver window can make room for: 13 ms at 4096² on the H200) not at all, since
  // keeping room after it only cost iterations (8-15% at 4096² with a snake when the estimate
  // took a rise at once and let it fall by 40% a frame).
  void afterSolver(double ms);
  static constexpr int kAfterFrames = 5;
  double msPerIteration() const { return weight_ > 0 ? weightedMs_ / weight_ : 0; }
  double afterSolverMs() const;
  void reset() { *this = FrameBudget{}; }

 private:
  double weightedMs_ = 0, weight_ = 0;        // sums over sub-chunks, halved at each new one
  std::array<double, kAfterFrames> after_{};  // ring of the last frames' rest
  int afterCount_ = 0;
};

// What the work after the solver (the surfaces) may take: `share` of the frame budget, or of
// the solver's own time this frame where that alone overran the budget (a multigrid cycle of a
// 64^3 volume on a CPU): the frame is that long anyway. 0 without a budget.
double followerBudgetMs(double share, double budgetMs, double solverMs);

}  // namespace gvflab::viewer
