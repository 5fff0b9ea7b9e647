#pragma once
// What the viewer remembers between runs (QSettings, "gvflab/gvflab"): solver parameters,
// display layers, window geometry and state, recent files. Command-line flags win over it.
#include <QByteArray>
#include <QStringList>

#include "viewer/model/layer_settings.hpp"
#include "viewer/model/session.hpp"

namespace gvflab::viewer {

struct RememberedState {
  double mu = -1, sigma = -1;  // < 0: not saved yet
  int iterationsPerFrame = -1;
  double frameBudgetMs = -1;
  LayerSettings layers;
  QByteArray geometry, windowState;
  QStringList recentFiles;  // newest first
};

RememberedState loadRememberedState();
void saveRememberedState(const Session& session, const LayerSettings& layers,
                         const QByteArray& geometry, const QByteArray& windowState,
                         const QStringList& recentFiles);
// path moved (or added) to the front, at most 8 kept.
QStringList withRecentFile(QStringList recent, const QString& path);

}  // namespace gvflab::viewer
