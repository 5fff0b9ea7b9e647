#include "viewer/render/gl_sharing.hpp"

#include <CL/cl_gl.h>

#include <QGuiApplication>
#include <QOpenGLContext>
#include <cstdlib>

#include "gvflab/error.hpp"
#include "viewer/render/gl_resources.hpp"

// Qt's native-interface headers need these platforms configured; Debian's Qt 6.4 has both.
#include <QtGui/qguiapplication_platform.h>
#include <QtGui/qopenglcontext_platform.h>

namespace gvflab::viewer {

namespace {

// Empty when cl_khr_gl_sharing can be used, else why not.
std::string whyNoGlSharing(const DeviceInfo& device, const GlContextHandles& gl) {
  if (!device.hasExtension("cl_khr_gl_sharing")) return "device lacks cl_khr_gl_sharing";
  if (gl.system == GlWindowSystem::None || !gl.context || !gl.display)
    return "the GL context is neither GLX nor EGL, so OpenCL cannot share it";
  return {};
}

std::string whyNoExternalMemory(const DeviceInfo& device, const ExternalMemoryGl& external) {
  if (!device.hasExtension("cl_khr_external_memory") ||
      !device.hasExtension("cl_khr_external_memory_opaque_fd"))
    return "device lacks cl_khr_external_memory_opaque_fd";
  if (!external.gl.memoryObjectFd) return "OpenGL lacks GL_EXT_memory_object_fd";
  if (!external.vulkan) return "built without Vulkan";
  return {};
}

TransferChoice glSharing(const DeviceInfo& device, const GlContextHandles& gl) {
  const bool event = device.hasExtension("cl_khr_gl_event");
  const char* api = gl.system == GlWindowSystem::Glx ? "GLX" : "EGL";
  return {TransferPath::ZeroCopy, event, false,
          std::string("zero-copy (cl_khr_gl_sharing, ") + api + ", " +
              (event ? "cl_khr_gl_event sync)" : "GL fence sync)")};
}

TransferChoice externalMemory(const DeviceInfo& device, const ExternalMemoryGl& external) {
  const bool semaphores = device.hasExtension("cl_khr_external_semaphore") &&
                          device.hasExtension("cl_khr_external_semaphore_opaque_fd") &&
                          external.gl.semaphoreFd;
  return {TransferPath::ExternalMemory, false, semaphores,
          std::string("zero-copy (external memory from Vulkan, ") +
              (semaphores ? "semaphore sync)" : "fence sync)")};
}

TransferChoice hostCopy(const std::string& why) {
  return {TransferPath::HostCopy, false, false, "host copy (" + why + ")"};
}

}  // namespace

TransferChoice chooseTransfer(const DeviceInfo& device, const GlContextHandles& gl,
                              const ExternalMemoryGl& external, TransferRequest request) {
  const std::string noSharing = whyNoGlSharing(device, gl);
  const std::string noExternal = whyNoExternalMemory(device, external);
  switch (request) {
    case TransferRequest::Host:
      return hostCopy("GVFLAB_TRANSFER=host");
    case TransferRequest::GlSharing:
      return noSharing.empty() ? glSharing(device, gl)
                               : hostCopy("GVFLAB_TRANSFER=gl-sharing, but " + noSharing);
    case TransferRequest::External:
      return noExternal.empty() ? externalMemory(device, external)
                                : hostCopy("GVFLAB_TRANSFER=external, but " + noExternal);
    case TransferRequest::Auto:
      if (noSharing.empty()) return glSharing(device, gl);
      break;
    case TransferRequest::AfterSharingFailed:
      break;
  }
  if (noExternal.empty()) return externalMemory(device, external);
  const std::string sharing =
      request == TransferRequest::AfterSharingFailed ? "cl_khr_gl_sharing failed" : noSharing;
  return hostCopy(sharing + "; external memory: " + noExternal);
}

TransferEnvironment transferFromEnvironment() {
  TransferEnvironment env;
  const char* v = std::getenv("GVFLAB_TRANSFER");
  if (!v || !*v) return env;
  const std::string s = v;
  if (s == "host")
    env.request = TransferRequest::Host;
  else if (s == "gl-sharing")
    env.request = TransferRequest::GlSharing;
  else if (s == "external")
    env.request = TransferRequest::External;
  else
    env.problem = "GVFLAB_TRANSFER is '" + s +
                  "'; it must be host, gl-sharing or external. The viewer chooses itself.";
  return env;
}

ExternalMemoryGl currentExternalMemoryGl() {
  ExternalMemoryGl e;
  e.vulkan = interop::vulkanBuiltIn();
  if (QOpenGLContext::currentContext()) e.gl = interop::queryGlExternalSupport(qtGlLoader());
  return e;
}

interop::GlProcLoader qtGlLoader() {
  return [](const char* name) {
    QOpenGLContext* ctx = QOpenGLContext::currentContext();
    return ctx ? reinterpret_cast<void*>(ctx->getProcAddress(name)) : nullptr;
  };
}

std::vector<cl_context_properties> glSharingProperties(const GlContextHandles& gl) {
  if (gl.system == GlWindowSystem::None) return {};
  return {CL_GL_CONTEXT_KHR, reinterpret_cast<cl_context_properties>(gl.context),
          gl.system == GlWindowSystem::Glx ? CL_GLX_DISPLAY_KHR : CL_EGL_DISPLAY_KHR,
          reinterpret_cast<cl_context_properties>(gl.display)};
}

GlContextHandles currentGlContextHandles() {
  GlContextHandles h;
  QOpenGLContext* ctx = QOpenGLContext::currentContext();
  if (!ctx) return h;
#if QT_CONFIG(xcb_glx_plugin)
  if (auto* glx = ctx->nativeInterface<QNativeInterface::QGLXContext>()) {
    if (auto* x11 = qGuiApp->nativeInterface<QNativeInterface::QX11Application>()) {
      h.system = GlWindowSystem::Glx;
      h.context = reinterpret_cast<void*>(glx->nativeContext());
      h.display = reinterpret_cast<void*>(x11->display());
      return h;
    }
  }
#endif
#if QT_CONFIG(egl)
  if (auto* egl = ctx->nativeInterface<QNativeInterface::QEGLContext>()) {
    h.system = GlWindowSystem::Egl;
    h.context = reinterpret_cast<void*>(egl->nativeContext());
    h.display = reinterpret_cast<void*>(egl->display());
  }
#endif
  return h;
}

SharedFieldTexture::SharedFieldTexture(cl::Context& context, unsigned int texture, bool glEvent)
    : context_(context), glEvent_(glEvent) {
  try {
    image_ = cl::ImageGL(context, CL_MEM_WRITE_ONLY, GL_TEXTURE_2D, 0, texture);
  } catch (const cl::Error& e) {
    rethrowClError(e, "sharing the display texture with OpenCL (clCreateFromGLTexture)");
  }
}

void SharedFieldTexture::fill(cl::CommandQueue& queue, const cl::Buffer& field, int width,
                              int height) {
  using CreateEventFromSync = cl_event(CL_API_CALL*)(cl_context, cl_GLsync, cl_int*);
  auto& f = gl();
  // GL must be done with the texture before OpenCL writes it (spec: clEnqueueAcquireGLObjects).
  GLsync fence = f.glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  std::vector<cl::Event> waitFor;
  try {
    if (glEvent_) {
      cl::Platform platform(
          context_.getInfo<CL_CONTEXT_DEVICES>().front().getInfo<CL_DEVICE_PLATFORM>());
      static auto create = reinterpret_cast<CreateEventFromSync>(
          clGetExtensionFunctionAddressForPlatform(platform(), "clCreateEventFromGLsyncKHR"));
      cl_int err = CL_SUCCESS;
      cl_event e = create ? create(context_(), reinterpret_cast<cl_GLsync>(fence), &err) : nullptr;
      if (!e) throw cl::Error(create ? err : CL_INVALID_OPERATION, "clCreateEventFromGLsyncKHR");
      waitFor.emplace_back(e);  // cl::Event takes ownership
    } else {
      f.glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64(1000000000));
    }
    std::vector<cl::Memory> objects{image_};
    queue.enqueueAcquireGLObjects(&objects, &waitFor);
    queue.enqueueCopyBufferToImage(
        field, image_, 0, {0, 0, 0},
        {static_cast<std::size_t>(width), static_cast<std::size_t>(height), 1});
    cl::Event released;
    queue.enqueueReleaseGLObjects(&objects, nullptr, &released);
    // GL may sample the texture once the release completed (spec: clEnqueueReleaseGLObjects).
    released.wait();
  } catch (const cl::Error& e) {
    f.glDeleteSync(fence);
    rethrowClError(e, "writing the display texture from OpenCL");
  }
  f.glDeleteSync(fence);
}

}  // namespace gvflab::viewer
