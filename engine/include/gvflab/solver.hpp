#pragma once
// The solver interface shared by every GVF solver (Euler, multigrid), 2D and 3D.
#include <string>

#include "gvflab/cl.hpp"
#include "gvflab/image.hpp"

namespace gvflab {

class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string name() const = 0;
  // Profiler names of the solver's iteration kernels start with this (its OpenCL time).
  virtual std::string kernelPrefix() const = 0;
  // Advances n iterations; kernel events go to the context's profiler.
  virtual void step(int n) = 0;
  // The current field on the device in the float32 interleaved layout (float2 per pixel in
  // 2D, packed float3 per voxel in 3D); converted from the solver's storage when that differs.
  virtual const cl::Buffer& field() = 0;
  // ε of the multigrid paper (eq. 9), reduced on the device, for the current field.
  virtual double error() = 0;
  virtual long iterations() const = 0;
  // The largest μ this solver runs with on its input (mu_rule.hpp's muBound: Euler's
  // stability bound; multigrid, which has none, the top of its range).
  virtual double muBound() const = 0;
  // Changes μ, keeping the current field. ParameterError, with mu_rule.hpp's sentence, for a μ
  // outside the solver's range on its input.
  virtual void setMu(double mu) = 0;
  virtual double mu() const = 0;
  // Back to V = V0, zero iterations.
  virtual void reset() = 0;
  // Host copies of field().
  Field2D readField();    // 2D solvers; throws Error in 3D
  Field3D readField3D();  // 3D solvers; throws Error in 2D
  virtual int width() const = 0;
  virtual int height() const = 0;
  virtual int depth() const = 0;  // 1 for 2D

 protected:
  virtual cl::CommandQueue& queue() = 0;  // where field() lives
};

}  // namespace gvflab
