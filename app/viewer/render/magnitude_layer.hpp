#pragma once
// |V| through a colormap (linear or log), blended over the image.
#include "viewer/model/colormap.hpp"
#include "viewer/render/layer.hpp"

namespace gvflab::viewer {

class MagnitudeLayer : public Layer {
 public:
  static LayerInfo info() {
    return {"|V| map", LayerPass::Field, &LayerSettings::showMagnitude, Qt::Key_M};
  }
  bool ready(const LayerFrame& frame) const override { return frame.field.texture != 0; }
  void draw(const LayerFrame& frame) override;

 private:
  void setColormap(Colormap map);  // uploads the table when it changed (or never was)

  ImageQuad quad_{"magnitude.frag.glsl"};  // GL context current; throws DeviceError on errors
  GlTexture colormapTexture_ = makeTexture(GL_LINEAR);  // 256 x 1 RGB32F
  int tableWidth_ = 0, tableHeight_ = 0;
  Colormap colormap_ = Colormap::Viridis;
};

}  // namespace gvflab::viewer
