#include "viewer/model/viewer_settings.hpp"

#include <QSettings>

#include "viewer/model/colormap.hpp"

namespace gvflab::viewer {

RememberedState loadRememberedState() {
  QSettings s("gvflab", "gvflab");
  RememberedState r;
  r.mu = s.value("solver/mu", -1.0).toDouble();
  // A σ the user set (-1: from the image's noise). A new key: the old one held the default too.
  r.sigma = s.value("solver/sigmaGiven", -1.0).toDouble();
  r.iterationsPerFrame = s.value("solver/iterationsPerFrame", -1).toInt();
  r.frameBudgetMs = s.value("solver/frameBudgetMs", -1.0).toDouble();
  LayerSettings& l = r.layers;
  try {
    l.colormap = colormapFromName(s.value("layers/colormap", "viridis").toString().toStdString());
  } catch (...) {
    // An edited settings file: keep the default colormap.
  }
  l.logScale = s.value("layers/logScale", l.logScale).toBool();
  l.showImage = s.value("layers/image", l.showImage).toBool();
  l.showMagnitude = s.value("layers/magnitude", l.showMagnitude).toBool();
  l.showGlyphs = s.value("layers/glyphs", l.showGlyphs).toBool();
  l.glyphNormalize = s.value("layers/glyphNormalize", l.glyphNormalize).toBool();
  l.glyphSpacing = s.value("layers/glyphSpacing", l.glyphSpacing).toFloat();
  l.showStreamlines = s.value("layers/streamlines", l.showStreamlines).toBool();
  r.geometry = s.value("window/geometry").toByteArray();
  r.windowState = s.value("window/state").toByteArray();
  r.recentFiles = s.value("recentFiles").toStringList();
  return r;
}

void saveRememberedState(const Session& session, const LayerSettings& l, const QByteArray& geometry,
                         const QByteArray& windowState, const QStringList& recentFiles) {
  QSettings s("gvflab", "gvflab");
  s.setValue("solver/mu", session.requestedMu());
  s.setValue("solver/sigmaGiven", session.sigmaFromNoise() ? -1.0 : session.sigma());
  s.setValue("solver/iterationsPerFrame", session.iterationsPerFrame());
  s.setValue("solver/frameBudgetMs", session.frameBudgetMs());
  s.setValue("layers/colormap", QString::fromUtf8(colormapName(l.colormap).data()));
  s.setValue("layers/logScale", l.logScale);
  s.setValue("layers/image", l.showImage);
  s.setValue("layers/magnitude", l.showMagnitude);
  s.setValue("layers/glyphs", l.showGlyphs);
  s.setValue("layers/glyphNormalize", l.glyphNormalize);
  s.setValue("layers/glyphSpacing", l.glyphSpacing);
  s.setValue("layers/streamlines", l.showStreamlines);
  s.setValue("window/geometry", geometry);
  s.setValue("window/state", windowState);
  s.setValue("recentFiles", recentFiles);
}

QStringList withRecentFile(QStringList recent, const QString& path) {
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > 8) recent.removeLast();
  return recent;
}

}  // namespace gvflab::viewer
