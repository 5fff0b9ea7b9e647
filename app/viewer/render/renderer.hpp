#pragma once
// Draws the three layers of the view: the input image, the GVF magnitude through a colormap
// and the vector glyphs (instanced arrows reading the field texture). Every GL object is made
// once in the constructor or when the image size changes, never per frame. The viewer and the
// render test both draw through this class.
#include <array>

#include "gvflab/image.hpp"
#include "viewer/model/layer_settings.hpp"
#include "viewer/model/colormap.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/render/view_transform.hpp"

namespace gvflab::viewer {

// A rectangle of the framebuffer in GL convention (origin bottom-left).
struct Viewport {
  int x = 0, y = 0, width = 0, height = 0;
};

struct FieldTextureRef {
  GLuint texture = 0;  // RG32F, one float2 per pixel
  int width = 0;
  int height = 0;
};

// The arrow grid: spacing is given in screen pixels (a constant density on screen at any zoom)
// and turned into image pixels (at least one); only the visible part of the image gets arrows,
// centres at (origin + (i + 0.5) * spacing), anchored to the image so panning keeps them put.
struct GlyphGrid {
  int cols = 0, rows = 0;
  float spacing = 1;         // image pixels
  float originX = 0, originY = 0;  // image pixels
};
GlyphGrid glyphGrid(float spacingScreenPixels, const ViewTransform& view, int fieldWidth,
                    int fieldHeight);

class Renderer {
 public:
  Renderer();  // the GL context must be current; throws DeviceError on shader errors
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  void setImage(const Image2D& image);  // reallocates only when the size changes
  // rangeMax: |V| drawn as the last colour (and as a full-length arrow when not normalised).
  void draw(const Viewport& viewport, const ViewTransform& view, const LayerSettings& layers,
            const FieldTextureRef& field, float rangeMax);

 private:
  void setColormap(Colormap map);
  void drawImage(const ViewTransform& view, const LayerSettings& layers);
  void drawMagnitude(const ViewTransform& view, const LayerSettings& layers,
                     const FieldTextureRef& field, float rangeMax);
  void drawGlyphs(const ViewTransform& view, const LayerSettings& layers,
                  const FieldTextureRef& field, float rangeMax);

  GlProgram imageProgram_;
  GlProgram magnitudeProgram_;
  GlProgram glyphProgram_;
  GlVertexArray quadVao_;  // no attributes: corners come from gl_VertexID
  GlVertexArray glyphVao_;
  GlBuffer glyphShape_;
  GLsizei glyphVertexCount_ = 0;
  GlTexture imageTexture_;  // R32F
  int imageWidth_ = 0, imageHeight_ = 0;
  GlTexture colormapTexture_;  // 256 x 1 RGB32F
  Colormap colormap_ = Colormap::Viridis;
};

}  // namespace gvflab::viewer
