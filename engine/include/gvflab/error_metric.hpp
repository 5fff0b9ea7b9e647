#pragma once
// ε = (1/N) Σ |μ∇²V − (V − V0)|V0|²| (multigrid paper, eq. 9), as a two-stage device reduction.
#include <memory>

#include "gvflab/cl.hpp"
#include "gvflab/gvf_input.hpp"

namespace gvflab {

class ComputeContext;

class ErrorMetric {
 public:
  ErrorMetric(std::shared_ptr<ComputeContext> ctx, const GvfInput& input);
  double compute(const cl::Buffer& field, double mu);

 private:
  std::shared_ptr<ComputeContext> ctx_;
  int width_, height_;
  cl::Buffer v0_;
  cl::Kernel residual_;
  cl::Kernel sum_;
  cl::Buffer partials_[2];
  std::size_t groups_ = 0;
};

}  // namespace gvflab
