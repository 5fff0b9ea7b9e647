#include "viewer/render/image_layer.hpp"

namespace gvflab::viewer {

ImageLayer::ImageLayer()
    : program_(makeProgram("image_quad.vert.glsl", "image.frag.glsl")),
      quadVao_(makeVertexArray()) {}

void ImageLayer::draw(const LayerFrame& frame) {
  auto& f = gl();
  GLuint p = program_.id();
  f.glUseProgram(p);
  f.glActiveTexture(GL_TEXTURE0);
  f.glBindTexture(GL_TEXTURE_2D, frame.image.texture);
  f.glUniform1i(uniformAt(p, "uImage"), 0);
  f.glUniform1f(uniformAt(p, "uBrightness"), frame.settings.imageBrightness);
  f.glUniform2f(uniformAt(p, "uImageSize"), frame.view.imageSize.x, frame.view.imageSize.y);
  setImageToNdc(p, frame.view);
  f.glDisable(GL_BLEND);
  f.glBindVertexArray(quadVao_.id());
  f.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

}  // namespace gvflab::viewer
