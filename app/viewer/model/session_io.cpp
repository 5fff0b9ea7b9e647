#include "viewer/model/session_io.hpp"

#include "cli/session_snakes.hpp"
#include "gvflab/error.hpp"
#include "viewer/model/colormap.hpp"

namespace gvflab::viewer {

app::SessionFile captureSession(const Session& session, const SnakeSession& snakes,
                                const LayerSettings& layers) {
  app::SessionFile f;
  if (session.imagePath()) f.image = session.imagePath()->string();
  if (session.phantomName()) {
    f.phantom = *session.phantomName();
    f.phantomSize = session.phantomSize();
  }
  f.gvf.mu = session.requestedMu();
  f.gvf.sigma = session.sigma();
  f.gvf.v0Mode = session.v0Mode();
  f.iterationsPerFrame = session.iterationsPerFrame();
  f.frameBudgetMs = session.frameBudgetMs();
  f.device = session.deviceSelector();
  f.snake = snakes.params();
  f.forces = snakes.forceParams();
  for (const auto& c : snakes.contours()) {
    app::SavedSnake s;
    s.force = c.force;
    for (const auto& p : c.points) s.points.push_back({p.x, p.y});
    for (const auto& p : c.initial) s.initial.push_back({p.x, p.y});
    if (c.ownPressure) s.pressure = c.pressure;
    s.boundary = c.boundary;
    f.snakes.push_back(std::move(s));
  }
  f.colormap = std::string(colormapName(layers.colormap));
  f.logScale = layers.logScale;
  return f;
}

void restoreSession(const app::SessionFile& f, Session& session, SnakeSession& snakes,
                    LayerSettings& layers, app::SessionStart from) {
  if (!f.image && !f.phantom) throw InputError("The session names neither an image nor a phantom.");
  // The image first: σ and V0 rebuild whatever image is current.
  if (f.image)
    session.openFile(*f.image);
  else
    session.openPhantom(*f.phantom, f.phantomSize);
  session.setV0Mode(f.gvf.v0Mode);
  session.setSigma(f.gvf.sigma);
  session.setMu(f.gvf.mu);
  session.setIterationsPerFrame(f.iterationsPerFrame);
  session.setFrameBudgetMs(f.frameBudgetMs);
  snakes.advanceFrame();  // follows the new image (drops the old snakes)
  snakes.setParams(f.snake);
  snakes.setForceParams(f.forces);
  // The same snakes the command line would give (--session, --session-start).
  snakes.replaceAll(app::sessionSnakeSpecs(f, from));
  layers.colormap = colormapFromName(f.colormap);
  layers.logScale = f.logScale;
}

}  // namespace gvflab::viewer
