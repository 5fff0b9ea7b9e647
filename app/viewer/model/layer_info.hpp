#pragma once
// What the rest of the viewer knows of a layer without its GL side (render/layer.hpp): its
// name, when it draws, its switch in LayerSettings, its key and its panel checkbox. Each
// layer class gives its own (static info()); render/layer_registry.cpp lists them.
#include <vector>

#include "viewer/model/layer_settings.hpp"

namespace gvflab::viewer {

enum class LayerPass {
  Field,    // with the field picture (Renderer::draw: the view, race, region, figures)
  Overlay,  // over the whole picture, after the modes' own (the view, figures)
};

struct LayerInfo {
  const char* name = "";  // errors say "Drawing the <name>"
  LayerPass pass = LayerPass::Overlay;
  bool LayerSettings::*shown = nullptr;  // its on/off switch; null: always on
  int toggleKey = 0;                     // the Qt::Key that flips `shown` in the view; 0: none
  // A checkbox for `shown` in the display panel's Layers section; null when ui/panel.cpp lays
  // out the layer's controls itself (the built-in ones, for their order on screen).
  const char* checkbox = nullptr;
};

// Flips the switch of the layer whose toggleKey is key; false when no layer has that key.
inline bool toggleLayerByKey(const std::vector<LayerInfo>& layers, int key,
                             LayerSettings& settings) {
  for (const LayerInfo& l : layers)
    if (l.toggleKey != 0 && l.toggleKey == key && l.shown) {
      settings.*l.shown = !(settings.*l.shown);
      return true;
    }
  return false;
}

}  // namespace gvflab::viewer
