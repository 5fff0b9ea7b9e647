#include "gvflab/capture_range.hpp"

#include <algorithm>
#include <cmath>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/param_fields.hpp"

namespace gvflab {

// A threshold of 0.3 of the strongest edge keeps the object boundaries of photos and MRI
// slices while ignoring most texture; the phantoms' edges are near 1.
const std::vector<ParamSpec>& captureParamSpecs() {
  static const std::vector<ParamSpec> specs = {
      {"capture-threshold", "capture threshold", 0.0, 1.0, 0.3, false,
       "Edge map value (f in [0, 1]) that counts as reaching the object boundary."},
      {"capture-steps", "capture steps", 0, 100000, 0, true,
       "Most unit steps followed from each pixel; 0 = width + height."},
  };
  return specs;
}

const std::vector<ParamField<CaptureParams>>& captureParamFields() {
  static const std::vector<ParamField<CaptureParams>> fields = {
      {"capture-threshold", &CaptureParams::threshold},
      {"capture-steps", &CaptureParams::maxSteps},
  };
  return fields;
}

CaptureParams CaptureParams::defaults() {
  return defaultsOf(captureParamSpecs(), captureParamFields());
}

CaptureRange::CaptureRange(std::shared_ptr<ComputeContext> ctx, const GvfInput& input)
    : ctx_(std::move(ctx)), width_(input.width), height_(input.height), edge_(input.edge) {
  try {
    const std::size_t n = input.pixelCount();
    ctx_->checkAllocation(n * sizeof(cl_int), "the capture-range map");
    steps_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, n * sizeof(cl_int));
    count_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, sizeof(cl_int));
    kernel_ = ctx_->kernels().kernel("capture_range.cl", "capture_range");
  } catch (const cl::Error& e) {
    rethrowClError(e, "setting up the capture-range map");
  }
}

long CaptureRange::compute(const cl::Buffer& field, const CaptureParams& params) {
  validateFields(params, captureParamSpecs(), captureParamFields());
  maxSteps_ = params.stepsFor(width_, height_);
  cl_int count = 0;
  try {
    auto& q = ctx_->queue();
    q.enqueueWriteBuffer(count_, CL_FALSE, 0, sizeof(cl_int), &count);
    kernel_.set(field, edge_, steps_, count_, width_, height_, static_cast<float>(params.threshold),
                static_cast<cl_int>(maxSteps_));
    detail::enqueue2D(*ctx_, kernel_, "capture_range", width_, height_,
                      detail::localSize2D(ctx_->info()));
    q.enqueueReadBuffer(count_, CL_TRUE, 0, sizeof(cl_int), &count);
  } catch (const cl::Error& e) {
    rethrowClError(e, "computing the capture-range map");
  }
  area_ = count;
  return area_;
}

int CaptureRange::rowMultiple() const {
  return static_cast<int>(detail::localSize2D(ctx_->info())[1]);
}

void CaptureRange::begin(const cl::Buffer& field, const CaptureParams& params) {
  validateFields(params, captureParamSpecs(), captureParamFields());
  maxSteps_ = params.stepsFor(width_, height_);
  bandThreshold_ = static_cast<float>(params.threshold);
  const std::size_t bytes = static_cast<std::size_t>(width_) * height_ * 2 * sizeof(float);
  try {
    if (!snapshot_()) {
      ctx_->checkAllocation(bytes, "the capture-range field copy");
      snapshot_ = cl::Buffer(ctx_->context(), CL_MEM_READ_WRITE, bytes);
    }
    auto& q = ctx_->queue();
    q.enqueueCopyBuffer(field, snapshot_, 0, 0, bytes);
    q.enqueueFillBuffer(count_, cl_int(0), 0, sizeof(cl_int));
  } catch (const cl::Error& e) {
    rethrowClError(e, "copying the field for the capture-range map");
  }
  nextRow_ = 0;
}

int CaptureRange::computeRows(int rows) {
  if (rowsLeft() <= 0) return 0;
  const cl::NDRange local = detail::localSize2D(ctx_->info());
  const int multiple = rowMultiple();
  auto up = [&](int n) { return static_cast<int>(detail::roundUp(n, multiple)); };
  rows = std::min(up(std::max(rows, 1)), up(rowsLeft()));
  try {
    kernel_.set(snapshot_, edge_, steps_, count_, width_, height_, bandThreshold_,
                static_cast<cl_int>(maxSteps_));
    // Rows past the band's end belong to the next band; the kernel skips those past the map.
    ctx_->queue().enqueueNDRangeKernel(kernel_.get(), cl::NDRange(0, nextRow_),
                                       cl::NDRange(detail::roundUp(width_, local[0]), rows), local,
                                       nullptr, &bandEvent_);
    if (ctx_->profiler().enabled()) ctx_->profiler().record("capture_range", bandEvent_);
    ctx_->queue().flush();
  } catch (const cl::Error& e) {
    rethrowClError(e, "computing the capture-range map");
  }
  const int queued = std::min(rows, rowsLeft());
  nextRow_ += queued;
  return queued;
}

long CaptureRange::finish() {
  cl_int count = 0;
  try {
    ctx_->queue().enqueueReadBuffer(count_, CL_TRUE, 0, sizeof(cl_int), &count);
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the capture-range area");
  }
  area_ = count;
  return area_;
}

std::vector<int> CaptureRange::readSteps() {
  std::vector<int> out(static_cast<std::size_t>(width_) * height_);
  try {
    ctx_->queue().enqueueReadBuffer(steps_, CL_TRUE, 0, out.size() * sizeof(int), out.data());
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the capture-range map");
  }
  return out;
}

std::vector<unsigned char> captureMapRgb(const std::vector<int>& steps, int maxSteps) {
  std::vector<unsigned char> rgb(steps.size() * 3, 0);
  const double scale = 1.0 / std::max(1, maxSteps);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const int s = steps[i];
    unsigned char* px = &rgb[3 * i];
    if (s == 0) {
      px[0] = px[1] = px[2] = 255;
    } else if (s > 0) {
      // sqrt stretches the near range, where most of the detail is.
      const double t = std::sqrt(std::min(1.0, s * scale));
      px[0] = static_cast<unsigned char>(std::lround(250 * (1 - t) + 20 * t));
      px[1] = static_cast<unsigned char>(std::lround(220 * (1 - t) + 40 * t));
      px[2] = static_cast<unsigned char>(std::lround(40 * (1 - t) + 140 * t));
    }
  }
  return rgb;
}

}  // namespace gvflab
