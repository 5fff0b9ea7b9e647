#pragma once
// A headless OpenGL context through EGL (device platform, as on GPU servers without a display),
// for tests. libEGL is opened at run time, so the tests link no EGL library; Skip carries the
// reason when no EGL, no display or no suitable context exists.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gvflab::test {

struct Skip : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class EglHeadless {
 public:
  // accept: called with the context current (its proc loader); false tries the next display.
  explicit EglHeadless(
      const std::function<bool(const std::function<void*(const char*)>&)>& accept) {
    lib_ = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib_) throw Skip("libEGL.so.1 is not installed");
    getProc_ = reinterpret_cast<PFNEGLGETPROCADDRESSPROC>(dlsym(lib_, "eglGetProcAddress"));
    if (!getProc_) throw Skip("libEGL has no eglGetProcAddress");
    load(initialize_, "eglInitialize");
    load(terminate_, "eglTerminate");
    load(bindApi_, "eglBindAPI");
    load(chooseConfig_, "eglChooseConfig");
    load(createContext_, "eglCreateContext");
    load(destroyContext_, "eglDestroyContext");
    load(createPbuffer_, "eglCreatePbufferSurface");
    load(destroySurface_, "eglDestroySurface");
    load(makeCurrent_, "eglMakeCurrent");
    load(getDisplay_, "eglGetDisplay");

    std::vector<EGLDisplay> displays;
    auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(getProc_("eglQueryDevicesEXT"));
    auto platformDisplay =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(getProc_("eglGetPlatformDisplayEXT"));
    if (queryDevices && platformDisplay) {
      EGLDeviceEXT devices[8];
      EGLint n = 0;
      if (queryDevices(8, devices, &n))
        for (EGLint i = 0; i < n; ++i)
          displays.push_back(platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr));
    }
    displays.push_back(getDisplay_(EGL_DEFAULT_DISPLAY));
    std::function<void*(const char*)> loader = [p = getProc_](const char* name) {
      return reinterpret_cast<void*>(p(name));
    };
    for (EGLDisplay d : displays) {
      if (d == EGL_NO_DISPLAY || !open(d)) continue;
      if (accept(loader)) return;
      close();
    }
    throw Skip("no EGL display gives an OpenGL 3.3 context with the extensions needed");
  }
  ~EglHeadless() {
    close();
    if (lib_) dlclose(lib_);
  }
  EglHeadless(const EglHeadless&) = delete;
  EglHeadless& operator=(const EglHeadless&) = delete;

  void* proc(const char* name) const { return reinterpret_cast<void*>(getProc_(name)); }

 private:
  template <class F>
  void load(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib_, name));
    if (!f) throw Skip(std::string("libEGL has no ") + name);
  }
  bool open(EGLDisplay d) {
    EGLint major = 0, minor = 0;
    if (!initialize_(d, &major, &minor)) return false;
    display_ = d;
    const EGLint configAttribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                    EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config;
    EGLint count = 0;
    if (!bindApi_(EGL_OPENGL_API) || !chooseConfig_(d, configAttribs, &config, 1, &count) ||
        count < 1)
      return close(), false;
    const EGLint contextAttribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                     3,
                                     EGL_CONTEXT_MINOR_VERSION,
                                     3,
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                     EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                     EGL_NONE};
    context_ = createContext_(d, config, EGL_NO_CONTEXT, contextAttribs);
    const EGLint pbufferAttribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    surface_ = createPbuffer_(d, config, pbufferAttribs);
    if (context_ == EGL_NO_CONTEXT || surface_ == EGL_NO_SURFACE ||
        !makeCurrent_(d, surface_, surface_, context_))
      return close(), false;
    return true;
  }
  void close() {
    if (display_ == EGL_NO_DISPLAY) return;
    makeCurrent_(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (surface_ != EGL_NO_SURFACE) destroySurface_(display_, surface_);
    if (context_ != EGL_NO_CONTEXT) destroyContext_(display_, context_);
    terminate_(display_);
    display_ = EGL_NO_DISPLAY;
    surface_ = EGL_NO_SURFACE;
    context_ = EGL_NO_CONTEXT;
  }

  void* lib_ = nullptr;
  PFNEGLGETPROCADDRESSPROC getProc_ = nullptr;
  PFNEGLINITIALIZEPROC initialize_ = nullptr;
  PFNEGLTERMINATEPROC terminate_ = nullptr;
  PFNEGLBINDAPIPROC bindApi_ = nullptr;
  PFNEGLCHOOSECONFIGPROC chooseConfig_ = nullptr;
  PFNEGLCREATECONTEXTPROC createContext_ = nullptr;
  PFNEGLDESTROYCONTEXTPROC destroyContext_ = nullptr;
  PFNEGLCREATEPBUFFERSURFACEPROC createPbuffer_ = nullptr;
  PFNEGLDESTROYSURFACEPROC destroySurface_ = nullptr;
  PFNEGLMAKECURRENTPROC makeCurrent_ = nullptr;
  PFNEGLGETDISPLAYPROC getDisplay_ = nullptr;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLSurface surface_ = EGL_NO_SURFACE;
  EGLContext context_ = EGL_NO_CONTEXT;
};

}  // namespace gvflab::test
