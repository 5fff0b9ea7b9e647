#pragma once
// Moves the solver's field from OpenCL to the GL texture the renderer samples, by the path
// chooseTransfer (gl_sharing.hpp) picked at run time: zero-copy (OpenCL writes the texture,
// made once per field size), external memory (a Vulkan allocation shared by OpenCL and GL,
// copied into the texture on the GPU; made once per field size) or a host copy (clEnqueueReadBuffer
// straight into a mapped pixel-unpack buffer, then glTexSubImage2D into an RG32F texture made once
// per field size).
// The readouts never need the field in host memory: the colour range is reduced on the device
// at each upload and the cursor's pixel read alone (8 bytes); the whole field comes to the host
// only while a client asks for it (setHostFieldWanted: the streamlines, traced on the host).
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/device.hpp"
#include "gvflab/magnitude_range.hpp"
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
  // the whole CL->GL cost, and the part of it spent copying the whole field to host memory
  // for the readouts (only while setHostFieldWanted; on the zero-copy paths every
  // hostRefreshInterval uploads), and how many such copies there were.
  struct Totals {
    long uploads = 0;
    double ms = 0, readBackMs = 0;
    long hostFieldCopies = 0;
  };
  const Totals& totals() const { return totals_; }
  // The smallest and largest |V| of the last uploaded field (0 before any), reduced on the
  // device at each upload; the wait for its 8 bytes, if still running, falls on the first call.
  float maxMagnitude() const { return range().max; }
  float minMagnitude() const { return range().min; }
  // The vector at pixel (x, y) of the last uploaded field, read from the device (one float2;
  // again only once the pixel or the field changed); nothing outside the field or before an
  // upload. The buffer given to upload() must still hold that field (the viewer steps the
  // solver only between its readout and its next upload). Throws DeviceError.
  std::optional<std::array<float, 2>> vectorAt(int x, int y);
  // Lets go of the last uploaded buffer (its owner is about to free it); vectorAt then reads
  // nothing until the next upload.
  void forgetField();
  // Whether the whole field is wanted in host memory (hostField), e.g. for the streamlines.
  // Off (the default), no upload copies it there on any path.
  void setHostFieldWanted(bool wanted) { hostWanted_ = wanted; }
  // The field in host memory (float2 per pixel) while wanted: every upload on the host-copy
  // path, every hostRefreshInterval uploads on the zero-copy paths; empty when not wanted.
  const std::vector<float>& hostField() const { return host_; }
  // 16 uploads, more for large fields (one uploaded frame in 32 at 2048², 128 at 4096²), so
  // the read-back stays out of the 95th-percentile frame time: on the H200 one frame in 16 at
  // 2048² (6%) carried a ~15 ms read-back and set the p95 (24.5 ms).
  static int hostRefreshInterval(long pixels);

 private:
  void resize(int width, int height);
  void uploadThroughHost(cl::CommandQueue& queue, const cl::Buffer& field, int width, int height);
  void readHost(cl::CommandQueue& queue, const cl::Buffer& field, int width, int height);
  void enqueueRange(cl::CommandQueue& queue, const cl::Buffer& field, int width, int height);
  MagnitudeRange range() const;
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
  bool hostWanted_ = false;
  // The device-side readouts: the |V| range (made at the first upload, for the queue's
  // context), and the last field uploaded with its queue for the cursor's pixel.
  std::unique_ptr<MagnitudeRangeReduction> reduction_;
  cl_context reductionContext_ = nullptr;
  cl::CommandQueue lastQueue_;
  cl::Buffer lastField_;
  struct Probe {
    int x = -1, y = -1;
    long upload = -1;
    std::array<float, 2> v{};
  };
  Probe probe_;
};

}  // namespace gvflab::viewer
