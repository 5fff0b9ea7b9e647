#include "gvflab/error_metric.hpp"

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/kernel_library.hpp"

namespace gvflab {
namespace {
constexpr std::size_t kLx = 16, kLy = 16;  // 256 work-items: a power of two for the tree
constexpr std::size_t kSumLocal = 256;
}  // namespace

ErrorMetric::ErrorMetric(std::shared_ptr<ComputeContext> ctx, const GvfInput& input)
    : ctx_(std::move(ctx)), width_(input.width), height_(input.height), v0_(input.v0) {
  residual_ = ctx_->kernels().kernel("gvf_error2d.cl", "gvf_residual_partial");
  sum_ = ctx_->kernels().kernel("reduce.cl", "reduce_sum");
  groups_ = detail::roundUp(width_, kLx) / kLx * (detail::roundUp(height_, kLy) / kLy);
  partials_[0] = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, groups_ * sizeof(float));
  partials_[1] = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, kSumLocal * sizeof(float));
}

double ErrorMetric::compute(const cl::Buffer& field, double mu) {
  try {
    residual_.setArg(0, field);
    residual_.setArg(1, v0_);
    residual_.setArg(2, width_);
    residual_.setArg(3, height_);
    residual_.setArg(4, static_cast<float>(mu));
    residual_.setArg(5, partials_[0]);
    residual_.setArg(6, cl::Local(kLx * kLy * sizeof(float)));
    detail::enqueue2D(*ctx_, residual_, "gvf_error", width_, height_, cl::NDRange(kLx, kLy));
    // Fold the group partials in two passes: at most 256 groups, then one.
    const std::size_t groups2 = std::min<std::size_t>(kSumLocal, (groups_ + kSumLocal - 1) / kSumLocal);
    sum_.setArg(0, partials_[0]);
    sum_.setArg(1, static_cast<cl_int>(groups_));
    sum_.setArg(2, partials_[1]);
    sum_.setArg(3, cl::Local(kSumLocal * sizeof(float)));
    detail::enqueue1D(*ctx_, sum_, "gvf_error_sum", groups2 * kSumLocal, kSumLocal);
    sum_.setArg(0, partials_[1]);
    sum_.setArg(1, static_cast<cl_int>(groups2));
    sum_.setArg(2, partials_[0]);
    detail::enqueue1D(*ctx_, sum_, "gvf_error_sum", kSumLocal, kSumLocal);
    float total = 0;
    ctx_->queue().enqueueReadBuffer(partials_[0], CL_TRUE, 0, sizeof(float), &total);
    return static_cast<double>(total) / (static_cast<double>(width_) * height_);
  } catch (const cl::Error& e) {
    rethrowClError(e, "computing the GVF error");
  }
}

}  // namespace gvflab
