#include "viewer/window/viewer_window.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenuBar>
#include <QMimeData>

#include "viewer/model/viewer_settings.hpp"

namespace gvflab::viewer {

ViewerWindow::ViewerWindow(Session& session, const ViewerStartup& startup)
    : session_(session), view_(new GlView(session, startup, this)) {
  setWindowTitle("gvflab");
  setCentralWidget(view_);
  setAcceptDrops(true);
  const RememberedState remembered = loadRememberedState();
  view_->setRecentFiles(remembered.recentFiles);
  view_->onRecentChanged = [this] { rebuildRecentMenu(); };
  // Scripted runs (--frames) look the same on every machine: no remembered layout or layers.
  const WindowStartup& w = startup.window;
  if (w.rememberLayout) {
    if (w.rememberGeometry && !remembered.geometry.isEmpty()) restoreGeometry(remembered.geometry);
    if (!remembered.windowState.isEmpty()) restoreState(remembered.windowState);
    if (w.rememberLayers) view_->layers() = remembered.layers;
  }
  QMenu* file = menuBar()->addMenu("&File");
  QAction* open = file->addAction("&Open image...");
  open->setShortcut(QKeySequence::Open);
  connect(open, &QAction::triggered, this, [this] { view_->showOpenDialog(); });
  recentMenu_ = file->addMenu("Open &recent");
  rebuildRecentMenu();
  file->addSeparator();
  QAction* openSession = file->addAction("Open &session...");
  connect(openSession, &QAction::triggered, this, [this] { view_->openSessionDialog(); });
  QAction* saveSession = file->addAction("Save s&ession...");
  saveSession->setShortcut(QKeySequence("Ctrl+Shift+S"));
  connect(saveSession, &QAction::triggered, this, [this] { view_->saveSessionDialog(); });
  QAction* contours = file->addAction("Save &contours...");
  connect(contours, &QAction::triggered, this, [this] { view_->saveContoursDialog(); });
  QAction* shot = file->addAction("Save screens&hot...");
  shot->setShortcut(QKeySequence("Ctrl+S"));
  connect(shot, &QAction::triggered, this, [this] { view_->saveScreenshot(); });
  file->addSeparator();
  QAction* quit = file->addAction("&Quit");
  quit->setShortcut(QKeySequence::Quit);
  connect(quit, &QAction::triggered, this, &QWidget::close);
  QMenu* viewMenu = menuBar()->addMenu("&View");
  QAction* full = viewMenu->addAction("&Full screen");
  full->setShortcut(QKeySequence(Qt::Key_F11));
  connect(full, &QAction::triggered, this, [this] { toggleFullScreen(); });
  view_->setFocus();
}

void ViewerWindow::toggleFullScreen() {
  if (isFullScreen()) {
    showNormal();
    menuBar()->show();
  } else {
    menuBar()->hide();  // the whole screen for the view; F11 or Esc... F11 comes back
    showFullScreen();
  }
}

void ViewerWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  for (const QString& path : view_->recentFiles()) {
    QAction* a = recentMenu_->addAction(QFileInfo(path).fileName());
    a->setToolTip(path);
    connect(a, &QAction::triggered, this, [this, path] {
      if (path.endsWith(".json", Qt::CaseInsensitive))
        view_->openSession(path);
      else
        view_->openFile(path);
    });
  }
  recentMenu_->setEnabled(!view_->recentFiles().isEmpty());
}

void ViewerWindow::closeEvent(QCloseEvent* event) {
  saveRememberedState(session_, view_->layers(), saveGeometry(), saveState(), view_->recentFiles());
  QMainWindow::closeEvent(event);
}

void ViewerWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile())
    event->acceptProposedAction();
}

void ViewerWindow::dropEvent(QDropEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (!mime->hasUrls() || mime->urls().isEmpty()) return;
  view_->openFile(mime->urls().first().toLocalFile());
  event->acceptProposedAction();
}

}  // namespace gvflab::viewer
