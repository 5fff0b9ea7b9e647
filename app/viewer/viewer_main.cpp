#include "viewer/viewer_main.hpp"

#include <QApplication>
#include <QSurfaceFormat>

#include "viewer/session.hpp"
#include "viewer/viewer_window.hpp"

namespace gvflab::app {

int runViewer(int argc, char** argv, const Options& options) {
  // Before the application object, so every GL context Qt makes is 3.3 core.
  QSurfaceFormat::setDefaultFormat(viewer::viewerSurfaceFormat());
  QApplication app(argc, argv);
  QApplication::setApplicationName("gvflab");

  viewer::Session session(options);  // throws: main reports it, no window yet
  viewer::ViewerWindow window(session, options);
  window.resize(1280, 800);
  window.show();
  return QApplication::exec();
}

}  // namespace gvflab::app
