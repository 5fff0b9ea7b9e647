#pragma once
// The ImGui side of the viewer: the control and readout panel on the left, the layer panel
// with the colormap legend on the right. Parameter ranges and help come from gvfParamSpecs().
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "viewer/model/layer_info.hpp"
#include "viewer/model/layer_settings.hpp"
#include "viewer/model/session.hpp"
#include "viewer/ui/error_log.hpp"

namespace gvflab::viewer {

struct FrameReadouts {
  double frameMs = 0;  // wall time between frames
  double framesPerSecond = 0;
  double transferLastMs = 0;  // CL -> GL
  double transferMeanMs = 0;
  std::string transferPath;  // "host copy (...)" or "zero-copy (...)"
  float rangeMax = 0;        // |V| at the top of the colour range
};

// What the panel asks the window to do (things that need Qt or the view).
struct PanelRequests {
  bool openFileDialog = false;
  bool fitView = false;
  std::optional<std::string> phantom;
};

// Logical pixels; the view (image and layers) fills the space between the two panels.
inline constexpr float kPanelWidth = 360.0f;         // left: image, solver, readouts
inline constexpr float kDisplayPanelWidth = 262.0f;  // right: layers and the legend
inline constexpr float kViewShare = 0.6f;            // the least share of the width the view gets

// The side panels for a window this wide (logical pixels): both where the view keeps
// kViewShare of the width, else one left panel (at most 40% of the width) holding the layer
// controls too, as on a 1024x768 projector. Hidden panels (Tab): none.
struct PanelLayout {
  float left = 0, right = 0;
  bool layersInLeft = false;  // the right panel's sections are drawn in the left one
  float viewLeft() const { return left; }
  float viewWidth(float windowWidth) const {
    return windowWidth > left + right ? windowWidth - left - right : 0;
  }
};
PanelLayout panelLayout(float windowWidth, bool panelsShown);

// extraSections: more collapsing sections (recording, devices, pace), drawn after the readouts;
// lessonSections: the snakes' sections, right after the solver (what a lesson needs first).
void drawPanel(Session& session, LayerSettings& layers, const FrameReadouts& readouts,
               ErrorLog& errors, PanelRequests& requests, float width, float displayHeight,
               const std::function<void()>& extraSections = {},
               const std::function<void()>& lessonSections = {});

// The layer controls and the colormap legend (|V| ticks), right of the view. fieldCaption
// names the field the layers show (the selected snake's force); layerList: the registered
// layers (render/layer_registry.hpp), each with a LayerInfo::checkbox getting one.
void drawDisplayPanel(LayerSettings& layers, float rangeMax, float left, float displayHeight,
                      const std::string& fieldCaption = {},
                      const std::vector<LayerInfo>& layerList = {});
// Its sections alone, inside another panel (PanelLayout::layersInLeft).
void drawDisplaySections(LayerSettings& layers, float rangeMax, const std::string& fieldCaption,
                         const std::vector<LayerInfo>& layerList = {});

}  // namespace gvflab::viewer
