#include "viewer/render/offscreen_target.hpp"

#include "gvflab/error.hpp"
#include "viewer/render/gl_driver_pin.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/render/surface_format.hpp"

namespace gvflab::viewer {

OffscreenTarget::OffscreenTarget(int width, int height) : width_(width), height_(height) {
  surface_ = std::make_unique<QOffscreenSurface>();
  surface_->setFormat(viewerSurfaceFormat());
  surface_->create();
  context_ = std::make_unique<QOpenGLContext>();
  context_->setFormat(viewerSurfaceFormat());
  if (!context_->create() || !context_->makeCurrent(surface_.get()) ||
      context_->format().version() < qMakePair(3, 3))
    throw DeviceError(
        "No OpenGL 3.3 core context for offscreen rendering. Headless recording needs a display "
        "server with OpenGL: run it under 'xvfb-run -a' (Debian package xvfb) on a machine "
        "without X.");
  pinGlDriverModules();
  fbo_ = std::make_unique<QOpenGLFramebufferObject>(width, height);
  if (!fbo_->isValid())
    throw DeviceError("Could not create a " + std::to_string(width) + "x" + std::to_string(height) +
                      " offscreen framebuffer.");
}

OffscreenTarget::OffscreenTarget(int width, int height, InCurrentContext)
    : width_(width), height_(height) {
  if (!QOpenGLContext::currentContext())
    throw DeviceError("No current OpenGL context for an offscreen framebuffer.");
  fbo_ = std::make_unique<QOpenGLFramebufferObject>(width, height);
  if (!fbo_->isValid())
    throw DeviceError("Could not create a " + std::to_string(width) + "x" + std::to_string(height) +
                      " offscreen framebuffer.");
}

OffscreenTarget::~OffscreenTarget() {
  if (!context_) return;  // fbo_ goes with the caller's context current
  context_->makeCurrent(surface_.get());
  fbo_.reset();
  context_->doneCurrent();
}

void OffscreenTarget::bind() {
  if (context_) context_->makeCurrent(surface_.get());
  fbo_->bind();
}

QImage OffscreenTarget::image() {
  return fbo_->toImage(/*flipped=*/true)
      .convertToFormat(QImage::Format_RGB888);  // GL rows are bottom-up
}

}  // namespace gvflab::viewer
