#pragma once
// The main window: File (Open, Ctrl+O; sessions), View, Demos and Help menus, drag-and-drop of
// image files, the remembered layout, and the GL view (GlView) in the middle.
#include <QMainWindow>
#include <QMenu>

#include "viewer/model/session.hpp"
#include "viewer/window/gl_view.hpp"
#include "viewer/window/viewer_startup.hpp"

namespace gvflab::viewer {

class ViewerWindow : public QMainWindow {
 public:
  ViewerWindow(Session& session, const ViewerStartup& startup);
  void toggleFullScreen();

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void rebuildRecentMenu();
  Session& session_;
  GlView* view_;
  QMenu* recentMenu_ = nullptr;
};

}  // namespace gvflab::viewer
