#include "viewer/presenter.hpp"

#include <chrono>
#include <cmath>

#include "gvflab/error.hpp"

namespace gvflab::viewer {

TransferChoice chooseTransfer(const DeviceInfo& device) {
  if (device.hasExtension("cl_khr_gl_sharing"))
    return {TransferPath::HostCopy,
            "host copy (device has cl_khr_gl_sharing; zero-copy path not implemented yet)"};
  return {TransferPath::HostCopy, "host copy (device lacks cl_khr_gl_sharing)"};
}

Presenter::Presenter(const DeviceInfo& device)
    : choice_(chooseTransfer(device)), texture_(makeTexture()), unpackBuffer_(makeBuffer()) {
  auto& f = gl();
  f.glBindTexture(GL_TEXTURE_2D, texture_.id());
  // Nearest: each screen pixel shows one field sample, and |V| is not blurred by filtering.
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  f.glBindTexture(GL_TEXTURE_2D, 0);
}

void Presenter::resize(int width, int height) {
  auto& f = gl();
  f.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  f.glBindTexture(GL_TEXTURE_2D, texture_.id());
  f.glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32F, width, height, 0, GL_RG, GL_FLOAT, nullptr);
  f.glBindTexture(GL_TEXTURE_2D, 0);
  width_ = width;
  height_ = height;
}

void Presenter::upload(cl::CommandQueue& queue, const cl::Buffer& field, int width, int height) {
  auto start = std::chrono::steady_clock::now();
  if (width != width_ || height != height_) resize(width, height);
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
  // The auto colour range needs max |V|; the data is in host memory now, so it is one pass.
  const float* v = static_cast<const float*>(mapped);
  float max2 = 0;
  for (std::size_t i = 0; i < count; ++i) {
    float m2 = v[2 * i] * v[2 * i] + v[2 * i + 1] * v[2 * i + 1];
    if (m2 > max2) max2 = m2;
  }
  maxMagnitude_ = std::isfinite(max2) ? std::sqrt(max2) : 0.0f;
  f.glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);

  f.glBindTexture(GL_TEXTURE_2D, texture_.id());
  f.glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  f.glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RG, GL_FLOAT, nullptr);
  f.glBindTexture(GL_TEXTURE_2D, 0);
  f.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);

  lastMs_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ++uploads_;
  // Exponential mean over roughly the last 60 uploads.
  double a = uploads_ < 60 ? 1.0 / uploads_ : 1.0 / 60;
  meanMs_ += a * (lastMs_ - meanMs_);
}

}  // namespace gvflab::viewer
