#pragma once
// Host memory that transfers run from at the bus's full speed: a CL_MEM_ALLOC_HOST_PTR buffer
// (page-locked by GPU drivers) kept mapped for the object's life. Reads into pageable memory
// go through a driver staging copy, which costs a small transfer several microseconds.
#include <cstddef>

#include "gvflab/cl.hpp"

namespace gvflab {

class ComputeContext;

class PinnedHostBuffer {
 public:
  PinnedHostBuffer() = default;
  PinnedHostBuffer(ComputeContext& ctx, std::size_t bytes);
  ~PinnedHostBuffer();
  PinnedHostBuffer(PinnedHostBuffer&& other) noexcept;
  PinnedHostBuffer& operator=(PinnedHostBuffer&& other) noexcept;
  PinnedHostBuffer(const PinnedHostBuffer&) = delete;
  PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;

  template <class T>
  T* as(std::size_t byteOffset = 0) {
    return reinterpret_cast<T*>(static_cast<char*>(data_) + byteOffset);
  }
  std::size_t size() const { return bytes_; }

 private:
  void release() noexcept;
  cl::CommandQueue queue_;
  cl::Buffer buffer_;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace gvflab
