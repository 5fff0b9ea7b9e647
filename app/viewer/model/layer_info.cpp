#include "viewer/model/layer_info.hpp"

namespace gvflab::viewer {

bool toggleLayerByKey(const std::vector<LayerInfo>& layers, int key, LayerSettings& settings) {
  for (const LayerInfo& l : layers)
    if (l.toggleKey != 0 && l.toggleKey == key && l.shown) {
      settings.*l.shown = !(settings.*l.shown);
      return true;
    }
  return false;
}

}  // namespace gvflab::viewer
