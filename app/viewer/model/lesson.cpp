#include "viewer/model/lesson.hpp"

#include "cli/options.hpp"

namespace gvflab::viewer {

void replay(Session& session, SnakeSession& snakes) {
  session.reset();
  snakes.restart();
}

bool lessonRunning(const Session& session, const SnakeSession& snakes) {
  return session.running() || snakes.running();
}

void toggleRunning(Session& session, SnakeSession& snakes) {
  const bool run = !lessonRunning(session, snakes);
  session.setRunning(run);
  snakes.setRunning(run);
}

void stepOnce(Session& session, SnakeSession& snakes) {
  session.setRunning(false);
  snakes.setRunning(false);
  session.requestSingleStep();
  snakes.requestSingleStep();
}

void applyDemoSlice(const app::Demo& demo, Session& session) {
  VolumeSlices* slices = session.volumeSlices();
  if (!slices) return;
  const auto axis = static_cast<SliceAxis>(demo.sliceAxis);
  session.setSlice(axis, slices->count(axis) / 2);
}

void applyDemoLayers(const app::Demo& demo, LayerSettings& layers) {
  layers.showImage = true;
  layers.showMagnitude = demo.layers.magnitude;
  layers.showGlyphs = demo.layers.glyphs;
  layers.showStreamlines = demo.layers.streamlines;
}

DemoShown applyDemo(const app::Demo& demo, Session& session, SnakeSession& snakes,
                    LayerSettings& layers) {
  const app::Options o = app::parseOptions(app::demoArgs(demo));
  if (o.image)
    session.openFile(*o.image);
  else
    session.openPhantom(o.phantom.value_or("u"), o.phantomSize);
  applyDemoSlice(demo, session);
  session.setV0Mode(o.gvf.v0Mode);
  session.setSigma(o.gvf.sigma);
  session.setMu(o.gvf.mu);
  session.setRunning(true);
  snakes.followImage();
  snakes.setParams(o.snakes.params);
  snakes.setNewForce(o.snakes.force);
  snakes.replaceAll(o.snakes.snakes);
  snakes.captureParams = o.snakes.capture;
  snakes.showCapture = demo.layers.capture;
  snakes.requestCapture();
  snakes.setRunning(true);
  applyDemoLayers(demo, layers);
  return {demo.title, demo.explanation, o.regionSnake};
}

}  // namespace gvflab::viewer
