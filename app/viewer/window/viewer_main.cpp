#include "viewer/window/viewer_main.hpp"

#include <QApplication>
#include <QScreen>
#include <QSurfaceFormat>
#include <QTimer>
#include <optional>

#include "viewer/model/session.hpp"
#include "viewer/model/viewer_settings.hpp"
#include "viewer/render/surface_format.hpp"
#include "viewer/window/startup_splash.hpp"
#include "viewer/window/viewer_window.hpp"

namespace gvflab::app {

int runViewer(int argc, char** argv, const Options& options) {
  // Before the application object, so every GL context Qt makes is 3.3 core.
  QSurfaceFormat::setDefaultFormat(viewer::viewerSurfaceFormat());
  QApplication app(argc, argv);
  QApplication::setApplicationName("gvflab");

  // Parameters remembered from the last run, where the command line left the defaults.
  // Scripted runs (--frames) ignore them, so they give the same output on every machine.
  Options opts = options;
  if (opts.frames == 0 && !opts.session) {
    const viewer::RememberedState r = viewer::loadRememberedState();
    const Options defaults = parseOptions({});
    if (r.mu >= 0 && opts.gvf.mu == defaults.gvf.mu) opts.gvf.mu = r.mu;
    if (r.sigma >= 0 && opts.gvf.sigmaFromNoise) {
      opts.gvf.sigma = r.sigma;
      opts.gvf.sigmaFromNoise = false;
    }
    if (r.frameBudgetMs >= 0 && opts.frameBudgetMs == 0 && opts.stepsPerFrame == 0)
      opts.frameBudgetMs = r.frameBudgetMs > 0 ? r.frameBudgetMs : 0;
  }
  const viewer::ViewerStartup startup = viewer::viewerStartup(opts);
  // A window at once while OpenCL starts and compiles (not in scripted runs: --frames).
  std::optional<viewer::StartupSplash> splash;
  if (startup.window.quitAfterFrames == 0) splash.emplace();
  viewer::Session session(startup.session);  // throws: main reports it, no window yet
  if (splash) {
    splash->stopObserving();
    splash->say("Opening the window...");
  }
  viewer::ViewerWindow window(session, startup);
  if (startup.window.size) {
    window.resize((*startup.window.size)[0], (*startup.window.size)[1]);
  } else {  // the default, shrunk so it fits a small screen (a 1024x768 projector) with a title bar
    const QRect fit = viewer::fitWindow(QSize(1280, 800), window.screen()->availableGeometry(),
                                        viewer::kFrameGuess);
    window.resize(fit.size());
  }
  window.show();
  splash.reset();  // and its observer: no event processing inside a later frame's compile
  // The window manager's real frame is known a moment after show().
  if (!startup.window.size)
    QTimer::singleShot(500, &window, [&window] { window.fitFrameToScreen(); });
  return QApplication::exec();
}

}  // namespace gvflab::app
