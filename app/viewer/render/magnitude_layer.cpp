#include "viewer/render/magnitude_layer.hpp"

#include <vector>

namespace gvflab::viewer {

void MagnitudeLayer::setColormap(Colormap map) {
  if (map == colormap_ && tableWidth_ > 0) return;
  const std::vector<Rgb> table = colormapTable(map);
  uploadTexture(colormapTexture_, tableWidth_, tableHeight_, GL_RGB32F, GL_RGB, GL_FLOAT,
                kColormapSize, 1, table.data());
  colormap_ = map;
}

void MagnitudeLayer::draw(const LayerFrame& frame) {
  const LayerSettings& layers = frame.settings;
  setColormap(layers.colormap);
  auto& f = gl();
  GLuint p = quad_.program();
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
  quad_.draw(frame.view);
  f.glActiveTexture(GL_TEXTURE1);
  f.glBindTexture(GL_TEXTURE_2D, 0);
  f.glActiveTexture(GL_TEXTURE0);
}

}  // namespace gvflab::viewer
