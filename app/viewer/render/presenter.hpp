#pragma once
// Moves the solver's field from OpenCL to the GL texture the renderer samples, by the path
// chooseTransfer (gl_sharing.hpp) picked at run time: zero-copy (OpenCL writes the texture,
// made once per field size), external memory (a Vulkan allocation shared by OpenCL and GL,
// copied into the texture on the GPU; made once per field size) or a host copy (clEnqueueReadBuffer
// straight into a mapped pixel-unpack buffer, then glTexSubImage2D into an RG32F texture made once
// per field size).
#include <memory>
#include <string>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/device.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/render/gl_sharing.hpp"
#include "viewer/render/renderer.hpp"

namespace gvflab::interop {
class ExternalFieldBuffer;
class VulkanExporter;
}  // namespace gvflab::interop

namespace gvflab::viewer {

class Presenter {
 public:
  // GL context current. A ZeroCopy choice needs sharingContext: the OpenCL context created
  // with glSharingProperties for this GL context; ExternalMemory needs the session's context.
  explicit Presenter(TransferChoice choice, cl::Context* sharingContext = nullptr);
  explicit Presenter(const DeviceInfo& device) : Presenter(chooseTransfer(device)) {}
  ~Presenter();
  Presenter(const Presenter&) = delete;
  Presenter& operator=(const Presenter&) = delete;

  // Copies field (float2 interleaved, width * height) into the texture; blocks until done.
  // Throws DeviceError when OpenCL fails.
  void upload(cl::CommandQueue& queue, const cl::Buffer& field, int width, int height);

  FieldTextureRef texture() const { return {texture_.id(), width_, height_}; }
  const TransferChoice& choice() const { return choice_; }
  double lastTransferMs() const { return lastMs_; }
  double meanTransferMs() const { return meanMs_; }
  // Over the uploads so far that kept the size (for --stats; a new size sets the path up):
  // the whole CL->GL cost, and the part of it spent on the zero-copy paths' periodic read-back
  // to host memory (hostRefreshInterval).
  struct Totals {
    long uploads = 0;
    double ms = 0, readBackMs = 0;
  };
  const Totals& totals() const { return totals_; }
  // max |V| of the last uploaded field, found while it passes through host memory (zero-copy
  // paths: refreshed from a read-back every hostRefreshInterval uploads).
  float maxMagnitude() const { return maxMagnitude_; }
  // The field in host memory (float2 per pixel) for the cursor readout and the streamlines;
  // same refresh rule as maxMagnitude().
  const std::vector<float>& hostField() const { return host_; }
  // 16 uploads, more for large fields (one uploaded frame in 32 at 2048², 128 at 4096²), so
  // the read-back and the max pass stay out of the 95th-percentile frame time: on the H200
  // one frame in 16 at 2048² (6%) carried a ~15 ms read-back and set the p95 (24.5 ms).
  static int hostRefreshInterval(long pixels);

 private:
  void resize(int width, int height);
  void uploadThroughHost(cl::CommandQueue& queue, const cl::Buffer& field, int width, int height);
  void readHost(cl::CommandQueue& queue, const cl::Buffer& field, int width, int height);
  void updateMax();
  void fallBackToHostCopy(const std::string& why);

  TransferChoice choice_;
  cl::Context sharingContext_;
  std::unique_ptr<SharedFieldTexture> shared_;
  std::unique_ptr<interop::VulkanExporter> vulkan_;  // made at the first external-memory size
  std::unique_ptr<interop::ExternalFieldBuffer> external_;
  std::vector<float> host_;
  GlTexture texture_;
  GlBuffer unpackBuffer_;
  int width_ = 0, height_ = 0;
  double lastMs_ = 0, meanMs_ = 0;
  long uploads_ = 0;
  Totals totals_;
  float maxMagnitude_ = 0;
};

}  // namespace gvflab::viewer
