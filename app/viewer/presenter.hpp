#pragma once
// Moves the solver's field from OpenCL to the GL texture the renderer samples. This is the one
// place that decides, at run time, how: zero-copy through cl_khr_gl_sharing, or a host copy
// (clEnqueueReadBuffer straight into a mapped pixel-unpack buffer, then glTexSubImage2D into
// an RG32F texture made once per field size).
#include <string>

#include "gvflab/cl.hpp"
#include "gvflab/device.hpp"
#include "viewer/gl_resources.hpp"
#include "viewer/renderer.hpp"

namespace gvflab::viewer {

enum class TransferPath { HostCopy, ZeroCopy };

struct TransferChoice {
  TransferPath path = TransferPath::HostCopy;
  std::string description;  // e.g. "host copy (device lacks cl_khr_gl_sharing)"
};

// The decision alone, so it can be tested and shown without a GL context.
TransferChoice chooseTransfer(const DeviceInfo& device);

class Presenter {
 public:
  explicit Presenter(const DeviceInfo& device);  // GL context current
  Presenter(const Presenter&) = delete;
  Presenter& operator=(const Presenter&) = delete;

  // Copies field (float2 interleaved, width * height) into the texture; blocks until done.
  // Throws DeviceError when OpenCL fails.
  void upload(cl::CommandQueue& queue, const cl::Buffer& field, int width, int height);

  FieldTextureRef texture() const { return {texture_.id(), width_, height_}; }
  const TransferChoice& choice() const { return choice_; }
  double lastTransferMs() const { return lastMs_; }
  double meanTransferMs() const { return meanMs_; }
  // max |V| of the last uploaded field, found while it passes through host memory.
  float maxMagnitude() const { return maxMagnitude_; }

 private:
  void resize(int width, int height);

  TransferChoice choice_;
  GlTexture texture_;
  GlBuffer unpackBuffer_;
  int width_ = 0, height_ = 0;
  double lastMs_ = 0, meanMs_ = 0;
  long uploads_ = 0;
  float maxMagnitude_ = 0;
};

}  // namespace gvflab::viewer
