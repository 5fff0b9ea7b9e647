#include "viewer/model/layer_options.hpp"

#include "gvflab/error.hpp"

namespace gvflab::viewer {

Colormap colormapFromName(const std::string& name) {
  for (Colormap c : allColormaps())
    if (colormapName(c) == name) return c;
  throw ParameterError("Unknown colormap '" + name + "' (gray, viridis, inferno).");
}

LayerSettings layerSettingsFromOptions(const app::Options& options) {
  LayerSettings layers;
  if (options.colormap) layers.colormap = colormapFromName(*options.colormap);
  layers.logScale = options.logScale;
  return layers;
}

}  // namespace gvflab::viewer
