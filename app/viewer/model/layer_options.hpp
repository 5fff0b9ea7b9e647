#pragma once
// The layer settings the command line asks for (--colormap, --log-scale), shared by the
// window and headless recording.
#include "cli/options.hpp"
#include "viewer/render/renderer.hpp"

namespace gvflab::viewer {

LayerSettings layerSettingsFromOptions(const app::Options& options);
Colormap colormapFromName(const std::string& name);  // throws ParameterError

}  // namespace gvflab::viewer
