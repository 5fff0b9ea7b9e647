#pragma once
// The vector glyphs: instanced arrows reading the field texture, on a grid of constant density
// on screen.
#include "viewer/render/layer.hpp"

namespace gvflab::viewer {

// The arrow grid: spacing is given in screen pixels (a constant density on screen at any zoom)
// and turned into image pixels (at least one); only the visible part of the image gets arrows,
// centres at (origin + (i + 0.5) * spacing), anchored to the image so panning keeps them put.
struct GlyphGrid {
  int cols = 0, rows = 0;
  float spacing = 1;               // image pixels
  float originX = 0, originY = 0;  // image pixels
};
GlyphGrid glyphGrid(float spacingScreenPixels, const ViewTransform& view, int fieldWidth,
                    int fieldHeight);

class GlyphLayer : public Layer {
 public:
  static LayerInfo info() {
    return {"arrows", LayerPass::Field, &LayerSettings::showGlyphs, Qt::Key_G};
  }
  GlyphLayer();  // GL context current; throws DeviceError on shader errors
  bool ready(const LayerFrame& frame) const override { return frame.field.texture != 0; }
  void draw(const LayerFrame& frame) override;

 private:
  GlProgram program_ = makeProgram("glyph.vert.glsl", "glyph.frag.glsl");
  GlVertexArray vao_ = makeVertexArray();
  GlBuffer shape_ = makeBuffer();  // the arrow, drawn once per grid cell
};

}  // namespace gvflab::viewer
