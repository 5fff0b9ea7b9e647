#pragma once
// ImGui parts of the race view: the readouts table (ε, iterations, OpenCL time, capture
// area per solver) and the live plot of log10 ε against cumulative OpenCL time, one line per
// solver (the multigrid paper's Fig. 6). ImGui 1.86's PlotLines draws one series, so the
// plot is drawn with the window's draw list.
#include <imgui.h>

#include "viewer/model/race_session.hpp"

namespace gvflab::viewer {

void drawRaceReadouts(const RaceSession& race, long planePixels);
// The width (ImGui units, current font) the readouts table needs with its long headers and
// capture area in pixels (roomy), or with its short headers and percentages; the table takes
// the long form where it fits the window.
float raceReadoutsWidth(bool roomy);
void drawRacePlot(const RaceSession& race, ImVec2 size);

}  // namespace gvflab::viewer
