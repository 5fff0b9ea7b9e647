#pragma once
// The region snake's section of the right panel: mode and run toggles, steps per frame, the PLH
// parameters, the statistics of target and background, timings, and the synthetic star image.
// Actions are handed back to RegionMode through the hooks, called where the user clicked.
#include <functional>

#include "viewer/model/region_session.hpp"

namespace gvflab::viewer {

struct RegionPanelState {
  bool enabled = false;
  bool running = true;
  int stepsPerFrame = 1;
  float syntheticMpix = 20;
};

struct RegionPanelHooks {
  std::function<void()> enabled;  // the mode was switched on
  std::function<void()> step, restart, defaultRectangle, makeSynthetic, backToSessionImage;
  std::function<void(const RegionSnakeParams&)> setParams;
};

// A section appended to the panel window holding the layers ("display" on the right, or the
// left "gvflab" in a narrow window); call after drawDisplayPanel.
void drawRegionPanel(RegionPanelState& state, const RegionSession& region,
                     const RegionPanelHooks& hooks, const char* window = "display");

}  // namespace gvflab::viewer
