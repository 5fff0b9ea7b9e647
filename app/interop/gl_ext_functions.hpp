#pragma once
// The GL functions the interop code calls, loaded once per use through a GlProcLoader.
// Internal to app/interop: its public headers stay free of GL headers, so the Qt viewer
// (which has its own GL headers) can include them.
#include <GL/gl.h>
#include <GL/glext.h>

#include "gl_proc.hpp"

namespace gvflab::interop {

// GL 1.x functions have no PFN typedefs: their types come from the prototypes (never linked).
struct GlExtFunctions {
  PFNGLGETSTRINGIPROC GetStringi = nullptr;
  decltype(&::glGetIntegerv) GetIntegerv = nullptr;
  decltype(&::glGetError) GetError = nullptr;
  PFNGLGENBUFFERSPROC GenBuffers = nullptr;
  PFNGLDELETEBUFFERSPROC DeleteBuffers = nullptr;
  PFNGLBINDBUFFERPROC BindBuffer = nullptr;
  decltype(&::glBindTexture) BindTexture = nullptr;
  decltype(&::glPixelStorei) PixelStorei = nullptr;
  decltype(&::glTexSubImage2D) TexSubImage2D = nullptr;
  decltype(&::glFlush) Flush = nullptr;
  PFNGLFENCESYNCPROC FenceSync = nullptr;
  PFNGLCLIENTWAITSYNCPROC ClientWaitSync = nullptr;
  PFNGLDELETESYNCPROC DeleteSync = nullptr;
  // GL_EXT_memory_object(_fd)
  PFNGLCREATEMEMORYOBJECTSEXTPROC CreateMemoryObjectsEXT = nullptr;
  PFNGLDELETEMEMORYOBJECTSEXTPROC DeleteMemoryObjectsEXT = nullptr;
  PFNGLMEMORYOBJECTPARAMETERIVEXTPROC MemoryObjectParameterivEXT = nullptr;
  PFNGLIMPORTMEMORYFDEXTPROC ImportMemoryFdEXT = nullptr;
  PFNGLBUFFERSTORAGEMEMEXTPROC BufferStorageMemEXT = nullptr;
  // GL_EXT_semaphore(_fd)
  PFNGLGENSEMAPHORESEXTPROC GenSemaphoresEXT = nullptr;
  PFNGLDELETESEMAPHORESEXTPROC DeleteSemaphoresEXT = nullptr;
  PFNGLIMPORTSEMAPHOREFDEXTPROC ImportSemaphoreFdEXT = nullptr;
  PFNGLWAITSEMAPHOREEXTPROC WaitSemaphoreEXT = nullptr;
  PFNGLSIGNALSEMAPHOREEXTPROC SignalSemaphoreEXT = nullptr;

  // Throws DeviceError naming the first missing core function; extension ones may stay null.
  explicit GlExtFunctions(const GlProcLoader& load);
  bool hasExtension(const char* name) const;
};

}  // namespace gvflab::interop
