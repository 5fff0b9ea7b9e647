#pragma once
// The main window: File (Open, Ctrl+O; sessions), View, Demos and Help menus, drag-and-drop of
// image files, the remembered layout, and the GL view (GlView) in the middle.
#include <QMainWindow>
#include <QMargins>
#include <QMenu>
#include <QRect>

#include "viewer/model/session.hpp"
#include "viewer/window/gl_view.hpp"
#include "viewer/window/viewer_startup.hpp"

namespace gvflab::viewer {

// The window's inner size and place on a screen whose free area is available, with a window
// manager's frame (title bar) of frame around it: wanted, shrunk so the frame fits too, and
// moved so the frame's top-left corner is inside the area.
QRect fitWindow(QSize wanted, const QRect& available, const QMargins& frame);
// Before the window manager has said: room for a title bar.
inline const QMargins kFrameGuess(0, 32, 0, 0);

class ViewerWindow : public QMainWindow {
 public:
  ViewerWindow(Session& session, const ViewerStartup& startup);
  void toggleFullScreen();
  // After show(): once the window manager's frame is known, shrinks and moves the window so
  // the frame fits the screen (a 1024x768 projector).
  void fitFrameToScreen();

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
