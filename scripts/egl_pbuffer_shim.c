// LD_PRELOAD shim that lets Qt's eglfs platform run the viewer on a GPU with no display at all
// (the device tool's machines: NVIDIA's EGL offers only the device platform there, no window
// surfaces, and NVIDIA's GLX refuses a non-NVIDIA X server such as Xvfb -- 0 FBConfigs).
// eglfs draws every window into one EGL window surface; this shim hands it a pbuffer of the
// same size instead, so the viewer's whole frame (panels, composition of the GL widget) is
// drawn by the GPU and only the final present is missing (eglSwapBuffers on a pbuffer does
// nothing). Environment:
//   GVFLAB_EGL_PLATFORM=device (default: the first EGL device) | surfaceless (Mesa)
//   QT_QPA_EGLFS_WIDTH, QT_QPA_EGLFS_HEIGHT: the pbuffer's size (also eglfs' screen size)
// Built and used by scripts/gpu-viewer-bundle.sh (run.sh, GVFLAB_DISPLAY=eglfs).
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

static void* next(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "egl_pbuffer_shim: no %s after the shim\n", name);
    abort();
  }
  return f;
}

EGLDisplay eglGetDisplay(EGLNativeDisplayType native) {
  if (native != EGL_DEFAULT_DISPLAY)
    return ((EGLDisplay(*)(EGLNativeDisplayType))next("eglGetDisplay"))(native);
  PFNEGLGETPLATFORMDISPLAYEXTPROC getPlatformDisplay =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  const char* platform = getenv("GVFLAB_EGL_PLATFORM");
  if (platform && strcmp(platform, "surfaceless") == 0)
    return getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  PFNEGLQUERYDEVICESEXTPROC queryDevices =
      (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
  EGLDeviceEXT device;
  EGLint count = 0;
  if (!getPlatformDisplay || !queryDevices || !queryDevices(1, &device, &count) || count < 1) {
    fprintf(stderr, "egl_pbuffer_shim: no EGL device\n");
    return EGL_NO_DISPLAY;
  }
  return getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, device, NULL);
}

// Window configs are asked for; pbuffer configs are what the display has.
EGLBoolean eglChooseConfig(EGLDisplay dpy, const EGLint* attribs, EGLConfig* configs,
                           EGLint size, EGLint* count) {
  EGLint copy[128];
  int n = 0;
  for (; attribs && attribs[n] != EGL_NONE && n < 126; n += 2) {
    copy[n] = attribs[n];
    copy[n + 1] = attribs[n] == EGL_SURFACE_TYPE ? EGL_PBUFFER_BIT : attribs[n + 1];
  }
  copy[n] = EGL_NONE;
  return ((EGLBoolean(*)(EGLDisplay, const EGLint*, EGLConfig*, EGLint, EGLint*))next(
      "eglChooseConfig"))(dpy, copy, configs, size, count);
}

EGLSurface eglCreateWindowSurface(EGLDisplay dpy, EGLConfig config, EGLNativeWindowType win,
                                  const EGLint* attribs) {
  (void)win, (void)attribs;
  const char* w = getenv("QT_QPA_EGLFS_WIDTH");
  const char* h = getenv("QT_QPA_EGLFS_HEIGHT");
  const EGLint pb[] = {EGL_WIDTH, w ? atoi(w) : 1280, EGL_HEIGHT, h ? atoi(h) : 800, EGL_NONE};
  return eglCreatePbufferSurface(dpy, config, pb);
}
