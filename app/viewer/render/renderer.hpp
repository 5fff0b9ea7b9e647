#pragma once
// Draws the view's layers (layer_registry.cpp: the input image, the GVF magnitude through a
// colormap, the vector glyphs, then the streamlines and the snakes over them) through one
// LayerStack. Every GL object is made once in the constructor or when the image size changes,
// never per frame. The viewer, headless figures and the render tests all draw through it.
#include "gvflab/image.hpp"
#include "viewer/model/layer_settings.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/render/layer.hpp"
#include "viewer/render/layer_stack.hpp"
#include "viewer/render/view_transform.hpp"

namespace gvflab::viewer {

class Renderer {
 public:
  Renderer();  // the GL context must be current; throws DeviceError on shader errors
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  void setImage(const Image2D& image);  // reallocates only when the size changes
  // Clears the viewport and draws the Field pass (image, |V| map, arrows, ...).
  // rangeMax: |V| drawn as the last colour (and as a full-length arrow when not normalised).
  void draw(const Viewport& viewport, const ViewTransform& view, const LayerSettings& layers,
            const FieldTextureRef& field, float rangeMax);
  // The Overlay pass (streamlines, snakes, ...) over what is drawn; frame.image is filled in.
  void drawOverlays(const LayerFrame& frame, const LayerGuard& guard = {});

 private:
  TextureRef image() const { return {imageTexture_.id(), imageWidth_, imageHeight_}; }

  LayerStack layers_;
  GlTexture imageTexture_;  // R32F
  int imageWidth_ = 0, imageHeight_ = 0;
};

}  // namespace gvflab::viewer
