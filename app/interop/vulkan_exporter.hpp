#pragma once
// Vulkan as the vendor-neutral allocator of memory that OpenGL and OpenCL can both import:
// a device-local buffer and binary semaphores, each exported as an opaque POSIX fd
// (VK_KHR_external_memory_fd, VK_KHR_external_semaphore_fd). Built only where CMake found
// Vulkan (GVFLAB_HAS_VULKAN); elsewhere the constructor throws DeviceError saying so.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "unique_fd.hpp"

namespace gvflab::interop {

struct VulkanDevice;  // instance + device (+ the entry points), shared by what it made

using DeviceUuid = std::array<std::uint8_t, 16>;

class ExportedBuffer {
 public:
  ~ExportedBuffer();
  ExportedBuffer(const ExportedBuffer&) = delete;
  ExportedBuffer& operator=(const ExportedBuffer&) = delete;
  std::size_t bytes() const { return bytes_; }
  std::uint64_t allocationBytes() const { return allocationBytes_; }
  bool dedicated() const { return dedicated_; }
  // A new descriptor for the memory each call (one per importer: imports take ownership).
  UniqueFd exportFd() const;

 private:
  friend class VulkanExporter;
  ExportedBuffer() = default;
  std::shared_ptr<VulkanDevice> device_;
  std::uint64_t buffer_ = 0, memory_ = 0;  // VkBuffer, VkDeviceMemory
  std::size_t bytes_ = 0;
  std::uint64_t allocationBytes_ = 0;
  bool dedicated_ = false;
};

class ExportedSemaphore {
 public:
  ~ExportedSemaphore();
  ExportedSemaphore(const ExportedSemaphore&) = delete;
  ExportedSemaphore& operator=(const ExportedSemaphore&) = delete;
  UniqueFd exportFd() const;

 private:
  friend class VulkanExporter;
  ExportedSemaphore() = default;
  std::shared_ptr<VulkanDevice> device_;
  std::uint64_t semaphore_ = 0;  // VkSemaphore
};

class VulkanExporter {
 public:
  // uuid: the OpenCL device's (cl_khr_device_uuid), so the memory lives on the same GPU;
  // nullopt: the first device with the fd extensions. Throws DeviceError with the reason.
  explicit VulkanExporter(const std::optional<DeviceUuid>& uuid);
  ~VulkanExporter();
  VulkanExporter(const VulkanExporter&) = delete;
  VulkanExporter& operator=(const VulkanExporter&) = delete;

  const std::string& deviceName() const;
  std::unique_ptr<ExportedBuffer> exportBuffer(std::size_t bytes);
  std::unique_ptr<ExportedSemaphore> exportSemaphore();

 private:
  std::shared_ptr<VulkanDevice> device_;
};

}  // namespace gvflab::interop
