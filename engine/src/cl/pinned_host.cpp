#include "gvflab/pinned_host.hpp"

#include <utility>

#include "gvflab/device.hpp"

namespace gvflab {

PinnedHostBuffer::PinnedHostBuffer(ComputeContext& ctx, std::size_t bytes)
    : queue_(ctx.queue()), bytes_(bytes) {
  try {
    buffer_ = cl::Buffer(ctx.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
    data_ = queue_.enqueueMapBuffer(buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
  } catch (const cl::Error& e) {
    rethrowClError(e, "allocating " + std::to_string(bytes) + " bytes of pinned host memory");
  }
}

PinnedHostBuffer::~PinnedHostBuffer() { release(); }

PinnedHostBuffer::PinnedHostBuffer(PinnedHostBuffer&& other) noexcept { *this = std::move(other); }

PinnedHostBuffer& PinnedHostBuffer::operator=(PinnedHostBuffer&& other) noexcept {
  if (this != &other) {
    release();
    queue_ = std::move(other.queue_);
    buffer_ = std::move(other.buffer_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void PinnedHostBuffer::release() noexcept {
  if (!data_) return;
  try {
    queue_.enqueueUnmapMemObject(buffer_, data_);
    queue_.finish();
  } catch (...) {  // a lost device: the driver frees the buffer with the context
  }
  data_ = nullptr;
}

}  // namespace gvflab
