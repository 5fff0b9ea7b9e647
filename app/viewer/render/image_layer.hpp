#pragma once
// The input image in grey (LayerFrame::image), scaled by the brightness setting.
#include "viewer/render/layer.hpp"

namespace gvflab::viewer {

class ImageLayer : public Layer {
 public:
  static LayerInfo info() {
    return {"image", LayerPass::Field, &LayerSettings::showImage, Qt::Key_I};
  }
  bool ready(const LayerFrame& frame) const override { return frame.image.width > 0; }
  void draw(const LayerFrame& frame) override;

 private:
  ImageQuad quad_{"image.frag.glsl"};  // GL context current; throws DeviceError on errors
};

}  // namespace gvflab::viewer
