#include "viewer/window/viewer_startup.hpp"

#include "demos/demos.hpp"
#include "viewer/model/colormap.hpp"
#include "viewer/model/lesson.hpp"

namespace gvflab::viewer {

SessionStartup sessionStartup(const app::Options& o) {
  SessionStartup s;
  s.image = o.image;
  s.phantom = o.phantom.value_or("u");
  s.phantomSize = o.phantomSize;
  s.gvf = o.gvf;
  s.solver = app::solverConfig(o);
  s.context = app::contextOptions(o);
  s.iterationsPerFrame = o.savedIterationsPerFrame;
  s.fixedIterationsPerFrame = o.iterationsPerFrame;
  s.stepsPerFrame = o.stepsPerFrame;
  s.frameBudgetMs = o.frameBudgetMs;
  s.load = o.snakes.load();
  // The headless rule (field_solve.hpp): a target, or a fixed count the snakes wait for.
  const FieldSolvePlan plan = app::fieldSolvePlan(o);
  if (plan.targetError)
    s.targetError = *plan.targetError;
  else
    s.fieldIterations = plan.iterations;
  return s;
}

LayerSettings layerSettingsFromOptions(const app::Options& options) {
  LayerSettings layers;
  if (options.colormap) layers.colormap = colormapFromName(*options.colormap);
  layers.logScale = options.logScale;
  return layers;
}

void showPhoto(LayerSettings& layers) {
  layers.showImage = true;
  layers.showMagnitude = false;
}

ViewerStartup viewerStartup(const app::Options& o) {
  ViewerStartup v;
  v.session = sessionStartup(o);
  v.snakes = o.snakes;
  v.surfaces = {o.snakes.surfaces, o.snakes.params, o.snakes.force, o.snakes.forces,
                o.snakes.frameIterations};
  v.region = {o.regionSnake, o.regionRect, o.region, o.regionMpix};
  v.race = o.race;
  v.raceBudgetMs = o.raceBudgetMs;
  WindowStartup& w = v.window;
  w.quitAfterFrames = o.frames > 0 ? o.frames : (o.screenshot ? 60 : 0);
  w.screenshot = o.screenshot;
  w.screenshotPanels = o.screenshotPanels;
  w.legend = o.legend;
  w.caption = o.caption;
  w.printStats = o.stats;
  w.record = o.record;
  w.recordPanel = o.recordPanel;
  w.fps = o.fps;
  w.stepsPerFrame = o.stepsPerFrame;
  w.defaultFrameBudget = o.stepsPerFrame == 0 && o.frameBudgetMs == 0 && !o.iterationsPerFrame;
  w.layers = layerSettingsFromOptions(o);
  w.rememberLayout = o.frames == 0;
  w.rememberGeometry = !o.size;
  w.rememberLayers = !o.colormap && !o.logScale && !o.session;
  w.size = o.size;
  if (o.screenshot && !o.screenshotPanels && o.size) w.screenshotSize = o.size, w.size.reset();
  w.phantomSize = o.phantomSize;
  w.photo = o.image.has_value() && !o.demo && !o.session;
  if (w.photo) showPhoto(w.layers);
  if (o.demo) {  // the demo's layers, not the remembered ones
    w.demo = o.demo;
    applyDemoLayers(app::findDemo(*o.demo), w.layers);
    w.rememberLayers = false;
  }
  return v;
}

}  // namespace gvflab::viewer
