#pragma once
// The File menu's actions on the view's session: open an image or a session (by name or from a
// dialog), save the session, the contours or a figure, and the recent-files list. Errors go to
// the panel's log; the GL context is made current where a session brings GL objects.
#include <QOpenGLWidget>
#include <QStringList>
#include <functional>

#include "io/session_file.hpp"
#include "viewer/model/session.hpp"
#include "viewer/modes/viewer_modes.hpp"
#include "viewer/render/figure.hpp"
#include "viewer/ui/error_log.hpp"

namespace gvflab::viewer {

class FileActions {
 public:
  FileActions(QOpenGLWidget& view, Session& session, ViewerModes& modes, LayerSettings& layers,
              ErrorLog& errors)
      : view_(view), session_(session), modes_(modes), layers_(layers), errors_(errors) {}

  void openFile(const QString& path);
  void showOpenDialog();
  void saveSessionDialog();
  void saveContoursDialog();  // File > Save contours...
  // A session's snakes start from their saved current contours, or from their starts.
  void openSessionDialog(app::SessionStart from = app::SessionStart::Current);
  void openSession(const QString& path, app::SessionStart from = app::SessionStart::Current);
  // Ctrl+S: the figure dialog (size, legend, caption, panels), then where. A composite figure
  // is drawn here; the view's own figure is handed to saveViewFigure (taken at the next frame).
  void saveFigureDialog(
      int viewWidth, int viewHeight,
      const std::function<void(const QString&, const FigureOptions&)>& saveViewFigure);

  const QStringList& recentFiles() const { return recent_; }
  void setRecentFiles(QStringList files) { recent_ = std::move(files); }
  std::function<void()> onRecentChanged;  // called with the new list whenever a file was opened

 private:
  void remember(const QString& path);

  QOpenGLWidget& view_;
  Session& session_;
  ViewerModes& modes_;
  LayerSettings& layers_;
  ErrorLog& errors_;
  QStringList recent_;
  FigureOptions figureChoice_;  // the dialog's last choice
};

}  // namespace gvflab::viewer
