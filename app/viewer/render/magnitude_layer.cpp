#include "viewer/render/magnitude_layer.hpp"

#include <vector>

namespace gvflab::viewer {

MagnitudeLayer::MagnitudeLayer()
    : program_(makeProgram("image_quad.vert.glsl", "magnitude.frag.glsl")),
      quadVao_(makeVertexArray()),
      colormapTexture_(makeTexture(GL_LINEAR)) {
  auto& f = gl();
  f.glBindTexture(GL_TEXTURE_2D, colormapTexture_.id());
  f.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB32F, kColormapSize, 1, 0, GL_RGB, GL_FLOAT, nullptr);
  f.glBindTexture(GL_TEXTURE_2D, 0);
  colormap_ = Colormap::Gray;  // force the first upload
  setColormap(Colormap::Viridis);
}

void MagnitudeLayer::setColormap(Colormap map) {
  if (map == colormap_) return;
  auto& f = gl();
  std::vector<Rgb> table = colormapTable(map);
  f.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  f.glBindTexture(GL_TEXTURE_2D, colormapTexture_.id());
  f.glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  f.glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kColormapSize, 1, GL_RGB, GL_FLOAT, table.data());
  f.glBindTexture(GL_TEXTURE_2D, 0);
  colormap_ = map;
}

void MagnitudeLayer::draw(const LayerFrame& frame) {
  const LayerSettings& layers = frame.settings;
  setColormap(layers.colormap);
  auto& f = gl();
  GLuint p = program_.id();
  f.glUseProgram(p);
  f.glActiveTexture(GL_TEXTURE0);
  f.glBindTexture(GL_TEXTURE_2D, frame.field.texture);
  f.glActiveTexture(GL_TEXTURE1);
  f.glBindTexture(GL_TEXTURE_2D, colormapTexture_.id());
  f.glUniform1i(uniformAt(p, "uField"), 0);
  f.glUniform1i(uniformAt(p, "uColormap"), 1);
  f.glUniform2f(uniformAt(p, "uRange"), 0.0f, frame.rangeMax);
  f.glUniform1f(uniformAt(p, "uLogDecades"), layers.logScale ? layers.logDecades : 0.0f);
  // Without the image underneath, blending over the background would only darken the map.
  f.glUniform1f(uniformAt(p, "uOpacity"), layers.showImage ? layers.magnitudeOpacity : 1.0f);
  f.glUniform2f(uniformAt(p, "uImageSize"), frame.view.imageSize.x, frame.view.imageSize.y);
  setImageToNdc(p, frame.view);
  f.glEnable(GL_BLEND);
  f.glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  f.glBindVertexArray(quadVao_.id());
  f.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  f.glActiveTexture(GL_TEXTURE1);
  f.glBindTexture(GL_TEXTURE_2D, 0);
  f.glActiveTexture(GL_TEXTURE0);
}

}  // namespace gvflab::viewer
