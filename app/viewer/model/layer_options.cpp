#include "viewer/model/layer_options.hpp"

#include "gvflab/error.hpp"

namespace gvflab::viewer {

Colormap colormapFromName(const std::string& name) {
  for (Colormap c : allColormaps())
    if (colormapName(c) == name) return c;
  throw ParameterError("Unknown colormap '" + name + "' (gray, viridis, inferno).");
}

}  // namespace gvflab::viewer
