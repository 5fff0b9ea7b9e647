#pragma once
// Sizes the volume and image readers accept (the images' side: gvflab/input_limits.hpp), checked
// against a file's header before anything is allocated or decompressed, so a corrupt or hostile
// header cannot ask for terabytes.
#include <cstddef>
#include <cstdint>

#include "gvflab/input_file.hpp"  // byteCount and checkHostMemory, the engine's

namespace gvflab::app {

inline constexpr std::int64_t kMaxVoxels = std::int64_t(1) << 31;  // values in one volume
inline constexpr std::int64_t kMaxSide = 1 << 16;                  // voxels along one axis
inline constexpr std::int64_t kMaxHeaderBytes = 64LL << 20;        // header and extensions

// Limits of snakes given by --snake or a session, checked before any node is built (a snake
// has at most ParametricSnake::kMaxNodes nodes once resampled).
constexpr std::size_t kMaxSnakes = 256;          // in one run
constexpr std::size_t kMaxSnakePoints = 100000;  // points given for one contour
constexpr double kMaxSnakeCoordinate = 1e7;      // |x|, |y|, radius in pixels
constexpr std::size_t kMaxSurfaces = 64;         // --surface and a session's, in one run

}  // namespace gvflab::app
