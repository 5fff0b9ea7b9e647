#pragma once
// What the view shows and how (the right panel's settings): a plain value, saved in sessions
// and settings, so model and UI code need no GL header to hold one.
#include <array>

#include "viewer/model/colormap.hpp"

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
  float glyphSpacing = 24.0f;  // screen pixels between arrows (the same density at any zoom)
  float glyphScale = 1.0f;     // arrow length in spacings (at the range maximum)
  bool glyphNormalize = true;  // direction only: every arrow full length
  bool glyphOutline = true;    // dark outline, readable over any colormap
  std::array<float, 4> glyphColor = {1.0f, 1.0f, 1.0f, 0.95f};

  bool showStreamlines = false;     // drawn by StreamlineLayer
  float streamlineSpacing = 16.0f;  // image pixels between seeds
};

}  // namespace gvflab::viewer
