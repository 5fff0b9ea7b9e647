#pragma once
// The one list of the view's layers, in drawing order: adding a layer is a class (layer.hpp)
// and one line in layer_registry.cpp. LayerStack makes them for the live view and figures;
// the window reads their infos for keys and the display panel.
#include <functional>
#include <memory>
#include <vector>

#include "viewer/render/layer.hpp"

namespace gvflab::viewer {

struct LayerRegistration {
  LayerInfo info;
  std::function<std::unique_ptr<Layer>()> make;  // GL context current
};

const std::vector<LayerRegistration>& layerRegistry();
std::vector<LayerInfo> layerInfos();  // the registry's infos, same order

}  // namespace gvflab::viewer
