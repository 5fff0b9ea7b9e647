#pragma once
// Sizes the volume and image readers accept, checked against a file's header before anything is
// allocated or decompressed, so a corrupt or hostile header cannot ask for terabytes.
#include <cstdint>

namespace gvflab::app {

inline constexpr std::int64_t kMaxVoxels = std::int64_t(1) << 31;  // values in one volume
inline constexpr std::int64_t kMaxSide = 1 << 16;                   // voxels along one axis
inline constexpr std::int64_t kMaxHeaderBytes = 64LL << 20;         // header and extensions

}  // namespace gvflab::app
