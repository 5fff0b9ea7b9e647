#pragma once
// cl_khr_gl_sharing, kept small and per the Khronos specification:
// - the OpenCL context is created with CL_GL_CONTEXT_KHR and CL_GLX_DISPLAY_KHR (GLX) or
//   CL_EGL_DISPLAY_KHR (EGL) naming the viewer's GL context (glSharingProperties);
// - the display texture is created once in GL and wrapped once with clCreateFromGLTexture;
// - each frame: GL work on the texture is fenced (glFenceSync) and, with cl_khr_gl_event, the
//   fence becomes the wait event of clEnqueueAcquireGLObjects (clCreateEventFromGLsyncKHR);
//   without it the host waits for that fence only (glClientWaitSync), not a glFinish. Then the
//   field is copied buffer -> image on the device, clEnqueueReleaseGLObjects, and the host
//   waits for the release event alone (clWaitForEvents) before GL samples the texture.
// Neither development machine has the extension (PoCL, NVIDIA's OpenCL), so what is tested
// here is the decision (chooseTransfer) and the properties; the path itself is exercised only
// where a device offers it.
#include <string>
#include <vector>

#include "external_support.hpp"
#include "gvflab/cl.hpp"
#include "gvflab/device.hpp"

namespace gvflab::viewer {

enum class GlWindowSystem { None, Glx, Egl };

// The native handles of the GL context the viewer draws with (from Qt's native interfaces).
struct GlContextHandles {
  GlWindowSystem system = GlWindowSystem::None;
  void* context = nullptr;  // GLXContext or EGLContext
  void* display = nullptr;  // Display* or EGLDisplay
};

// ZeroCopy: cl_khr_gl_sharing. ExternalMemory: one Vulkan allocation imported by GL and CL
// (app/interop/external_field_buffer.hpp). HostCopy: through a mapped pixel buffer.
enum class TransferPath { HostCopy, ZeroCopy, ExternalMemory };

struct TransferChoice {
  TransferPath path = TransferPath::HostCopy;
  bool glEvent = false;     // zero-copy: cl_khr_gl_event sync (else a GL fence wait)
  bool semaphores = false;  // external memory: exported semaphores (else fences)
  std::string description;  // shown in the panel, e.g. "host copy (device lacks cl_khr_gl_sharing)"
};

// Auto: cl_khr_gl_sharing, else external memory, else the host copy. The others force one
// path (GVFLAB_TRANSFER), falling back to the host copy with the reason when it is missing.
// AfterSharingFailed: Auto once cl_khr_gl_sharing was tried and failed.
enum class TransferRequest { Auto, Host, GlSharing, External, AfterSharingFailed };

// GVFLAB_TRANSFER=host|gl-sharing|external. An unknown value
// gives Auto and a sentence for the UI in problem.
struct TransferEnvironment {
  TransferRequest request = TransferRequest::Auto;
  std::string problem;
};
TransferEnvironment transferFromEnvironment();

// What the GL side offers for the external-memory path: the context's extensions and whether
// this build has the Vulkan allocator.
struct ExternalMemoryGl {
  interop::GlExternalSupport gl;
  bool vulkan = false;
};
// The current Qt GL context's (GL context current).
ExternalMemoryGl currentExternalMemoryGl();
// GL entry points of the current Qt GL context, for app/interop.
interop::GlProcLoader qtGlLoader();

// The decision alone (no GL or CL calls), so it is unit-tested with made-up devices.
TransferChoice chooseTransfer(const DeviceInfo& device, const GlContextHandles& gl = {},
                              const ExternalMemoryGl& external = {},
                              TransferRequest request = TransferRequest::Auto);

// The (name, value) pairs for ComputeContext's extraProperties; empty for GlWindowSystem::None.
std::vector<cl_context_properties> glSharingProperties(const GlContextHandles& gl);

// The current Qt GL context's handles (GLX or EGL); None on other platforms.
GlContextHandles currentGlContextHandles();

// Zero-copy target: one GL texture wrapped as an OpenCL image, filled from a float2 buffer.
class SharedFieldTexture {
 public:
  // context: created with glSharingProperties; texture: an allocated RG32F GL_TEXTURE_2D.
  // Throws DeviceError when OpenCL refuses the texture.
  SharedFieldTexture(cl::Context& context, unsigned int texture, bool glEvent);
  // Copies field (width * height float2) into the texture and waits for the release event.
  void fill(cl::CommandQueue& queue, const cl::Buffer& field, int width, int height);

 private:
  cl::Context context_;
  cl::ImageGL image_;
  bool glEvent_;
};

}  // namespace gvflab::viewer
