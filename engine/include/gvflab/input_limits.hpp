#pragma once
// The input limits every reader and client checks against, declared once: the largest image
// and volume sides (buildGvfInput, the image readers, phantoms, the bench) and the range of a
// grid spacing (checkSpacing, --spacing, Python's spacing=).
namespace gvflab {

inline constexpr int kMaxImageSide = 16384;
inline constexpr int kMaxVolumeSide = 4096;
inline constexpr int kMinPhantomSide = 16;
// World units per sample along each axis; also far from float's limits (the kernels use h and
// 1/h² in float).
inline constexpr double kMinSpacing = 1e-6, kMaxSpacing = 1e6;
inline constexpr const char* kSpacingRangeText = "1e-6 to 1e6";

}  // namespace gvflab
