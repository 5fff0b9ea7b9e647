#include "viewer/render/presenter.hpp"

#include <CL/cl_ext.h>

#include <algorithm>
#include <optional>

#include "external_field_buffer.hpp"
#include "gvflab/error.hpp"
#include "gvflab/profiler.hpp"
#include "vulkan_exporter.hpp"

namespace gvflab::viewer {

Presenter::~Presenter() = default;

Presenter::Presenter(TransferChoice choice, cl::Context* sharingContext)
    // Nearest: each screen pixel shows one field sample, and |V| is not blurred by filtering.
    : choice_(std::move(choice)), texture_(makeTexture(GL_NEAREST)), unpackBuffer_(makeBuffer()) {
  if (choice_.path != TransferPath::HostCopy) {
    if (!sharingContext) throw DeviceError("Zero-copy display needs the OpenCL context.");
    sharingContext_ = *sharingContext;
  }
}

void Presenter::resize(int width, int height) {
  uploadTexture(texture_, width_, height_, GL_RG32F, GL_RG, GL_FLOAT, width, height, nullptr);
  shared_.reset();
  external_.reset();
  if (choice_.path == TransferPath::ZeroCopy) {
    try {
      // Wrapped once per size; OpenCL writes it every frame from then on.
      shared_ =
          std::make_unique<SharedFieldTexture>(sharingContext_, texture_.id(), choice_.glEvent);
    } catch (const Error& e) {
      fallBackToHostCopy(e.what());
    }
  } else if (choice_.path == TransferPath::ExternalMemory) {
    try {
      // One shared allocation per size, on the OpenCL device's GPU.
      cl::Device device = sharingContext_.getInfo<CL_CONTEXT_DEVICES>().front();
      if (!vulkan_) {
        std::optional<interop::DeviceUuid> uuid;
        interop::DeviceUuid u{};
        if (clGetDeviceInfo(device(), CL_DEVICE_UUID_KHR, u.size(), u.data(), nullptr) ==
            CL_SUCCESS)
          uuid = u;
        vulkan_ = std::make_unique<interop::VulkanExporter>(uuid);
      }
      external_ = std::make_unique<interop::ExternalFieldBuffer>(
          *vulkan_, qtGlLoader(), sharingContext_, device,
          static_cast<std::size_t>(width) * height * 2 * sizeof(float), choice_.semaphores);
    } catch (const Error& e) {
      fallBackToHostCopy(e.what());
    }
  }
}

void Presenter::fallBackToHostCopy(const std::string& why) {
  // Keep showing the field: the host copy for good, and the panel says why.
  shared_.reset();
  external_.reset();
  choice_ = {TransferPath::HostCopy, false, false, "host copy (zero-copy failed: " + why + ")"};
}

int Presenter::hostRefreshInterval(long pixels) {
  return static_cast<int>(std::max(16L, pixels / (1L << 17)));
}

void Presenter::readHost(cl::CommandQueue& queue, const cl::Buffer& field, int width, int height) {
  host_.resize(static_cast<std::size_t>(width) * height * 2);
  try {
    queue.enqueueReadBuffer(field, CL_TRUE, 0, host_.size() * sizeof(float), host_.data());
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the field for display");
  }
  ++totals_.hostFieldCopies;
}

void Presenter::enqueueRange(cl::CommandQueue& queue, const cl::Buffer& field, int width,
                             int height) {
  // The legend's range on the device: two small launches and 8 bytes, collected when asked.
  const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
  if (!reduction_ || reductionContext_ != context()) {
    reduction_.reset();
    reduction_ =
        std::make_unique<MagnitudeRangeReduction>(context, queue.getInfo<CL_QUEUE_DEVICE>());
    reductionContext_ = context();
  }
  reduction_->enqueue(queue, field, static_cast<std::size_t>(width) * height);
}

MagnitudeRange Presenter::range() const {
  return reduction_ ? reduction_->result() : MagnitudeRange{};
}

std::optional<std::array<float, 2>> Presenter::vectorAt(int x, int y) {
  if (!lastField_() || x < 0 || y < 0 || x >= width_ || y >= height_) return std::nullopt;
  if (probe_.x == x && probe_.y == y && probe_.upload == uploads_) return probe_.v;
  float v[2] = {0, 0};
  try {
    lastQueue_.enqueueReadBuffer(
        lastField_, CL_TRUE, (static_cast<std::size_t>(y) * width_ + x) * sizeof v, sizeof v, v);
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the field under the cursor");
  }
  probe_ = {x, y, uploads_, {v[0], v[1]}};
  return probe_.v;
}

void Presenter::forgetField() {
  lastField_ = cl::Buffer();
  probe_ = {};
}

void Presenter::upload(cl::CommandQueue& queue, const cl::Buffer& field, int width, int height) {
  auto start = std::chrono::steady_clock::now();
  const bool resized = width != width_ || height != height_;
  if (resized) resize(width, height);
  if (shared_ || external_) {
    try {
      if (shared_)
        shared_->fill(queue, field, width, height);
      else
        external_->fill(queue, field, texture_.id(), width, height);
    } catch (const Error& e) {
      fallBackToHostCopy(e.what());
      uploadThroughHost(queue, field, width, height);
    }
    // The whole field in host memory only while wanted: at once when asked, then now and then.
    const std::size_t values = static_cast<std::size_t>(width) * height * 2;
    if ((shared_ || external_) && hostWanted_ &&
        (host_.size() != values ||
         uploads_ % hostRefreshInterval(static_cast<long>(width) * height) == 0)) {
      auto readStart = std::chrono::steady_clock::now();
      readHost(queue, field, width, height);
      if (!resized) totals_.readBackMs += msSince(readStart);
    }
  } else {
    uploadThroughHost(queue, field, width, height);
  }
  if (!hostWanted_ && !host_.empty()) std::vector<float>().swap(host_);
  enqueueRange(queue, field, width, height);
  lastQueue_ = queue;
  lastField_ = field;
  lastMs_ = msSince(start);
  ++uploads_;
  if (!resized) {  // a new size sets the path up (the Vulkan allocation...): not per frame
    ++totals_.uploads;
    totals_.ms += lastMs_;
  }
  // Exponential mean over roughly the last 60 uploads.
  double a = uploads_ < 60 ? 1.0 / uploads_ : 1.0 / 60;
  meanMs_ += a * (lastMs_ - meanMs_);
}

void Presenter::uploadThroughHost(cl::CommandQueue& queue, const cl::Buffer& field, int width,
                                  int height) {
  auto& f = gl();
  const std::size_t count = static_cast<std::size_t>(width) * height;
  const auto bytes = static_cast<GLsizeiptr>(count * 2 * sizeof(float));

  f.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, unpackBuffer_.id());
  // Orphaning gives fresh storage, so mapping never waits for last frame's upload.
  f.glBufferData(GL_PIXEL_UNPACK_BUFFER, bytes, nullptr, GL_STREAM_DRAW);
  void* mapped =
      f.glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, bytes, GL_MAP_READ_BIT | GL_MAP_WRITE_BIT);
  if (!mapped) {
    f.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    throw DeviceError("Could not map the OpenGL pixel buffer for the field upload.");
  }
  try {
    queue.enqueueReadBuffer(field, CL_TRUE, 0, static_cast<std::size_t>(bytes), mapped);
  } catch (const cl::Error& e) {
    f.glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
    f.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    rethrowClError(e, "reading the field for display");
  }
  if (hostWanted_) {  // for the streamlines; the readouts come from the device
    const float* v = static_cast<const float*>(mapped);
    host_.assign(v, v + 2 * count);
    ++totals_.hostFieldCopies;
  }
  f.glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);

  f.glBindTexture(GL_TEXTURE_2D, texture_.id());
  f.glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  f.glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RG, GL_FLOAT, nullptr);
  f.glBindTexture(GL_TEXTURE_2D, 0);
  f.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

}  // namespace gvflab::viewer
