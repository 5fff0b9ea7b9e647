#pragma once
// The GL surface every view of the viewer draws into (window, offscreen figures, recordings).
#include <QSurfaceFormat>

namespace gvflab::viewer {

// OpenGL 3.3 core, no depth buffer.
QSurfaceFormat viewerSurfaceFormat();

}  // namespace gvflab::viewer
