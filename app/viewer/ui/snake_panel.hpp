#pragma once
// The "Snakes" section of the left panel: parameters from snakeParamSpecs(), force, iterations
// per frame, per-snake readouts, the seed grid, and the capture-range overlay with its areas.
#include "viewer/model/snake_session.hpp"
#include "viewer/ui/error_log.hpp"

namespace gvflab::viewer {

struct SnakeOverlay {
  float captureOpacity = 0.6f;
  bool showNodes = true;
  int plotSnakeId = 0;  // the snake whose progress is plotted
};

// Appends to the left panel's window ("gvflab"); call after drawPanel in the same frame.
void drawSnakePanel(SnakeSession& snakes, SnakeOverlay& overlay, ErrorLog& errors);

}  // namespace gvflab::viewer
