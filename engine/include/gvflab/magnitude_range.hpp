#pragma once
// The smallest and largest |V| of a float2 field (width * height interleaved vectors), reduced
// on the device (kernels/reduce.cl, two launches) with 8 bytes read back: what a colour legend
// needs, without bringing the field to host memory.
#include <cstddef>
#include <memory>

#include "gvflab/cl.hpp"
#include "gvflab/reference.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

class KernelLibrary;

// min <= max; both 0 for an empty field or one whose largest |V| is not finite.
struct MagnitudeRange {
  float min = 0;
  float max = 0;
};

class MagnitudeRangeReduction {
 public:
  // Builds reduce.cl from the embedded sources for this context and device (no ComputeContext
  // needed: the viewer's presenters hold only a queue). Throws KernelBuildError, DeviceError.
  MagnitudeRangeReduction(const cl::Context& context, const cl::Device& device);
  ~MagnitudeRangeReduction();
  MagnitudeRangeReduction(const MagnitudeRangeReduction&) = delete;
  MagnitudeRangeReduction& operator=(const MagnitudeRangeReduction&) = delete;

  // Over the first count float2 vectors of field, on queue (of the same context): enqueue()
  // launches the reduction and the 8-byte read without waiting; result() waits for the last
  // one enqueued (at once when it is done) and returns it. compute() does both. Throw
  // DeviceError.
  void enqueue(cl::CommandQueue& queue, const cl::Buffer& field, std::size_t count);
  MagnitudeRange result();
  MagnitudeRange compute(cl::CommandQueue& queue, const cl::Buffer& field, std::size_t count) {
    enqueue(queue, field, count);
    return result();
  }

 private:
  std::unique_ptr<KernelLibrary> kernels_;
  cl::Context context_;
  // in, n, pairs (0: vectors, 1: (min, max) pairs), out, scratch
  TypedKernel<cl::Buffer, cl_int, cl_int, cl::Buffer, cl::LocalSpaceArg> kernel_;
  cl::Buffer partials_, result_;
  float range2_[2] = {0, 0};  // min and max of |V|^2, written by the read
  cl::Event read_;            // the pending read; null once result() collected it
  MagnitudeRange last_;
};

namespace reference {
// The same in double precision (|V| by hypot), for the tests.
struct MagnitudeRangeD {
  double min = 0;
  double max = 0;
};
MagnitudeRangeD magnitudeRange(const Field& v);
}  // namespace reference

}  // namespace gvflab
