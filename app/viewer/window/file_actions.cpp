#include "viewer/window/file_actions.hpp"

#include <QFileDialog>
#include <QFileInfo>

#include "io/file_formats.hpp"
#include "io/image_loader.hpp"
#include "viewer/model/session_io.hpp"
#include "viewer/model/viewer_settings.hpp"
#include "viewer/render/composite_figure.hpp"
#include "viewer/ui/contours_dialog.hpp"
#include "viewer/ui/figure_dialog.hpp"
#include "viewer/window/viewer_startup.hpp"

namespace gvflab::viewer {
namespace {

// "gvflab sessions (*.json)", from io/file_formats.cpp.
QString sessionFileFilter() {
  return QString::fromStdString(app::fileDialogFilter(
      static_cast<app::FormatRoles>(app::FormatRole::Session), "gvflab sessions"));
}

}  // namespace

void FileActions::remember(const QString& path) {
  recent_ = withRecentFile(recent_, QFileInfo(path).absoluteFilePath());
  if (onRecentChanged) onRecentChanged();
}

void FileActions::openFile(const QString& path) {
  if (errors_.guard("Opening '" + QFileInfo(path).fileName().toStdString() + "'",
                    [&] { session_.openFile(path.toStdString()); })) {
    showPhoto(layers_);
    remember(path);
  }
  view_.update();
}

void FileActions::showOpenDialog() {
  QString path = QFileDialog::getOpenFileName(&view_, "Open image", QString(),
                                              QString::fromUtf8(app::imageFileFilter()));
  if (!path.isEmpty()) openFile(path);
}

void FileActions::saveSessionDialog() {
  QString path = QFileDialog::getSaveFileName(
      &view_, "Save session",
      "session" +
          QString::fromStdString(std::string(app::preferredExtension(app::FormatRole::Session))),
      sessionFileFilter());
  if (path.isEmpty()) return;
  errors_.guard("Saving the session", [&] {
    app::saveSession(path.toStdString(), captureSession(session_, modes_.snakes(), layers_));
  });
}

void FileActions::saveContoursDialog() {
  viewer::saveContoursDialog(&view_, modes_.snakes().contours(), session_.image().width,
                             session_.image().height, errors_);
}

void FileActions::openSessionDialog(app::SessionStart from) {
  QString path =
      QFileDialog::getOpenFileName(&view_, "Open session", QString(), sessionFileFilter());
  if (!path.isEmpty()) openSession(path, from);
}

void FileActions::openSession(const QString& path, app::SessionStart from) {
  view_.makeCurrent();
  if (errors_.guard("Opening the session '" + QFileInfo(path).fileName().toStdString() + "'", [&] {
        restoreSession(app::loadSession(path.toStdString()), session_, modes_.snakes(), layers_,
                       from);
      }))
    remember(path);
}

void FileActions::saveFigureDialog(
    int viewWidth, int viewHeight,
    const std::function<void(const QString&, const FigureOptions&)>& saveViewFigure) {
  if (figureChoice_.width <= 0 || figureChoice_.height <= 0)
    figureChoice_.width = viewWidth, figureChoice_.height = viewHeight;
  auto asked = askFigure(&view_, figureChoice_, viewWidth, viewHeight);
  if (!asked) return;
  figureChoice_ = asked->options;
  if (asked->options.composite) {  // drawn offscreen in its own context, now, not in paintGL
    errors_.guard("Saving the composite figure", [&] {
      writeFigurePng(asked->path.toStdString(),
                     sessionComposite(session_, modes_.snakes(), layers_, asked->options.width));
    });
    view_.makeCurrent();
    return;
  }
  saveViewFigure(asked->path, asked->options);
}

}  // namespace gvflab::viewer
