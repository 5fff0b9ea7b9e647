#pragma once
// The solver interface shared by every GVF solver (Euler now, multigrid later).
#include <string>

#include "gvflab/cl.hpp"
#include "gvflab/image.hpp"

namespace gvflab {

class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string name() const = 0;
  // Advances n iterations; kernel events go to the context's profiler.
  virtual void step(int n) = 0;
  // The current field on the device: float2 interleaved, width * height.
  virtual const cl::Buffer& field() const = 0;
  // ε of the multigrid paper (eq. 9), reduced on the device, for the current field.
  virtual double error() = 0;
  virtual long iterations() const = 0;
  // Back to V = V0, zero iterations.
  virtual void reset() = 0;
  virtual Field2D readField() = 0;
  virtual int width() const = 0;
  virtual int height() const = 0;
};

}  // namespace gvflab
