#pragma once
// The ImGui side of the viewer: the control and readout panel on the left and the colormap
// legend over the view. Parameter ranges and help come from gvfParamSpecs().
#include <optional>
#include <string>

#include "viewer/error_log.hpp"
#include "viewer/renderer.hpp"
#include "viewer/session.hpp"

namespace gvflab::viewer {

struct FrameReadouts {
  double frameMs = 0;          // wall time between frames
  double framesPerSecond = 0;
  double transferLastMs = 0;   // CL -> GL
  double transferMeanMs = 0;
  std::string transferPath;    // "host copy (...)" or "zero-copy (...)"
  float rangeMax = 0;          // |V| at the top of the colour range
};

// What the panel asks the window to do (things that need Qt or the view).
struct PanelRequests {
  bool openFileDialog = false;
  bool fitView = false;
  std::optional<std::string> phantom;
};

inline constexpr float kPanelWidth = 372.0f;  // logical pixels

void drawPanel(Session& session, LayerSettings& layers, const FrameReadouts& readouts,
               ErrorLog& errors, PanelRequests& requests, float displayHeight);

// Vertical colour bar with |V| ticks, anchored at the view's bottom-right corner.
void drawLegend(const LayerSettings& layers, float rangeMax, float viewLeft, float viewWidth,
                float viewHeight);

}  // namespace gvflab::viewer
