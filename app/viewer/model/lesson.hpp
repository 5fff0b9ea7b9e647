#pragma once
// The lesson side of the viewer's model: replaying (R) and loading a demo (the Demos menu and
// --demo NAME), on the live Session and SnakeSession. The demos themselves are data in
// app/demos; window/demo_loader.hpp reads them through the command-line parser.
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

// A volume demo's first slice (the middle one across the demo's axis); images: nothing.
void applyDemoSlice(const app::Demo& demo, Session& session);

// The demo's layers (image on; magnitude, arrows, streamlines as the demo says).
void applyDemoLayers(const app::Demo& demo, LayerSettings& layers);

}  // namespace gvflab::viewer
