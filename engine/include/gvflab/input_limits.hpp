#pragma once
// The input limits every reader and client checks against, declared once: the largest image
// and volume sides (buildGvfInput, the image readers, phantoms, the bench), the range of a
// grid spacing (checkSpacing, --spacing, Python's spacing=), what a file's header may claim
// (checked before anything is allocated or decompressed: a hostile header cannot ask for
// terabytes) and the snakes a run takes (checked before any node is built).
#include <cstddef>
#include <cstdint>

namespace gvflab {

inline constexpr int kMaxImageSide = 16384;
inline constexpr int kMaxVolumeSide = 4096;
inline constexpr int kMinPhantomSide = 16;
// World units per sample along each axis; also far from float's limits (the kernels use h and
// 1/h² in float).
inline constexpr double kMinSpacing = 1e-6, kMaxSpacing = 1e6;
inline constexpr const char* kSpacingRangeText = "1e-6 to 1e6";

inline constexpr std::int64_t kMaxVoxels = std::int64_t(1) << 31;  // values in one file
inline constexpr std::int64_t kMaxSide = 1 << 16;                  // samples along one axis
inline constexpr std::int64_t kMaxHeaderBytes = 64LL << 20;        // header and extensions

inline constexpr std::size_t kMaxSnakes = 256;          // --snake and a session's, in one run
inline constexpr std::size_t kMaxSnakePoints = 100000;  // points given for one contour
inline constexpr double kMaxSnakeCoordinate = 1e7;      // |x|, |y|, radius in pixels
inline constexpr std::size_t kMaxSurfaces = 64;         // --surface and a session's, in one run

}  // namespace gvflab
