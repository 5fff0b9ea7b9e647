#pragma once
// Draws streamlines of the field (see streamlines.hpp) as thin translucent polylines over the
// other layers. The lines are traced again only when the field or the spacing changed.
#include <vector>

#include "viewer/model/streamlines.hpp"
#include "viewer/render/layer.hpp"

namespace gvflab::viewer {

class StreamlineLayer : public Layer {
 public:
  static LayerInfo info() {
    return {"streamlines", LayerPass::Overlay, &LayerSettings::showStreamlines, Qt::Key_T};
  }
  // Traced on the host: needs the host copy of the field, and no mode hiding the field.
  bool ready(const LayerFrame& frame) const override {
    return frame.hostField != nullptr && !frame.fieldHidden;
  }
  void draw(const LayerFrame& frame) override {
    draw(frame.area, frame.view, *frame.hostField, frame.field.width, frame.field.height,
         frame.settings, frame.fieldVersion);
  }

  // field: the host copy of the field (Presenter::hostField); fieldVersion says when it changed.
  void draw(const Viewport& viewport, const ViewTransform& view, const std::vector<float>& field,
            int width, int height, const LayerSettings& layers, long fieldVersion);

 private:
  LineProgram lines_;  // GL context current; throws DeviceError on shader errors
  std::vector<GLint> starts_;
  std::vector<GLsizei> counts_;
  long tracedVersion_ = -1;
  float tracedSpacing_ = 0;
};

}  // namespace gvflab::viewer
