#pragma once
// The viewer's start-up configuration, made from the command line once: the model's parts
// (session, snakes, region, race) and the window's own (scripted runs, recording, layers).
// The only place in the viewer that reads app::Options.
#include <array>
#include <optional>
#include <string>

#include "cli/options.hpp"
#include "cli/snake_options.hpp"
#include "viewer/model/layer_settings.hpp"
#include "viewer/model/startup_config.hpp"
#include "viewer/model/surface_session.hpp"

namespace gvflab::viewer {

struct WindowStartup {
  int quitAfterFrames = 0;  // > 0: save, report and quit after that many frames
  bool photo = false;  // opens on the user's image (not a demo): showPhoto over remembered layers
  std::optional<std::string> screenshot;  // the view as PNG, when quitting
  bool screenshotPanels = false;          // the whole window instead
  bool legend = false, caption = false;   // in the screenshot and the recording
  bool printStats = false;                // frame time p50/p95 and iterations/s at exit
  std::optional<std::string> record;      // --record: from the first drawn frame
  bool recordPanel = false;               // the whole window, not just the view
  int fps = 30;
  int stepsPerFrame = 0;  // > 0: the recording is deterministic (this many steps per frame)
  // Nothing on the command line set the pace (steps, budget or iterations per frame).
  bool defaultFrameBudget = false;
  LayerSettings layers;
  bool rememberLayout = true;              // not a scripted run (--frames): restore the last layout
  bool rememberGeometry = true;            // and no --size
  bool rememberLayers = true;              // and no --colormap, --log-scale or --session
  std::optional<std::array<int, 2>> size;  // --size WxH: the window's
  // --size WxH with --screenshot (the view, not --screenshot-panels): the picture's size,
  // drawn offscreen; the window keeps its own.
  std::optional<std::array<int, 2>> screenshotSize;
  int phantomSize = 256;            // the panel's phantom buttons
  std::optional<std::string> demo;  // --demo NAME: its layers and explanation
};

struct ViewerStartup {
  SessionStartup session;
  app::SnakeOptions snakes;
  SurfaceStartup surfaces;  // --surface, with the snakes' parameters
  RegionStartup region;
  bool race = false;
  double raceBudgetMs = 0;  // OpenCL ms per solver per frame; 0: 2 on GPUs, 20 on CPUs
  WindowStartup window;
};

SessionStartup sessionStartup(const app::Options& options);
ViewerStartup viewerStartup(const app::Options& options);
// --colormap, --log-scale; shared with headless recording.
LayerSettings layerSettingsFromOptions(const app::Options& options);
// A user's photo shows itself: the |V| map off (M shows it), the image and glyphs on; set when
// a file is opened (issue 39: the map hid the photo until M).
void showPhoto(LayerSettings& layers);

}  // namespace gvflab::viewer
