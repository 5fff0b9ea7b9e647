#pragma once
// An offscreen OpenGL 3.3 core context (QOffscreenSurface) with a single-sampled framebuffer
// object of a fixed size: headless recording and screenshots draw into it with the viewer's
// own renderer. Needs a QGuiApplication and a platform with GL (an X server or Xvfb here).
#include <QImage>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <memory>

namespace gvflab::viewer {

class OffscreenTarget {
 public:
  // Throws DeviceError with a sentence when no 3.3 core context can be made.
  OffscreenTarget(int width, int height);
  // Only the framebuffer, in the context current now (the viewer's, so its renderer's GL
  // objects draw into it); that context must be current whenever this one is used or destroyed.
  struct InCurrentContext {};
  OffscreenTarget(int width, int height, InCurrentContext);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  void bind();     // makes the context current (its own) and binds the framebuffer
  QImage image();  // top-down RGB
  GLuint framebuffer() const { return fbo_->handle(); }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  int width_, height_;
  std::unique_ptr<QOffscreenSurface> surface_;
  std::unique_ptr<QOpenGLContext> context_;
  std::unique_ptr<QOpenGLFramebufferObject> fbo_;
};

}  // namespace gvflab::viewer
