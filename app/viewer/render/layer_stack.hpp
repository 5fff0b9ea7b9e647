#pragma once
// Every registered layer (layer_registry.cpp), made once in a GL context, drawn pass by pass.
// The Renderer holds one: its draw() is the Field pass, drawOverlays() the Overlay pass.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "viewer/render/layer_registry.hpp"

namespace gvflab::viewer {

// Runs one layer's drawing; the viewer passes one that reports errors ("Drawing the <name>")
// and goes on with the next layer.
using LayerGuard = std::function<void(const std::string& doing, const std::function<void()>& draw)>;

class LayerStack {
 public:
  LayerStack();  // GL context current; throws DeviceError on shader errors
  // The pass's layers whose switch is on and whose data is ready, bottom first. Without a
  // guard errors propagate.
  void draw(LayerPass pass, const LayerFrame& frame, const LayerGuard& guard = {});

 private:
  struct Entry {
    LayerInfo info;
    std::unique_ptr<Layer> layer;
  };
  std::vector<Entry> layers_;
};

}  // namespace gvflab::viewer
