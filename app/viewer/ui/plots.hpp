#pragma once
// Plots with axes for the left panel: ε against iterations (log scale), a snake's mean node
// displacement per iteration, and the legend of the capture-range overlay. Ticks and extents
// come from plotAxes() (model/axis_ticks.hpp), so they are round and tested without ImGui.

#include "viewer/model/session.hpp"
#include "viewer/model/snake_session.hpp"

namespace gvflab::viewer {

// ε (eq. 9) against the solver's iterations since the last restart, log10 y.
void drawConvergencePlot(const Session& session);
// The selected snake's progress (none selected: the first's); its combo selects a snake.
void drawSnakeProgressPlot(SnakeSession& snakes);
// What the overlay's colours mean: steps to reach an edge, on-edge and never-captured pixels.
void drawCaptureLegend(const SnakeSession& snakes);

}  // namespace gvflab::viewer
