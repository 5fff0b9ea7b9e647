#pragma once
// Grey from colour: the ITU-R BT.601 luma weights on the stored (gamma-encoded) values. The
// engine's PPM reader and the Python module's channel_axis use them; alpha is ignored.
namespace gvflab {

inline constexpr double kLumaRed = 0.299;
inline constexpr double kLumaGreen = 0.587;
inline constexpr double kLumaBlue = 0.114;

inline constexpr double luminance(double r, double g, double b) {
  return kLumaRed * r + kLumaGreen * g + kLumaBlue * b;
}

}  // namespace gvflab
