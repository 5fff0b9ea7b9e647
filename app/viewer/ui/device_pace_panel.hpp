#pragma once
// Two panel sections: the OpenCL device list (switch live) with the CL->GL transfer path,
// and the viewer's own pace (frame budget, frame time p50/p95, GVF iterations per second).
#include <optional>
#include <string>
#include <vector>

#include "gvflab/device.hpp"
#include "viewer/model/frame_stats.hpp"
#include "viewer/model/session.hpp"
#include "viewer/ui/panel.hpp"

namespace gvflab::viewer {

// Returns the selector of a device the user picked (not the current one).
std::optional<std::string> drawDeviceSection(const Session& session,
                                             const std::vector<DeviceInfo>& devices,
                                             const FrameReadouts& readouts);
void drawPaceSection(Session& session, const FrameStats& stats);

}  // namespace gvflab::viewer
