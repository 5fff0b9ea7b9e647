#include "viewer/render/figure_renderer.hpp"

#include <algorithm>

#include "viewer/render/snake_layer.hpp"

namespace gvflab::viewer {

FigureRenderer::FigureRenderer(int width, int height, const DeviceInfo& device)
    : target_(width, height), presenter_(device) {
  view_.viewSize = {static_cast<float>(width), static_cast<float>(height)};
}

void FigureRenderer::setImage(const Image2D& image) {
  target_.bind();
  renderer_.setImage(image);
  view_.imageSize = {static_cast<float>(image.width), static_cast<float>(image.height)};
}

void FigureRenderer::setCapture(const std::vector<unsigned char>& rgba, int width, int height) {
  capture_ = rgba;  // uploaded by the snake layer at the next draw
  captureWidth_ = width, captureHeight_ = height;
  ++captureVersion_;
}

QImage FigureRenderer::draw(cl::CommandQueue& queue, const cl::Buffer& field, int fieldWidth,
                            int fieldHeight, const LayerSettings& layers,
                            const std::vector<SnakeContour>& snakes, bool showCapture,
                            long fieldVersion, const std::vector<SnakeTrail>* trails) {
  target_.bind();
  presenter_.setHostFieldWanted(layers.showStreamlines);  // traced on the host
  presenter_.upload(queue, field, fieldWidth, fieldHeight);
  const Viewport vp{0, 0, target_.width(), target_.height()};
  rangeMax_ = std::max(layers.autoRange ? presenter_.maxMagnitude() : layers.fixedRangeMax, 1e-12f);
  renderer_.draw(vp, view_, layers, presenter_.texture(), rangeMax_);
  SnakeScene scene;
  scene.drawing = {&snakes, {}, showNodes_, 0, 0, trails};
  scene.showCapture = showCapture;
  scene.captureOpacity = 0.45f;
  if (captureVersion_ >= 0) scene.captureRgba = &capture_;
  scene.captureWidth = captureWidth_, scene.captureHeight = captureHeight_;
  scene.captureVersion = captureVersion_;
  renderer_.drawOverlays({vp,
                          view_,
                          layers,
                          {},
                          presenter_.texture(),
                          rangeMax_,
                          &presenter_.hostField(),
                          fieldVersion,
                          false,
                          &scene});
  return target_.image();
}

}  // namespace gvflab::viewer
