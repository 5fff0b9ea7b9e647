#include "viewer/model/colormap.hpp"

#include <algorithm>
#include <cmath>

#include "gvflab/enum_names.hpp"
#include "gvflab/error.hpp"

namespace gvflab::viewer {
namespace {

// Degree-6 polynomial fits of matplotlib's viridis and inferno (Matt Zucker, CC0); within a
// few 1/255 of the published tables, which is below what a legend can show.
struct Poly {
  Rgb c[7];
};

constexpr Poly kViridis = {{{0.2777273272234177f, 0.005407344544966578f, 0.3340998053353061f},
                            {0.1050930431085774f, 1.404613529898575f, 1.384590162594685f},
                            {-0.3308618287255563f, 0.214847559468213f, 0.09509516302823659f},
                            {-4.634230498983486f, -5.799100973351585f, -19.33244095627987f},
                            {6.228269936347081f, 14.17993336680509f, 56.69055260068105f},
                            {4.776384997670288f, -13.74514537774601f, -65.35303263337234f},
                            {-5.435455855934631f, 4.645852612178535f, 26.3124352495832f}}};

constexpr Poly kInferno = {{{0.0002189403691192265f, 0.001651004631001012f, -0.01948089843709184f},
                            {0.1065134194856116f, 0.5639564367884091f, 3.932712388889277f},
                            {11.60249308247187f, -3.972853965665698f, -15.9423941062914f},
                            {-41.70399613139459f, 17.43639888205313f, 44.35414519872813f},
                            {77.162935699427f, -33.40235894210092f, -81.80730925738993f},
                            {-71.31942824499214f, 32.62606426397723f, 73.20951985803202f},
                            {25.13112622477341f, -12.24266895238567f, -23.07032500287172f}}};

Rgb evaluate(const Poly& p, float t) {
  Rgb v = p.c[6];
  for (int i = 5; i >= 0; --i) {
    v.r = p.c[i].r + t * v.r;
    v.g = p.c[i].g + t * v.g;
    v.b = p.c[i].b + t * v.b;
  }
  auto clamp01 = [](float x) { return std::clamp(x, 0.0f, 1.0f); };
  return {clamp01(v.r), clamp01(v.g), clamp01(v.b)};
}

constexpr EnumNames<Colormap, 3> kColormaps{
    {{Colormap::Viridis, "viridis"}, {Colormap::Inferno, "inferno"}, {Colormap::Gray, "gray"}}};
}  // namespace

std::vector<Colormap> allColormaps() {
  std::vector<Colormap> maps;
  for (const auto& entry : kColormaps) maps.push_back(entry.first);
  return maps;
}

std::string_view colormapName(Colormap map) { return enumName(kColormaps, map); }

Colormap colormapFromName(const std::string& name) {
  for (Colormap c : allColormaps())
    if (colormapName(c) == name) return c;
  throw ParameterError("Unknown colormap '" + name + "' (gray, viridis, inferno).");
}

Rgb colormapAt(Colormap map, float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  if (map == Colormap::Gray) return {t, t, t};
  return evaluate(map == Colormap::Viridis ? kViridis : kInferno, t);
}

std::vector<Rgb> colormapTable(Colormap map) {
  std::vector<Rgb> table(kColormapSize);
  for (int i = 0; i < kColormapSize; ++i)
    table[i] = colormapAt(map, static_cast<float>(i) / (kColormapSize - 1));
  return table;
}

float scalePosition(float m, float rangeMax, float decades) {
  float t = decades > 0
                ? 1.0f + std::log10(std::max(m, 1e-30f) / std::max(rangeMax, 1e-30f)) / decades
                : m / std::max(rangeMax, 1e-20f);
  return std::clamp(t, 0.0f, 1.0f);
}

}  // namespace gvflab::viewer
