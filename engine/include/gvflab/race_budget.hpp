#pragma once
// The race view's fairness rule: each solver gets the same OpenCL time per frame. A solver is
// stepped in chunks sized from its measured ms per iteration until the frame's budget is
// used. Time a frame overshoots (one multigrid iteration can outlast a whole budget) is paid
// back in the next frames, and time left unused is carried, so over any run both solvers'
// OpenCL totals stay within one chunk's misestimate (at most about a frame's budget) or one
// iteration of frames x budget: the difference never accumulates. No OpenCL here: the caller passes
// how to step and measure.
#include <functional>

namespace gvflab {

class BudgetStepper {
 public:
  struct Frame {
    int iterations = 0;
    double ms = 0;  // OpenCL time of this frame's iterations
    int chunks = 0;
  };
  // Each chunk waits for its kernels to measure them; a few per frame keep the frame short.
  static constexpr int kMaxChunks = 4;
  static constexpr int kMaxChunkIterations = 1 << 16;

  // stepMs(n) runs n iterations and returns their OpenCL milliseconds.
  Frame run(double budgetMs, const std::function<double(int)>& stepMs);
  void reset() { *this = BudgetStepper{}; }

  double totalMs() const { return totalMs_; }
  long iterations() const { return iterations_; }
  double creditMs() const { return credit_; }  // carried to the next frame (< 0: owed)
  double msPerIteration() const { return msPerIteration_; }  // 0 until measured

 private:
  double credit_ = 0;
  double msPerIteration_ = 0;
  double totalMs_ = 0;
  long iterations_ = 0;
};

}  // namespace gvflab
