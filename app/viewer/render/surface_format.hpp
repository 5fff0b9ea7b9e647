#pragma once
// The GL surface every view of the viewer draws into (window, offscreen figures, recordings).
#include <QSurfaceFormat>

namespace gvflab::viewer {

// OpenGL 3.3 core, no depth buffer.
inline QSurfaceFormat viewerSurfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(0);
  format.setStencilBufferSize(0);
  format.setSamples(0);  // MSAA halves the frame rate on llvmpipe; arrows read fine without
  return format;
}

}  // namespace gvflab::viewer
