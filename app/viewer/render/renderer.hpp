#pragma once
// Draws the three layers of the view: the input image, the GVF magnitude through a colormap
// and the vector glyphs (instanced arrows reading the field texture). Every GL object is made
// once in the constructor or when the image size changes, never per frame. The viewer and the
// render test both draw through this class.
#include <array>

#include "gvflab/image.hpp"
#include "viewer/render/colormap.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/render/view_transform.hpp"

namespace gvflab::viewer {

struct LayerSettings {
  bool showImage = true;
  float imageBrightness = 1.0f;

  bool showMagnitude = true;
  float magnitudeOpacity = 0.85f;
  Colormap colormap = Colormap::Viridis;
  bool autoRange = true;       // range = [0, max |V|] of the current field
  float fixedRangeMax = 0.5f;  // used when !autoRange
  bool logScale = false;       // colour by log10 |V| over logDecades below the maximum
  float logDecades = 3.0f;

  bool showGlyphs = true;
  float glyphSpacing = 12.0f;  // image pixels between arrows
  float glyphScale = 1.0f;     // arrow length in spacings (at the range maximum)
  bool glyphNormalize = true;  // direction only: every arrow full length
  bool glyphOutline = true;    // dark outline, readable over any colormap
  std::array<float, 4> glyphColor = {1.0f, 1.0f, 1.0f, 0.95f};

  bool showStreamlines = false;     // drawn by StreamlineLayer
  float streamlineSpacing = 16.0f;  // image pixels between seeds
};

// A rectangle of the framebuffer in GL convention (origin bottom-left).
struct Viewport {
  int x = 0, y = 0, width = 0, height = 0;
};

struct FieldTextureRef {
  GLuint texture = 0;  // RG32F, one float2 per pixel
  int width = 0;
  int height = 0;
};

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
