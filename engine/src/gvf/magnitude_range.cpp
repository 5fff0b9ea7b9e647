#include "gvflab/magnitude_range.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"

namespace gvflab {
namespace {
constexpr std::size_t kLocal = 256;    // a power of two (the kernel's tree)
constexpr std::size_t kGroups = 1024;  // first pass; enough groups to fill a large GPU
}  // namespace

MagnitudeRangeReduction::MagnitudeRangeReduction(const cl::Context& context,
                                                 const cl::Device& device)
    : kernels_(std::make_unique<KernelLibrary>(context, device, std::nullopt)), context_(context) {
  kernel_ = kernels_->kernel("reduce.cl", "reduce_magnitude_range");
  try {
    partials_ = cl::Buffer(context_, CL_MEM_READ_WRITE, kGroups * 2 * sizeof(float));
    result_ = cl::Buffer(context_, CL_MEM_READ_WRITE, 2 * sizeof(float));
  } catch (const cl::Error& e) {
    rethrowClError(e, "allocating the magnitude range's partials");
  }
}

MagnitudeRangeReduction::~MagnitudeRangeReduction() {
  // The read still writes into range2_: let it finish first.
  if (read_()) clWaitForEvents(1, &read_());
}

void MagnitudeRangeReduction::enqueue(cl::CommandQueue& queue, const cl::Buffer& field,
                                      std::size_t count) {
  result();  // the previous read writes the same host memory
  if (count == 0) {
    last_ = {};
    return;
  }
  const std::size_t groups = std::min(kGroups, (count + kLocal - 1) / kLocal);
  try {
    const auto scratch = cl::Local(kLocal * 2 * sizeof(float));
    kernel_.set(field, static_cast<cl_int>(count), 0, partials_, scratch);
    queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(groups * kLocal),
                               cl::NDRange(kLocal));
    kernel_.set(partials_, static_cast<cl_int>(groups), 1, result_, scratch);
    queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(kLocal), cl::NDRange(kLocal));
    queue.enqueueReadBuffer(result_, CL_FALSE, 0, sizeof range2_, range2_, nullptr, &read_);
  } catch (const cl::Error& e) {
    read_ = cl::Event();
    rethrowClError(e, "reducing the field's magnitude range");
  }
}

MagnitudeRange MagnitudeRangeReduction::result() {
  if (!read_()) return last_;
  try {
    read_.wait();
  } catch (const cl::Error& e) {
    read_ = cl::Event();
    rethrowClError(e, "reading the field's magnitude range");
  }
  read_ = cl::Event();
  const float lo = range2_[0], hi = range2_[1];
  // As the host pass did: no finite maximum, no scale.
  last_ = std::isfinite(hi) ? MagnitudeRange{std::sqrt(std::max(lo, 0.0f)), std::sqrt(hi)}
                            : MagnitudeRange{};
  return last_;
}

namespace reference {

MagnitudeRangeD magnitudeRange(const Field& v) {
  if (v.count() == 0) return {};
  MagnitudeRangeD r{std::numeric_limits<double>::infinity(), 0};
  for (std::size_t i = 0; i < v.count(); ++i) {
    const double m = std::hypot(v.values[2 * i], v.values[2 * i + 1]);
    r.min = std::min(r.min, m);
    r.max = std::max(r.max, m);
  }
  return r;
}

}  // namespace reference
}  // namespace gvflab
