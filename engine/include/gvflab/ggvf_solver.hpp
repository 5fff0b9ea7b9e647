#pragma once
// Generalized gradient vector flow (Xu & Prince, "Generalized gradient vector flow external
// forces for active contours", Signal Processing 71, 1998): the equilibrium of
//   V_t = g ∇²V − h (V − V0),  g = exp(−|V0|/K),  h = 1 − g,
// V0 = ∇f. Far from edges g = 1 and h = 0, so the field diffuses freely; on edges h ≈ 1 holds
// V at ∇f with little smoothing. K sets where the two trade (force_params.hpp); the field is
// the paper's whatever μ. Explicit Euler in float32 (kernels/ggvf.cl), 2D and 3D, buffers,
// with time step μ: V += μ (g ∇²V − h (V − V0)). So GGVF's μ is its step, not a weight (GVF's
// unit-step μ∇²V): it sets how fast the field settles, up to mu_rule.hpp's ggvfMuRange. No
// multigrid: the variable-coefficient smoother is not written, so a field far from edges needs
// many iterations (diffusion over L samples takes about L²/(4μ)).
#include <cstdint>
#include <memory>

#include "gvflab/force_params.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/solver.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

class ComputeContext;

class GgvfSolver : public Solver {
 public:
  // ParameterError for μ outside ggvfMuRange(input) or K outside ggvfParamSpecs();
  // ResourceError when the fields do not fit the device.
  GgvfSolver(std::shared_ptr<ComputeContext> ctx, GvfInput input, double mu,
             GgvfParams params = GgvfParams::defaults());

  std::string name() const override { return "ggvf"; }
  std::string kernelPrefix() const override { return "ggvf"; }
  void step(int n) override;
  const cl::Buffer& field() override { return v_[current_]; }
  // The mean over points of |g ∇²V − h (V − V0)|, GGVF's residual (ε of the GVF paper with
  // GGVF's weights; μ, a time step here, left out), summed on the host in double.
  double error() override;
  long iterations() const override { return iterations_; }
  double muBound() const override;
  void setMu(double mu) override;  // requireGgvfMu; keeps the field
  double mu() const override { return mu_; }
  void reset() override;
  int width() const override { return input_.width; }
  int height() const override { return input_.height; }
  int depth() const override { return input_.depth; }

  // K (ggvf-k), as a slider beside μ; a new K keeps the field.
  const std::vector<ParamSpec>& ownParams() const override { return ggvfParamSpecs(); }
  std::vector<double> ownParamValues() const override { return {params_.k}; }
  void setOwnParamValues(const std::vector<double>& values) override;
  const GgvfParams& params() const { return params_; }
  // V twice and g (V0 belongs to the input).
  std::uint64_t deviceBytes() const override;
  std::vector<SolverFact> facts() const override;  // ggvf_k, device_bytes

 protected:
  cl::CommandQueue& queue() override;

 private:
  // v, v0, g, out, width, height, [depth,] mu
  using Kernel2D =
      TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_float>;
  using Kernel3D =
      TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_float>;
  void computeWeights();
  // One launch of the 2D or the 3D kernel of a pair (step, residual) from v into out.
  void launch(Kernel2D& k2, Kernel3D& k3, const cl::Buffer& v, const cl::Buffer& out, float mu,
              const char* name);
  std::shared_ptr<ComputeContext> ctx_;
  GvfInput input_;
  double mu_ = 0;
  GgvfParams params_;
  cl::Buffer v_[2];
  cl::Buffer g_;         // exp(−|V0|/K) per point
  cl::Buffer residual_;  // per point, for error()
  int current_ = 0;
  long iterations_ = 0;
  Kernel2D step2d_, residual2d_;
  Kernel3D step3d_, residual3d_;
  TypedKernel<cl::Buffer, cl::Buffer, cl_int, cl_float> weights_;  // v0, g, n, K
};

}  // namespace gvflab
