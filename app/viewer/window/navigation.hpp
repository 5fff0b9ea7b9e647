#pragma once
// Keyboard navigation of the view and the readout of what is under the cursor.
#include <optional>

#include "gvflab/image.hpp"
#include "viewer/render/view_transform.hpp"

namespace gvflab::viewer {

// +/- zoom about the view centre, arrows pan, F fit, 1 one image pixel per screen pixel.
// Returns true when the key was a navigation key.
bool navigationKey(ViewTransform& view, int qtKey);

struct CursorReadout {
  int x = 0, y = 0;      // image pixel
  float intensity = 0;   // the input image, [0, 1]
  float vx = 0, vy = 0;  // the field
  float magnitude = 0;
};

// The pixel under image point (x, y) with the image's intensity, or nothing outside the image;
// the vector is 0 until setReadoutVector (the viewer reads that one pixel from the device).
std::optional<CursorReadout> readoutAt(float x, float y, const Image2D& image);
void setReadoutVector(CursorReadout& r, float vx, float vy);

// A small box at the bottom-left of the view (ImGui overlay), left/bottom in logical pixels,
// wrapped within maxWidth; gradF: the field shown is grad f (the selected snake's force).
void drawCursorReadout(const CursorReadout& r, float left, float bottom, float zoomPercent,
                       float maxWidth, bool gradF = false);

}  // namespace gvflab::viewer
