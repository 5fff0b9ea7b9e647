#include "viewer/window/demo_loader.hpp"

#include "cli/options.hpp"
#include "viewer/model/lesson.hpp"

namespace gvflab::viewer {

DemoShown applyDemo(const app::Demo& demo, Session& session, SnakeSession& snakes,
                    LayerSettings& layers, SurfaceSession* surfaces) {
  const app::Options o = app::parseOptions(app::demoArgs(demo));
  if (o.image)
    session.openFile(*o.image);
  else
    session.openPhantom(o.phantom.value_or("u"), o.phantomSize);
  applyDemoSlice(demo, session);
  session.setV0Mode(o.gvf.v0Mode);
  if (o.gvf.sigmaFromNoise)
    session.setSigmaFromNoise();
  else
    session.setSigma(o.gvf.sigma);
  // The demo's solver before its μ, which is checked against it (the surface demo's default
  // μ is beyond Euler's 3D bound, not multigrid's), and the field its snakes wait for.
  if (o.solverGiven) session.setSolverKind(o.solver);
  session.setMu(o.gvf.mu);
  if (o.targetError) session.setTargetError(*o.targetError);
  session.setRunning(true);
  snakes.followImage();
  snakes.setParams(o.snakes.params);
  snakes.setForceParams(o.snakes.forces);
  snakes.setNewForce(o.snakes.force);
  snakes.replaceAll(o.snakes.snakes);
  snakes.captureParams = o.snakes.capture;
  snakes.showCapture = demo.layers.capture;
  snakes.requestCapture();
  snakes.setRunning(true);
  if (surfaces) surfaces->replaceAll(o.snakes);
  applyDemoLayers(demo, layers);
  return {demo.title, demo.explanation, o.regionSnake};
}

}  // namespace gvflab::viewer
