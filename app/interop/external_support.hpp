#pragma once
// What the external-memory CL->GL path needs from each side, queried without side effects.

#include "gl_proc.hpp"

namespace gvflab::interop {

// The GL context's half (GL_EXT_memory_object_fd, GL_EXT_semaphore_fd). GL context current.
struct GlExternalSupport {
  bool memoryObjectFd = false;
  bool semaphoreFd = false;
};
GlExternalSupport queryGlExternalSupport(const GlProcLoader& load);

// Whether this build has the Vulkan allocator (CMake found libvulkan-dev).
bool vulkanBuiltIn();

}  // namespace gvflab::interop
