#include "viewer/model/lesson.hpp"

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

}  // namespace gvflab::viewer
