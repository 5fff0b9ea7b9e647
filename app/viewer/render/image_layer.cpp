#include "viewer/render/image_layer.hpp"

namespace gvflab::viewer {

void ImageLayer::draw(const LayerFrame& frame) {
  auto& f = gl();
  GLuint p = quad_.program();
  f.glUseProgram(p);
  f.glActiveTexture(GL_TEXTURE0);
  f.glBindTexture(GL_TEXTURE_2D, frame.image.texture);
  f.glUniform1i(uniformAt(p, "uImage"), 0);
  f.glUniform1f(uniformAt(p, "uBrightness"), frame.settings.imageBrightness);
  quad_.draw(frame.view);
}

}  // namespace gvflab::viewer
