#include "viewer/render/glyph_layer.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace gvflab::viewer {
namespace {

// Arrow outline as triangles, x along in [0, 1], y across in half-widths.
constexpr float kNeck = 0.62f, kHead = 2.6f;
constexpr float kArrow[] = {0,     -1,     kNeck, -1, kNeck, 1,  //
                            0,     -1,     kNeck, 1,  0,     1,  //
                            kNeck, -kHead, 1,     0,  kNeck, kHead};
constexpr GLsizei kArrowVertices = std::size(kArrow) / 2;

}  // namespace

GlyphGrid glyphGrid(float spacingScreenPixels, const ViewTransform& view, int fieldWidth,
                    int fieldHeight) {
  GlyphGrid g;
  const float scale = std::max(view.pixelsPerImagePixel(), 1e-6f);
  g.spacing = std::max(std::max(spacingScreenPixels, 2.0f) / scale, 1.0f);
  // The visible part of the image, in image pixels.
  const Vec2 a = view.screenToImage({0, 0});
  const Vec2 b = view.screenToImage(view.viewSize);
  const float x0 = std::clamp(std::min(a.x, b.x), 0.0f, static_cast<float>(fieldWidth));
  const float x1 = std::clamp(std::max(a.x, b.x), 0.0f, static_cast<float>(fieldWidth));
  const float y0 = std::clamp(std::min(a.y, b.y), 0.0f, static_cast<float>(fieldHeight));
  const float y1 = std::clamp(std::max(a.y, b.y), 0.0f, static_cast<float>(fieldHeight));
  const float s = g.spacing;
  const int i0 = static_cast<int>(std::floor(x0 / s)), j0 = static_cast<int>(std::floor(y0 / s));
  // Cells whose centre lies inside the image and the visible part (half a cell of margin).
  const int i1 = static_cast<int>(std::floor(std::min(x1, fieldWidth - 0.5f * s) / s - 0.5f));
  const int j1 = static_cast<int>(std::floor(std::min(y1, fieldHeight - 0.5f * s) / s - 0.5f));
  g.cols = std::max(i1 - i0 + 1, 0);
  g.rows = std::max(j1 - j0 + 1, 0);
  g.originX = i0 * s, g.originY = j0 * s;
  return g;
}

GlyphLayer::GlyphLayer() {
  gl().glBindBuffer(GL_ARRAY_BUFFER, shape_.id());
  gl().glBufferData(GL_ARRAY_BUFFER, sizeof kArrow, kArrow, GL_STATIC_DRAW);
  setVec2Attribute(vao_, shape_);
}

void GlyphLayer::draw(const LayerFrame& frame) {
  auto& f = gl();
  const LayerSettings& layers = frame.settings;
  const ViewTransform& view = frame.view;
  const GlyphGrid grid =
      glyphGrid(layers.glyphSpacing, view, frame.field.width, frame.field.height);
  const int cols = grid.cols, rows = grid.rows;
  if (cols < 1 || rows < 1) return;
  float onePixel = 1.0f / std::max(view.pixelsPerImagePixel(), 1e-3f);

  GLuint p = program_.id();
  f.glUseProgram(p);
  f.glActiveTexture(GL_TEXTURE0);
  f.glBindTexture(GL_TEXTURE_2D, frame.field.texture);
  f.glUniform1i(uniformAt(p, "uField"), 0);
  f.glUniform2i(uniformAt(p, "uGrid"), cols, rows);
  f.glUniform1f(uniformAt(p, "uSpacing"), grid.spacing);
  f.glUniform2f(uniformAt(p, "uGridOrigin"), grid.originX, grid.originY);
  f.glUniform1f(uniformAt(p, "uScale"), layers.glyphScale);
  f.glUniform1i(uniformAt(p, "uNormalize"), layers.glyphNormalize ? 1 : 0);
  f.glUniform1f(uniformAt(p, "uRange"), frame.rangeMax);
  f.glUniform1f(uniformAt(p, "uMinPixels"), 0.6f * onePixel);
  setImageToNdc(p, view);
  f.glBindVertexArray(vao_.id());
  GLint color = uniformAt(p, "uColor");
  GLint outline = uniformAt(p, "uOutline");
  if (layers.glyphOutline) {
    f.glUniform4f(color, 0.0f, 0.0f, 0.0f, 0.6f * layers.glyphColor[3]);
    f.glUniform1f(outline, 0.9f * onePixel);
    f.glDrawArraysInstanced(GL_TRIANGLES, 0, kArrowVertices, cols * rows);
  }
  const auto& c = layers.glyphColor;
  f.glUniform4f(color, c[0], c[1], c[2], c[3]);
  f.glUniform1f(outline, 0.0f);
  f.glDrawArraysInstanced(GL_TRIANGLES, 0, kArrowVertices, cols * rows);
}

}  // namespace gvflab::viewer
