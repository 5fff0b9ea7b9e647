#pragma once
// Loading a demo into the live viewer (the Demos menu and --demo NAME): the demo's flags read
// by the command-line parser, as headless runs do, then set on the model.
#include <array>
#include <string>

#include "demos/demos.hpp"
#include "viewer/model/layer_settings.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/model/surface_session.hpp"

namespace gvflab::viewer {

// What a loaded demo asks of the window beyond the model.
struct DemoShown {
  std::string title;
  std::array<std::string, 2> explanation;  // the canvas's two lines
  bool regionSnake = false;                // the region snake mode on
};

// Loads a demo: its image (or phantom, or volume), μ, σ and V0, its snake parameters and
// snakes (each with its force), its surfaces (a volume's, when given where), its capture
// settings, and its layers. Throws gvflab::Error
// (an asset that cannot be read); the session is left as the failing step left it.
DemoShown applyDemo(const app::Demo& demo, Session& session, SnakeSession& snakes,
                    LayerSettings& layers, SurfaceSession* surfaces = nullptr);

}  // namespace gvflab::viewer
