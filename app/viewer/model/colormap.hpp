#pragma once
// Colormaps for the magnitude layer. The same 256-entry table feeds the GL lookup texture and
// the legend, so the legend always matches what the shader draws.
#include <string>
#include <string_view>
#include <vector>

namespace gvflab::viewer {

enum class Colormap { Viridis, Inferno, Gray };

struct Rgb {
  float r, g, b;
};

inline constexpr int kColormapSize = 256;

std::vector<Colormap> allColormaps();
std::string_view colormapName(Colormap map);
Colormap colormapFromName(const std::string& name);  // throws ParameterError
// Colour at t in [0, 1] (clamped).
Rgb colormapAt(Colormap map, float t);
// Where |V| = m falls on the colour scale [0, 1] (the shader's formula): linear over
// [0, rangeMax], or log10 over `decades` decades below rangeMax when decades > 0.
float scalePosition(float m, float rangeMax, float decades);
// kColormapSize colours, t = i / (kColormapSize - 1).
std::vector<Rgb> colormapTable(Colormap map);

}  // namespace gvflab::viewer
