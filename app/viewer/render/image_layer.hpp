#pragma once
// The input image in grey (LayerFrame::image), scaled by the brightness setting.
#include "viewer/render/layer.hpp"

namespace gvflab::viewer {

class ImageLayer : public Layer {
 public:
  static LayerInfo info() {
    return {"image", LayerPass::Field, &LayerSettings::showImage, Qt::Key_I};
  }
  ImageLayer();  // GL context current; throws DeviceError on shader errors
  bool ready(const LayerFrame& frame) const override { return frame.image.width > 0; }
  void draw(const LayerFrame& frame) override;

 private:
  GlProgram program_;
  GlVertexArray quadVao_;  // no attributes: corners come from gl_VertexID
};

}  // namespace gvflab::viewer
