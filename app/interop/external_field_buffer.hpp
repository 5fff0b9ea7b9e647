#pragma once
// The external-memory CL->GL path: one Vulkan allocation imported by OpenGL (a buffer object,
// glImportMemoryFdEXT + glBufferStorageMemEXT) and by OpenCL (clCreateBufferWithProperties,
// CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR). Each frame OpenCL copies the field into it and
// GL copies it into the display texture (bound as the pixel-unpack buffer): both copies stay
// on the GPU, nothing crosses to the host.
// Synchronisation, per frame, with two exported binary semaphores where both sides import
// them (cl_khr_external_semaphore_opaque_fd, GL_EXT_semaphore_fd): OpenCL waits for "GL
// done" (from the second frame on), copies, signals "CL done"; GL waits for "CL done",
// uploads, signals "GL done". The host waits for nothing. Without semaphores, the cheapest
// correct fences: the host waits for the CL copy's event, and for a GL fence behind the upload
// before OpenCL writes the memory again.
#include <cstddef>
#include <memory>

#include "gl_proc.hpp"
#include "gvflab/cl.hpp"

namespace gvflab::interop {

class VulkanExporter;

class ExternalFieldBuffer {
 public:
  // GL context current; context/device: the OpenCL side (same GPU as the exporter's).
  // bytes: width * height float2. Throws DeviceError with the step that failed.
  ExternalFieldBuffer(VulkanExporter& exporter, const GlProcLoader& load,
                      const cl::Context& context, const cl::Device& device, std::size_t bytes,
                      bool semaphores);
  ~ExternalFieldBuffer();
  ExternalFieldBuffer(const ExternalFieldBuffer&) = delete;
  ExternalFieldBuffer& operator=(const ExternalFieldBuffer&) = delete;

  // Copies field (width * height float2) into texture (RG32F, that size, allocated by the
  // caller), GL context current. Throws DeviceError.
  void fill(cl::CommandQueue& queue, const cl::Buffer& field, unsigned int texture, int width,
            int height);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  bool semaphores_;
};

}  // namespace gvflab::interop
