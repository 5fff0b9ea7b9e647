#pragma once
// Explicit Euler GVF (first paper, Alg. 1), float32, unit time step, double-buffered.
#include <memory>

#include "gvflab/error_metric.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/solver.hpp"

namespace gvflab {

class ComputeContext;

// How the iterations are launched. Both give the same field (same arithmetic, same order).
enum class EulerLaunch {
  Auto,    // Tiled on GPUs, where launches cost more than memory traffic; Single on CPUs
  Single,  // one launch per iteration (gvf_euler2d.cl)
  Tiled,   // up to kTiledSteps iterations per launch in local memory (gvf_euler2d_tiled.cl)
};

class EulerSolver : public Solver {
 public:
  static constexpr int kTiledSteps = 4;  // = HALO in gvf_euler2d_tiled.cl

  // Throws ParameterError if mu is NaN, negative or beyond the stability bound.
  EulerSolver(std::shared_ptr<ComputeContext> ctx, GvfInput input, double mu,
              EulerLaunch launch = EulerLaunch::Auto);
  ~EulerSolver() override;

  // Largest stable μ for the explicit step V += μ∇²V − (V − V0)|V0|² with unit time step:
  // the highest-frequency mode decays iff 4·dims·μ + max|V0|² ≤ 2.
  static double stabilityBound(double maxV0Squared, int dims = 2);
  double stabilityBound() const { return stabilityBound(input_.maxV0Squared); }

  void setMu(double mu);  // same checks as the constructor; keeps the current field
  double mu() const { return mu_; }
  EulerLaunch launch() const { return launch_; }
  const GvfInput& input() const { return input_; }

  std::string name() const override { return "euler"; }
  void step(int n) override;
  const cl::Buffer& field() const override { return v_[current_]; }
  double error() override;
  long iterations() const override { return iterations_; }
  void reset() override;
  Field2D readField() override;
  int width() const override { return input_.width; }
  int height() const override { return input_.height; }

 private:
  std::shared_ptr<ComputeContext> ctx_;
  GvfInput input_;
  double mu_;
  cl::Buffer v_[2];
  int current_ = 0;
  long iterations_ = 0;
  EulerLaunch launch_;
  cl::Kernel stepKernel_;
  cl::Kernel tiledKernel_;
  std::unique_ptr<ErrorMetric> metric_;
};

}  // namespace gvflab
