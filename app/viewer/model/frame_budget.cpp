#include "viewer/model/frame_budget.hpp"

#include <algorithm>
#include <cmath>

namespace gvflab::viewer {

double FrameBudget::windowMs(double budgetMs, double elapsedMs) const {
  return std::max(budgetMs - elapsedMs - afterSolverMs(), 0.25 * budgetMs);
}

double FrameBudget::predictedMs(int n) const { return n * msPerIteration() * kSafety; }

int FrameBudget::nextChunk(double windowMs, double committedMs, int done) const {
  const int left = kMaxIterations - done;
  if (left <= 0) return 0;
  const double perIteration = msPerIteration() * kSafety;
  if (perIteration <= 0) return done == 0 ? std::min(kFirstIterations, left) : 0;
  const double room = std::min(windowMs - committedMs, kSubChunkMs);
  const double fits = std::floor(room / perIteration);
  const int n = static_cast<int>(std::clamp(fits, 0.0, static_cast<double>(left)));
  return done == 0 ? std::max(n, 1) : n;
}

void FrameBudget::measured(int n, double ms) {
  if (n <= 0) return;
  // Weighted by iterations, so a small chunk's fixed cost (launch, wait) weighs little;
  // halving the old sums at each chunk lets a slow-down count within a chunk or two.
  weightedMs_ = 0.5 * weightedMs_ + std::max(ms, 0.0);
  weight_ = 0.5 * weight_ + n;
}

void FrameBudget::afterSolver(double ms) { after_[afterCount_++ % kAfterFrames] = ms; }

double FrameBudget::afterSolverMs() const {
  const int n = std::min(afterCount_, kAfterFrames);
  if (n == 0) return 0;
  std::array<double, kAfterFrames> v = after_;
  std::nth_element(v.begin(), v.begin() + n / 2, v.begin() + n);
  return v[n / 2];
}

double followerBudgetMs(double share, double budgetMs, double solverMs) {
  return budgetMs > 0 ? share * std::max(budgetMs, solverMs) : 0;
}

}  // namespace gvflab::viewer
