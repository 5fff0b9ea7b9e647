#include "viewer/render/layer_registry.hpp"

#include "viewer/render/glyph_layer.hpp"
#include "viewer/render/image_layer.hpp"
#include "viewer/render/magnitude_layer.hpp"
#include "viewer/render/snake_layer.hpp"
#include "viewer/render/streamline_layer.hpp"

namespace gvflab::viewer {
namespace {

template <class L>
LayerRegistration layer() {
  return {L::info(), [] { return std::make_unique<L>(); }};
}

}  // namespace

const std::vector<LayerRegistration>& layerRegistry() {
  // Drawing order within each pass (LayerInfo::pass): bottom first.
  static const std::vector<LayerRegistration> registry = {
      layer<ImageLayer>(),       // Field
      layer<MagnitudeLayer>(),   // Field
      layer<GlyphLayer>(),       // Field
      layer<StreamlineLayer>(),  // Overlay
      layer<SnakeLayer>(),       // Overlay
  };
  return registry;
}

std::vector<LayerInfo> layerInfos() {
  std::vector<LayerInfo> infos;
  for (const LayerRegistration& r : layerRegistry()) infos.push_back(r.info);
  return infos;
}

}  // namespace gvflab::viewer
