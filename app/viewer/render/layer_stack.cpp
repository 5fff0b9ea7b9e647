#include "viewer/render/layer_stack.hpp"

namespace gvflab::viewer {

LayerStack::LayerStack() {
  for (const LayerRegistration& r : layerRegistry()) layers_.push_back({r.info, r.make()});
}

void LayerStack::draw(LayerPass pass, const LayerFrame& frame, const LayerGuard& guard) {
  for (Entry& e : layers_) {
    if (e.info.pass != pass) continue;
    if (e.info.shown && !(frame.settings.*e.info.shown)) continue;
    if (!e.layer->ready(frame)) continue;
    if (guard)
      guard(std::string("Drawing the ") + e.info.name, [&] { e.layer->draw(frame); });
    else
      e.layer->draw(frame);
  }
}

}  // namespace gvflab::viewer
