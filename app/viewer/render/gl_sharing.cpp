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

TransferChoice chooseTransfer(const DeviceInfo& device, const GlContextHandles& gl,
                              bool forceHostCopy) {
  if (!device.hasExtension("cl_khr_gl_sharing"))
    return {TransferPath::HostCopy, false, "host copy (device lacks cl_khr_gl_sharing)"};
  if (forceHostCopy)
    return {TransferPath::HostCopy, false, "host copy (zero-copy turned off or failed)"};
  if (gl.system == GlWindowSystem::None || !gl.context || !gl.display)
    return {TransferPath::HostCopy, false,
            "host copy (the GL context is neither GLX nor EGL, so OpenCL cannot share it)"};
  const bool event = device.hasExtension("cl_khr_gl_event");
  const char* api = gl.system == GlWindowSystem::Glx ? "GLX" : "EGL";
  return {TransferPath::ZeroCopy, event,
          std::string("zero-copy (cl_khr_gl_sharing, ") + api + ", " +
              (event ? "cl_khr_gl_event sync)" : "GL fence sync)")};
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
      cl::Platform platform(context_.getInfo<CL_CONTEXT_DEVICES>().front().getInfo<CL_DEVICE_PLATFORM>());
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
    queue.enqueueCopyBufferToImage(field, image_, 0, {0, 0, 0},
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
