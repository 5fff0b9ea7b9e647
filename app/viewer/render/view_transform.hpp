#pragma once
// Where the image sits in the view: fitted with its aspect ratio kept, then zoomed and panned.
// Image pixels have y down with (0, 0) at the top-left corner of the first pixel; screen
// pixels are the view's framebuffer pixels, also y down from its top-left corner.
#include <array>

namespace gvflab::viewer {

struct Vec2 {
  float x = 0, y = 0;
};

struct ViewTransform {
  Vec2 viewSize;   // framebuffer pixels
  Vec2 imageSize;  // image pixels
  float zoom = 1;  // 1 = fit
  Vec2 pan;        // screen pixels

  float pixelsPerImagePixel() const;
  Vec2 imageToScreen(Vec2 p) const;
  Vec2 screenToImage(Vec2 s) const;
  // (scale.x, scale.y, offset.x, offset.y): ndc = image * scale + offset.
  std::array<float, 4> imageToNdc() const;
  // Zooms by factor keeping the image point under screen point s fixed.
  void zoomAround(Vec2 s, float factor);
  void fit() { zoom = 1, pan = {}; }
  // 1:1: one image pixel per framebuffer pixel, keeping the image point at the view centre.
  void actualPixels();
};

}  // namespace gvflab::viewer
