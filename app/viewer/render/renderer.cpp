#include "viewer/render/renderer.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gvflab::viewer {
namespace {

void setTextureParams(QOpenGLFunctions_3_3_Core& f, GLint filter) {
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

// Arrow outline as triangles, x along in [0, 1], y across in half-widths.
std::vector<float> arrowShape() {
  const float neck = 0.62f, head = 2.6f;
  return {0,    -1,    neck, -1, neck, 1,  //
          0,    -1,    neck, 1,  0,    1,  //
          neck, -head, 1,    0,  neck, head};
}

GLint uniform(GLuint program, const char* name) { return gl().glGetUniformLocation(program, name); }

void setImageToNdc(GLuint program, const ViewTransform& view) {
  auto m = view.imageToNdc();
  gl().glUniform4f(uniform(program, "uImageToNdc"), m[0], m[1], m[2], m[3]);
}

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

Renderer::Renderer()
    : imageProgram_(makeProgram("image_quad.vert.glsl", "image.frag.glsl")),
      magnitudeProgram_(makeProgram("image_quad.vert.glsl", "magnitude.frag.glsl")),
      glyphProgram_(makeProgram("glyph.vert.glsl", "glyph.frag.glsl")),
      quadVao_(makeVertexArray()),
      glyphVao_(makeVertexArray()),
      glyphShape_(makeBuffer()),
      imageTexture_(makeTexture()),
      colormapTexture_(makeTexture()) {
  auto& f = gl();
  std::vector<float> shape = arrowShape();
  glyphVertexCount_ = static_cast<GLsizei>(shape.size() / 2);
  f.glBindVertexArray(glyphVao_.id());
  f.glBindBuffer(GL_ARRAY_BUFFER, glyphShape_.id());
  f.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(shape.size() * sizeof(float)),
                 shape.data(), GL_STATIC_DRAW);
  f.glEnableVertexAttribArray(0);
  f.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
  f.glBindVertexArray(0);
  f.glBindBuffer(GL_ARRAY_BUFFER, 0);

  f.glBindTexture(GL_TEXTURE_2D, colormapTexture_.id());
  setTextureParams(f, GL_LINEAR);
  f.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB32F, kColormapSize, 1, 0, GL_RGB, GL_FLOAT, nullptr);
  f.glBindTexture(GL_TEXTURE_2D, imageTexture_.id());
  setTextureParams(f, GL_LINEAR);
  f.glBindTexture(GL_TEXTURE_2D, 0);
  colormap_ = Colormap::Gray;  // force the first upload
  setColormap(Colormap::Viridis);
}

void Renderer::setColormap(Colormap map) {
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

void Renderer::setImage(const Image2D& image) {
  auto& f = gl();
  f.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  f.glBindTexture(GL_TEXTURE_2D, imageTexture_.id());
  f.glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  if (image.width != imageWidth_ || image.height != imageHeight_) {
    f.glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, image.width, image.height, 0, GL_RED, GL_FLOAT,
                   image.pixels.data());
    imageWidth_ = image.width;
    imageHeight_ = image.height;
  } else {
    f.glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.width, image.height, GL_RED, GL_FLOAT,
                      image.pixels.data());
  }
  f.glBindTexture(GL_TEXTURE_2D, 0);
}

void Renderer::draw(const Viewport& viewport, const ViewTransform& view,
                    const LayerSettings& layers, const FieldTextureRef& field, float rangeMax) {
  auto& f = gl();
  setColormap(layers.colormap);
  f.glViewport(viewport.x, viewport.y, viewport.width, viewport.height);
  f.glEnable(GL_SCISSOR_TEST);
  f.glScissor(viewport.x, viewport.y, viewport.width, viewport.height);
  f.glClearColor(0.11f, 0.11f, 0.13f, 1.0f);
  f.glClear(GL_COLOR_BUFFER_BIT);
  f.glDisable(GL_DEPTH_TEST);
  f.glDisable(GL_CULL_FACE);

  if (layers.showImage && imageWidth_ > 0) drawImage(view, layers);
  if (field.texture != 0) {
    if (layers.showMagnitude) drawMagnitude(view, layers, field, rangeMax);
    if (layers.showGlyphs) drawGlyphs(view, layers, field, rangeMax);
  }

  f.glDisable(GL_SCISSOR_TEST);
  f.glDisable(GL_BLEND);
  f.glBindVertexArray(0);
  f.glUseProgram(0);
  f.glActiveTexture(GL_TEXTURE0);
  f.glBindTexture(GL_TEXTURE_2D, 0);
}

void Renderer::drawImage(const ViewTransform& view, const LayerSettings& layers) {
  auto& f = gl();
  GLuint p = imageProgram_.id();
  f.glUseProgram(p);
  f.glActiveTexture(GL_TEXTURE0);
  f.glBindTexture(GL_TEXTURE_2D, imageTexture_.id());
  f.glUniform1i(uniform(p, "uImage"), 0);
  f.glUniform1f(uniform(p, "uBrightness"), layers.imageBrightness);
  f.glUniform2f(uniform(p, "uImageSize"), view.imageSize.x, view.imageSize.y);
  setImageToNdc(p, view);
  f.glDisable(GL_BLEND);
  f.glBindVertexArray(quadVao_.id());
  f.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

void Renderer::drawMagnitude(const ViewTransform& view, const LayerSettings& layers,
                             const FieldTextureRef& field, float rangeMax) {
  auto& f = gl();
  GLuint p = magnitudeProgram_.id();
  f.glUseProgram(p);
  f.glActiveTexture(GL_TEXTURE0);
  f.glBindTexture(GL_TEXTURE_2D, field.texture);
  f.glActiveTexture(GL_TEXTURE1);
  f.glBindTexture(GL_TEXTURE_2D, colormapTexture_.id());
  f.glUniform1i(uniform(p, "uField"), 0);
  f.glUniform1i(uniform(p, "uColormap"), 1);
  f.glUniform2f(uniform(p, "uRange"), 0.0f, rangeMax);
  f.glUniform1f(uniform(p, "uLogDecades"), layers.logScale ? layers.logDecades : 0.0f);
  // Without the image underneath, blending over the background would only darken the map.
  f.glUniform1f(uniform(p, "uOpacity"), layers.showImage ? layers.magnitudeOpacity : 1.0f);
  f.glUniform2f(uniform(p, "uImageSize"), view.imageSize.x, view.imageSize.y);
  setImageToNdc(p, view);
  f.glEnable(GL_BLEND);
  f.glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  f.glBindVertexArray(quadVao_.id());
  f.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  f.glActiveTexture(GL_TEXTURE1);
  f.glBindTexture(GL_TEXTURE_2D, 0);
  f.glActiveTexture(GL_TEXTURE0);
}

void Renderer::drawGlyphs(const ViewTransform& view, const LayerSettings& layers,
                          const FieldTextureRef& field, float rangeMax) {
  auto& f = gl();
  const GlyphGrid grid = glyphGrid(layers.glyphSpacing, view, field.width, field.height);
  const int cols = grid.cols, rows = grid.rows;
  const float spacing = grid.spacing;
  if (cols < 1 || rows < 1) return;
  float onePixel = 1.0f / std::max(view.pixelsPerImagePixel(), 1e-3f);

  GLuint p = glyphProgram_.id();
  f.glUseProgram(p);
  f.glActiveTexture(GL_TEXTURE0);
  f.glBindTexture(GL_TEXTURE_2D, field.texture);
  f.glUniform1i(uniform(p, "uField"), 0);
  f.glUniform2i(uniform(p, "uGrid"), cols, rows);
  f.glUniform1f(uniform(p, "uSpacing"), spacing);
  f.glUniform2f(uniform(p, "uGridOrigin"), grid.originX, grid.originY);
  f.glUniform1f(uniform(p, "uScale"), layers.glyphScale);
  f.glUniform1i(uniform(p, "uNormalize"), layers.glyphNormalize ? 1 : 0);
  f.glUniform1f(uniform(p, "uRange"), rangeMax);
  f.glUniform1f(uniform(p, "uMinPixels"), 0.6f * onePixel);
  setImageToNdc(p, view);
  f.glEnable(GL_BLEND);
  f.glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  f.glBindVertexArray(glyphVao_.id());
  GLint color = uniform(p, "uColor");
  GLint outline = uniform(p, "uOutline");
  if (layers.glyphOutline) {
    f.glUniform4f(color, 0.0f, 0.0f, 0.0f, 0.6f * layers.glyphColor[3]);
    f.glUniform1f(outline, 0.9f * onePixel);
    f.glDrawArraysInstanced(GL_TRIANGLES, 0, glyphVertexCount_, cols * rows);
  }
  const auto& c = layers.glyphColor;
  f.glUniform4f(color, c[0], c[1], c[2], c[3]);
  f.glUniform1f(outline, 0.0f);
  f.glDrawArraysInstanced(GL_TRIANGLES, 0, glyphVertexCount_, cols * rows);
}

}  // namespace gvflab::viewer
