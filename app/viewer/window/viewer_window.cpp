#include "viewer/window/viewer_window.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenuBar>
#include <QMimeData>
#include <QScreen>

#include "demos/demos.hpp"
#include "io/file_formats.hpp"
#include "viewer/model/viewer_settings.hpp"

namespace gvflab::viewer {

ViewerWindow::ViewerWindow(Session& session, const ViewerStartup& startup)
    : session_(session), view_(new GlView(session, startup, this)) {
  setWindowTitle("gvflab");
  setCentralWidget(view_);
  setAcceptDrops(true);
  const RememberedState remembered = loadRememberedState();
  view_->files().setRecentFiles(remembered.recentFiles);
  view_->files().onRecentChanged = [this] { rebuildRecentMenu(); };
  // Scripted runs (--frames) look the same on every machine: no remembered layout or layers.
  const WindowStartup& w = startup.window;
  if (w.rememberLayout) {
    if (w.rememberGeometry && !remembered.geometry.isEmpty()) restoreGeometry(remembered.geometry);
    if (!remembered.windowState.isEmpty()) restoreState(remembered.windowState);
    if (w.rememberLayers) view_->layers() = remembered.layers;
  }
  if (w.photo) showPhoto(view_->layers());
  QMenu* file = menuBar()->addMenu("&File");
  file->addAction("&Open image...", QKeySequence(QKeySequence::Open), this,
                  [this] { view_->files().showOpenDialog(); });
  recentMenu_ = file->addMenu("Open &recent");
  rebuildRecentMenu();
  file->addSeparator();
  file->addAction("Open &session...", this, [this] { view_->files().openSessionDialog(); });
  // Replaying a saved lesson: every snake from its starting contour (--session-start initial).
  file->addAction("Open session from the &starting contours...", this,
                  [this] { view_->files().openSessionDialog(app::SessionStart::Initial); });
  file->addAction("Save s&ession...", QKeySequence("Ctrl+Shift+S"), this,
                  [this] { view_->files().saveSessionDialog(); });
  file->addAction("Save &contours...", this, [this] { view_->files().saveContoursDialog(); });
  file->addAction("Save screens&hot...", QKeySequence("Ctrl+S"), this,
                  [this] { view_->saveScreenshot(); });
  file->addSeparator();
  file->addAction("&Quit", QKeySequence(QKeySequence::Quit), this, &QWidget::close);
  QMenu* viewMenu = menuBar()->addMenu("&View");
  viewMenu->addAction("&Full screen", QKeySequence(Qt::Key_F11), this,
                      [this] { toggleFullScreen(); });
  // Keys the view also handles itself (for full screen, where the menu bar is hidden):
  // shortcuts here would take them first, so the menus only name them.
  viewMenu->addAction("Side &panels\tTab", this, [this] { view_->togglePanels(); });
  QAction* legend = viewMenu->addAction("Snake &legend on the view");
  legend->setCheckable(true);
  legend->setChecked(true);
  connect(legend, &QAction::toggled, this, [this](bool on) { view_->setLegendShown(on); });
  viewMenu->addAction("&Replay: field and snakes from the start\tR", this,
                      [this] { view_->replay(); });
  viewMenu->addAction("Demo &explanation\tE", this, [this] { view_->toggleExplanation(); });

  // One click per lesson; the demos are data (app/demos).
  QMenu* demos = menuBar()->addMenu("&Demos");
  for (const app::Demo& d : app::demos()) {
    QAction* a = demos->addAction(QString::fromStdString(d.title), this,
                                  [this, name = d.name] { view_->loadDemo(name); });
    a->setToolTip(QString::fromStdString(d.explanation[0] + " " + d.explanation[1]));
  }
  demos->setToolTipsVisible(true);

  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("&Keys and mouse\tF1 or ?", this, [this] { view_->toggleHelp(); });
  view_->setFocus();
}

QRect fitWindow(QSize wanted, const QRect& available, const QMargins& frame) {
  const QSize room(available.width() - frame.left() - frame.right(),
                   available.height() - frame.top() - frame.bottom());
  const QSize size = wanted.boundedTo(room).expandedTo(QSize(1, 1));
  return QRect(available.topLeft() + QPoint(frame.left(), frame.top()), size);
}

void ViewerWindow::fitFrameToScreen() {
  if (isFullScreen() || isMaximized() || !screen()) return;
  const QRect available = screen()->availableGeometry();
  const QRect frame = frameGeometry(), inner = geometry();
  const QMargins margins(inner.left() - frame.left(), inner.top() - frame.top(),
                         frame.right() - inner.right(), frame.bottom() - inner.bottom());
  if (available.contains(frame)) return;
  const QRect fit = fitWindow(inner.size(), available, margins);
  resize(fit.size());
  move(fit.topLeft() - QPoint(margins.left(), margins.top()));  // move() places the frame
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
  for (const QString& path : view_->files().recentFiles()) {
    QAction* a = recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] {
      if (app::findFormat(path.toStdString(), app::FormatRole::Session))
        view_->files().openSession(path);
      else
        view_->files().openFile(path);
    });
    a->setToolTip(path);
  }
  recentMenu_->setEnabled(!view_->files().recentFiles().isEmpty());
}

void ViewerWindow::closeEvent(QCloseEvent* event) {
  saveRememberedState(session_, view_->layers(), saveGeometry(), saveState(),
                      view_->files().recentFiles());
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
  view_->files().openFile(mime->urls().first().toLocalFile());
  event->acceptProposedAction();
}

}  // namespace gvflab::viewer
