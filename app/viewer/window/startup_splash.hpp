#pragma once
// A window at once (issue 39): while the OpenCL context starts and the kernels compile (13-35 s
// on PoCL with a cold compiler cache), a small start-up window says what is happening, one
// line per program compiled (KernelLibrary::setBuildObserver). Later starts hit the cache.
#include <QElapsedTimer>
#include <QSplashScreen>
#include <QString>

namespace gvflab::viewer {

class StartupSplash {
 public:
  StartupSplash();   // shown at once, the observer set
  ~StartupSplash();  // the observer cleared
  StartupSplash(const StartupSplash&) = delete;
  StartupSplash& operator=(const StartupSplash&) = delete;
  void say(const QString& line);
  // No more lines from compiles: after it, kernels compile while windows are built, where
  // processing events would reach a view not yet made (its ImGui context).
  void stopObserving();

 private:
  QSplashScreen splash_;
  QElapsedTimer clock_;
  int compiled_ = 0;
};

}  // namespace gvflab::viewer
