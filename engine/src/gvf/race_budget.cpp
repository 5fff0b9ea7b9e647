#include "gvflab/race_budget.hpp"

#include <algorithm>
#include <cmath>

namespace gvflab {

BudgetStepper::Frame BudgetStepper::run(double budgetMs, const std::function<double(int)>& stepMs) {
  Frame f;
  credit_ += std::max(budgetMs, 0.0);
  // Stop when less than half an iteration is left: the rest is carried, not overspent.
  while (f.chunks < kMaxChunks && credit_ > 0 && credit_ >= 0.5 * msPerIteration_) {
    int n = 1;  // the first chunk measures
    if (msPerIteration_ > 0)
      n = static_cast<int>(std::clamp(std::round(credit_ / msPerIteration_), 1.0,
                                      static_cast<double>(kMaxChunkIterations)));
    const double ms = std::max(stepMs(n), 0.0);
    credit_ -= ms;
    f.iterations += n;
    f.ms += ms;
    ++f.chunks;
    // Recent chunks weigh most: caches warm up, and the other solver shares the device.
    const double per = ms / n;
    msPerIteration_ = msPerIteration_ > 0 ? 0.5 * (msPerIteration_ + per) : per;
  }
  totalMs_ += f.ms;
  iterations_ += f.iterations;
  return f;
}

}  // namespace gvflab
