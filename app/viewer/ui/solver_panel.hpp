#pragma once
// ImGui controls for the solver choice (Euler or multigrid, precision, Euler's memory kind,
// multigrid's a, b, c) and for the slice of a volume (axis and index). Part of the left panel.
#include "viewer/model/session.hpp"
#include "viewer/ui/error_log.hpp"

namespace gvflab::viewer {

void drawSolverChoice(Session& session, ErrorLog& errors);
// Nothing for a 2D image.
void drawSliceControls(Session& session, ErrorLog& errors);

}  // namespace gvflab::viewer
