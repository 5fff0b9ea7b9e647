#include "gl_ext_functions.hpp"

#include <cstring>
#include <string>

#include "external_support.hpp"
#include "gvflab/error.hpp"

namespace gvflab::interop {

namespace {
template <class F>
void loadInto(F& f, const GlProcLoader& load, const char* name, bool required) {
  f = reinterpret_cast<F>(load(name));
  if (!f && required) throw DeviceError(std::string("OpenGL lacks ") + name + ".");
}
}  // namespace

GlExtFunctions::GlExtFunctions(const GlProcLoader& load) {
  loadInto(GetStringi, load, "glGetStringi", true);
  loadInto(GetIntegerv, load, "glGetIntegerv", true);
  loadInto(GetError, load, "glGetError", true);
  loadInto(GenBuffers, load, "glGenBuffers", true);
  loadInto(DeleteBuffers, load, "glDeleteBuffers", true);
  loadInto(BindBuffer, load, "glBindBuffer", true);
  loadInto(BindTexture, load, "glBindTexture", true);
  loadInto(PixelStorei, load, "glPixelStorei", true);
  loadInto(TexSubImage2D, load, "glTexSubImage2D", true);
  loadInto(Flush, load, "glFlush", true);
  loadInto(FenceSync, load, "glFenceSync", true);
  loadInto(ClientWaitSync, load, "glClientWaitSync", true);
  loadInto(DeleteSync, load, "glDeleteSync", true);
  loadInto(CreateMemoryObjectsEXT, load, "glCreateMemoryObjectsEXT", false);
  loadInto(DeleteMemoryObjectsEXT, load, "glDeleteMemoryObjectsEXT", false);
  loadInto(MemoryObjectParameterivEXT, load, "glMemoryObjectParameterivEXT", false);
  loadInto(ImportMemoryFdEXT, load, "glImportMemoryFdEXT", false);
  loadInto(BufferStorageMemEXT, load, "glBufferStorageMemEXT", false);
  loadInto(GenSemaphoresEXT, load, "glGenSemaphoresEXT", false);
  loadInto(DeleteSemaphoresEXT, load, "glDeleteSemaphoresEXT", false);
  loadInto(ImportSemaphoreFdEXT, load, "glImportSemaphoreFdEXT", false);
  loadInto(WaitSemaphoreEXT, load, "glWaitSemaphoreEXT", false);
  loadInto(SignalSemaphoreEXT, load, "glSignalSemaphoreEXT", false);
}

bool GlExtFunctions::hasExtension(const char* name) const {
  GLint n = 0;
  GetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i) {
    const auto* e =
        reinterpret_cast<const char*>(GetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
    if (e && std::strcmp(e, name) == 0) return true;
  }
  return false;
}

GlExternalSupport queryGlExternalSupport(const GlProcLoader& load) {
  GlExternalSupport s;
  try {
    GlExtFunctions f(load);
    // An extension counts only with its entry points (drivers have listed one without them).
    s.memoryObjectFd = f.hasExtension("GL_EXT_memory_object_fd") && f.ImportMemoryFdEXT &&
                       f.BufferStorageMemEXT && f.CreateMemoryObjectsEXT;
    s.semaphoreFd = f.hasExtension("GL_EXT_semaphore_fd") && f.ImportSemaphoreFdEXT &&
                    f.WaitSemaphoreEXT && f.SignalSemaphoreEXT;
  } catch (const Error&) {
  }
  return s;
}

}  // namespace gvflab::interop
