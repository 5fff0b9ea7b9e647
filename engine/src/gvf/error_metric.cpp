#include "gvflab/error_metric.hpp"

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/kernel_library.hpp"

namespace gvflab {
namespace {
constexpr std::size_t kSumLocal = 256;
}  // namespace

ErrorMetric::ErrorMetric(std::shared_ptr<ComputeContext> ctx, const GvfInput& input)
    : ErrorMetric(std::move(ctx), FieldShape{input.width, input.height, input.depth}, input.v0,
                  input.dims() == 3 ? "-DDIMS3" : "") {}

ErrorMetric::ErrorMetric(std::shared_ptr<ComputeContext> ctx, FieldShape shape, cl::Memory v0,
                         const std::string& buildOptions, int z0, int z1)
    : ctx_(std::move(ctx)),
      shape_(shape),
      z0_(z0),
      z1_(z1 < 0 ? shape.depth : z1),
      v0_(std::move(v0)) {
  const bool is3d = shape_.dims() == 3;
  // 256 work-items per group: a power of two for the tree; a range of planes one at a time
  // (launched from z0 on, no group past z1).
  local_ = !is3d ? cl::NDRange(16, 16) : planes() ? cl::NDRange(16, 16, 1) : cl::NDRange(8, 8, 4);
  if (is3d)
    residual3d_ = ctx_->kernels().kernel("gvf_error3d.cl", "gvf_residual_partial3d", buildOptions);
  else
    residual2d_ = ctx_->kernels().kernel("gvf_error2d.cl", "gvf_residual_partial", buildOptions);
  sum_ = ctx_->kernels().kernel("reduce.cl", "reduce_sum");
  groups_ = detail::roundUp(shape_.width, local_[0]) / local_[0] *
            (detail::roundUp(shape_.height, local_[1]) / local_[1]) *
            (is3d ? detail::roundUp(z1_ - z0_, local_[2]) / local_[2] : 1);
  partials_[0] = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, groups_ * sizeof(float));
  partials_[1] = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, kSumLocal * sizeof(float));
}

double ErrorMetric::compute(const cl::Memory& field, double mu) {
  try {
    const bool is3d = shape_.dims() == 3;
    const auto scratch = cl::Local(256 * sizeof(float));
    if (is3d)
      residual3d_.set(field, v0_, shape_.width, shape_.height, shape_.depth, static_cast<float>(mu),
                      partials_[0], scratch);
    else
      residual2d_.set(field, v0_, shape_.width, shape_.height, static_cast<float>(mu), partials_[0],
                      scratch);
    cl::Kernel& residual = is3d ? residual3d_.get() : residual2d_.get();
    detail::enqueueRange(*ctx_, residual, "gvf_error",
                         detail::paddedRange(shape_.width, shape_.height, z1_ - z0_, local_),
                         local_, {}, planes() ? cl::NDRange(0, 0, z0_) : cl::NullRange);
    // Fold the group partials in two passes: at most 256 groups, then one.
    const std::size_t groups2 =
        std::min<std::size_t>(kSumLocal, (groups_ + kSumLocal - 1) / kSumLocal);
    sum_.set(partials_[0], static_cast<cl_int>(groups_), partials_[1],
             cl::Local(kSumLocal * sizeof(float)));
    detail::enqueue1D(*ctx_, sum_, "gvf_error_sum", groups2 * kSumLocal, kSumLocal);
    sum_.arg<0>(partials_[1]);
    sum_.arg<1>(static_cast<cl_int>(groups2));
    sum_.arg<2>(partials_[0]);
    detail::enqueue1D(*ctx_, sum_, "gvf_error_sum", kSumLocal, kSumLocal);
    float total = 0;
    ctx_->queue().enqueueReadBuffer(partials_[0], CL_TRUE, 0, sizeof(float), &total);
    return static_cast<double>(total) /
           static_cast<double>(std::size_t(shape_.width) * shape_.height * (z1_ - z0_));
  } catch (const cl::Error& e) {
    rethrowClError(e, "computing the GVF error");
  }
}

}  // namespace gvflab
