#pragma once
// The "Snakes" section of the left panel: the selected snake (its force, own pressure, state,
// Compare, Delete), the table of snakes with their states in words and colours, replay, the
// parameters from snakeParamSpecs(), the seed grid, and the capture-range overlay.
#include <string>

#include "viewer/model/snake_session.hpp"
#include "viewer/ui/error_log.hpp"

namespace gvflab::viewer {

struct SnakeOverlay {
  float captureOpacity = 0.6f;
  bool showNodes = true;
};

// What the panel asks of its mode (which owns undo, the field and the replay).
struct SnakeActions {
  int compare = 0;  // a snake's id: add its twin
  int remove = 0;   // a snake's id: delete it
  bool replay = false;
};

// The table's count line: "3 snakes:", or on a volume's slice "0 2D snakes on this slice:"
// (the volume's surfaces are counted in the Surfaces section, drawn first).
std::string snakeCountLine(std::size_t count, bool onSlice);

// Two sections (Snakes, Capture range) in the current window: the left panel, after Solver.
void drawSnakePanel(SnakeSession& snakes, SnakeOverlay& overlay, SnakeActions& actions,
                    ErrorLog& errors);

}  // namespace gvflab::viewer
