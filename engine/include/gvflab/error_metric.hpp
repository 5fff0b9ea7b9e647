#pragma once
// ε = (1/N) Σ |μ∇²V − (V − V0)|V0|²| (multigrid paper, eq. 9), as a two-stage device reduction,
// in 2D and 3D, for fields in any storage of field_storage.hpp.
#include <memory>
#include <string>

#include "gvflab/cl.hpp"
#include "gvflab/field_storage.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

class ComputeContext;

class ErrorMetric {
 public:
  // Fields in the float32 interleaved layout, V0 from the input.
  ErrorMetric(std::shared_ptr<ComputeContext> ctx, const GvfInput& input);
  // Fields in a solver's storage: v0 and every field passed to compute() share buildOptions.
  // A 3D metric may sum planes [z0, z1) alone (a split's slab: its owned planes, read with the
  // halo planes beside them); -1: to the last.
  ErrorMetric(std::shared_ptr<ComputeContext> ctx, FieldShape shape, cl::Memory v0,
              const std::string& buildOptions, int z0 = 0, int z1 = -1);
  // The mean over the planes summed.
  double compute(const cl::Memory& field, double mu);

 private:
  bool planes() const { return z0_ > 0 || z1_ < shape_.depth; }
  std::shared_ptr<ComputeContext> ctx_;
  FieldShape shape_;
  int z0_, z1_;
  cl::Memory v0_;
  // field, v0, width, height, [depth,] mu, partials, scratch: one of the two is built.
  TypedKernel<cl::Memory, cl::Memory, cl_int, cl_int, cl_float, cl::Buffer, cl::LocalSpaceArg>
      residual2d_;
  TypedKernel<cl::Memory, cl::Memory, cl_int, cl_int, cl_int, cl_float, cl::Buffer,
              cl::LocalSpaceArg>
      residual3d_;
  TypedKernel<cl::Buffer, cl_int, cl::Buffer, cl::LocalSpaceArg> sum_;
  cl::Buffer partials_[2];
  std::size_t groups_ = 0;
  cl::NDRange local_;
};

}  // namespace gvflab
