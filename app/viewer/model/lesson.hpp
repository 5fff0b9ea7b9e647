#pragma once
// The lesson side of the viewer's model: replaying (R) and loading a demo (the Demos menu and
// --demo NAME), on the live Session and SnakeSession. The demos themselves are data in
// app/demos; this reads them through the command-line parser, as headless runs do.
#include <array>
#include <string>

#include "demos/demos.hpp"
#include "viewer/model/layer_settings.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/snake_session.hpp"

namespace gvflab::viewer {

// R: the field from V0 again and every snake back to its starting contour at iteration 0.
void replay(Session& session, SnakeSession& snakes);

// Space: whether anything runs (the field or the snakes), and run or pause both together.
bool lessonRunning(const Session& session, const SnakeSession& snakes);
void toggleRunning(Session& session, SnakeSession& snakes);
// S or .: pauses both, then one step of each at the next frame: one field iteration and the
// snakes' iterations per frame (their own unit of progress).
void stepOnce(Session& session, SnakeSession& snakes);

// What a loaded demo asks of the window beyond the model.
struct DemoShown {
  std::string title;
  std::array<std::string, 2> explanation;  // the canvas's two lines
  bool regionSnake = false;                // the region snake mode on
};

// A volume demo's first slice (the middle one across the demo's axis); images: nothing.
void applyDemoSlice(const app::Demo& demo, Session& session);

// The demo's layers (image on; magnitude, arrows, streamlines as the demo says).
void applyDemoLayers(const app::Demo& demo, LayerSettings& layers);

// Loads a demo: its image (or phantom, or volume), μ, σ and V0, its snake parameters and
// snakes (each with its force), its capture settings, and its layers. Throws gvflab::Error
// (an asset that cannot be read); the session is left as the failing step left it.
DemoShown applyDemo(const app::Demo& demo, Session& session, SnakeSession& snakes,
                    LayerSettings& layers);

}  // namespace gvflab::viewer
