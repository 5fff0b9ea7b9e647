#include "viewer/render/renderer.hpp"

namespace gvflab::viewer {

Renderer::Renderer() : imageTexture_(makeTexture(GL_LINEAR)) {}

void Renderer::setImage(const Image2D& image) {
  uploadTexture(imageTexture_, imageWidth_, imageHeight_, GL_R32F, GL_RED, GL_FLOAT, image.width,
                image.height, image.pixels.data());
}

void Renderer::draw(const Viewport& viewport, const ViewTransform& view,
                    const LayerSettings& layers, const FieldTextureRef& field, float rangeMax) {
  auto& f = gl();
  beginOverlayDraw(viewport);  // the layers blend over the one below (the image is opaque)
  f.glClearColor(0.11f, 0.11f, 0.13f, 1.0f);
  f.glClear(GL_COLOR_BUFFER_BIT);
  f.glDisable(GL_DEPTH_TEST);
  f.glDisable(GL_CULL_FACE);

  const LayerFrame frame{viewport, view, layers, image(), field, rangeMax};
  layers_.draw(LayerPass::Field, frame);

  f.glDisable(GL_SCISSOR_TEST);
  f.glDisable(GL_BLEND);
  f.glBindVertexArray(0);
  f.glUseProgram(0);
  f.glActiveTexture(GL_TEXTURE0);
  f.glBindTexture(GL_TEXTURE_2D, 0);
}

void Renderer::drawOverlays(const LayerFrame& frame, const LayerGuard& guard) {
  LayerFrame withImage = frame;
  withImage.image = image();
  layers_.draw(LayerPass::Overlay, withImage, guard);
}

}  // namespace gvflab::viewer
