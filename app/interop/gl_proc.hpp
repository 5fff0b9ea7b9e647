#pragma once
// GL entry points are looked up through the caller's loader (Qt's getProcAddress in the viewer,
// eglGetProcAddress in the GPU test), so this library links no GL library and needs no Qt.
#include <functional>

namespace gvflab::interop {

using GlProcLoader = std::function<void*(const char* name)>;

}  // namespace gvflab::interop
