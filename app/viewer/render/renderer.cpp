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
  float spacing = std::max(layers.glyphSpacing, 1.0f);
  int cols = static_cast<int>(std::floor(field.width / spacing));
  int rows = static_cast<int>(std::floor(field.height / spacing));
  if (cols < 1 || rows < 1) return;
  float onePixel = 1.0f / std::max(view.pixelsPerImagePixel(), 1e-3f);

  GLuint p = glyphProgram_.id();
  f.glUseProgram(p);
  f.glActiveTexture(GL_TEXTURE0);
  f.glBindTexture(GL_TEXTURE_2D, field.texture);
  f.glUniform1i(uniform(p, "uField"), 0);
  f.glUniform2i(uniform(p, "uGrid"), cols, rows);
  f.glUniform1f(uniform(p, "uSpacing"), spacing);
  f.glUniform2f(uniform(p, "uGridOrigin"), 0.5f * (field.width - cols * spacing),
                0.5f * (field.height - rows * spacing));
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
