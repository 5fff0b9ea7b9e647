#pragma once
// Colormaps by name (--colormap, saved sessions and settings).
#include <string>

#include "viewer/model/layer_settings.hpp"

namespace gvflab::viewer {

Colormap colormapFromName(const std::string& name);  // throws ParameterError

}  // namespace gvflab::viewer
