#include "gvflab/ggvf_solver.hpp"

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/grid_spacing.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/mu_rule.hpp"

namespace gvflab {

GgvfSolver::GgvfSolver(std::shared_ptr<ComputeContext> ctx, GvfInput input, double mu,
                       GgvfParams params)
    : ctx_(std::move(ctx)), input_(std::move(input)), params_(params) {
  params_.validate();
  setMu(mu);
  const FieldShape shape{input_.width, input_.height, input_.depth};
  checkSolverFits(*ctx_, shape, Precision::F32, 2, 2 * sizeof(float));  // + g and the residual
  try {
    const std::size_t n = input_.pixelCount();
    const std::size_t fieldBytes = n * input_.dims() * sizeof(float);
    for (cl::Buffer& v : v_) v = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, fieldBytes);
    g_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, n * sizeof(float));
    residual_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, n * sizeof(float));
    const std::string opts = spacingBuildOptions(input_.spacing, input_.dims());
    auto& lib = ctx_->kernels();
    if (input_.dims() == 3) {
      step3d_ = lib.kernel("ggvf.cl", "ggvf_step3d", opts);
      residual3d_ = lib.kernel("ggvf.cl", "ggvf_residual3d", opts);
      weights_ = lib.kernel("ggvf.cl", "ggvf_weights3d", opts);
    } else {
      step2d_ = lib.kernel("ggvf.cl", "ggvf_step2d", opts);
      residual2d_ = lib.kernel("ggvf.cl", "ggvf_residual2d", opts);
      weights_ = lib.kernel("ggvf.cl", "ggvf_weights2d", opts);
    }
    computeWeights();
    reset();
  } catch (const cl::Error& e) {
    rethrowClError(e, "setting up the GGVF solver");
  }
}

void GgvfSolver::launch(Kernel2D& k2, Kernel3D& k3, const cl::Buffer& v, const cl::Buffer& out,
                        float mu, const char* name) {
  const bool is3d = input_.dims() == 3;
  if (is3d)
    k3.set(v, input_.v0, g_, out, input_.width, input_.height, input_.depth, mu);
  else
    k2.set(v, input_.v0, g_, out, input_.width, input_.height, mu);
  const cl::NDRange local =
      is3d ? detail::localSize3D(ctx_->info()) : detail::localSize2D(ctx_->info());
  detail::enqueueRange(*ctx_, is3d ? k3.get() : k2.get(), name,
                       detail::paddedRange(input_.width, input_.height, input_.depth, local),
                       local);
}

void GgvfSolver::computeWeights() {
  weights_.set(input_.v0, g_, static_cast<cl_int>(input_.pixelCount()),
               static_cast<float>(params_.k));
  detail::enqueue1D(*ctx_, weights_, "ggvf_weights", input_.pixelCount(), 64);
}

void GgvfSolver::step(int n) {
  try {
    for (int k = 0; k < n; ++k) {
      launch(step2d_, step3d_, v_[current_], v_[1 - current_], static_cast<float>(mu_),
             "ggvf_step");
      current_ = 1 - current_;
      ++iterations_;
    }
  } catch (const cl::Error& e) {
    rethrowClError(e, "running the GGVF solver");
  }
}

double GgvfSolver::error() {
  std::vector<float> res(input_.pixelCount());
  try {
    launch(residual2d_, residual3d_, v_[current_], residual_, 1.0f, "ggvf_error");
    ctx_->queue().enqueueReadBuffer(residual_, CL_TRUE, 0, res.size() * sizeof(float), res.data());
  } catch (const cl::Error& e) {
    rethrowClError(e, "computing the GGVF error");
  }
  double sum = 0;
  for (float r : res) sum += r;
  return sum / static_cast<double>(res.size());
}

double GgvfSolver::muBound() const { return ggvfMuRange(input_).high; }

void GgvfSolver::setMu(double mu) {
  requireGgvfMu(input_, mu);
  mu_ = mu;
}

void GgvfSolver::reset() {
  try {
    ctx_->queue().enqueueCopyBuffer(input_.v0, v_[0], 0, 0,
                                    input_.pixelCount() * input_.dims() * sizeof(float));
  } catch (const cl::Error& e) {
    rethrowClError(e, "resetting the GGVF solver");
  }
  current_ = 0;
  iterations_ = 0;
}

void GgvfSolver::setOwnParamValues(const std::vector<double>& values) {
  if (values.size() != 1)
    throw ParameterError("The GGVF solver takes one setting of its own, K (ggvf-k).");
  GgvfParams next{values[0]};
  next.validate();
  params_ = next;
  try {
    computeWeights();
  } catch (const cl::Error& e) {
    rethrowClError(e, "changing GGVF's K");
  }
}

std::uint64_t GgvfSolver::deviceBytes() const {
  const std::uint64_t n = input_.pixelCount();
  return n * (2ull * input_.dims() + 2) * sizeof(float);
}

std::vector<SolverFact> GgvfSolver::facts() const {
  return {{"ggvf_k", params_.k}, {"device_bytes", static_cast<std::int64_t>(deviceBytes())}};
}

cl::CommandQueue& GgvfSolver::queue() { return ctx_->queue(); }

}  // namespace gvflab
