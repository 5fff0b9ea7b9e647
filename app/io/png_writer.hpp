#pragma once
// PNG output of the app (the capture map, |V|). Atomic, like every writer: a temporary file
// and a rename, so a failure never leaves a partial output behind.
#include <filesystem>
#include <vector>

#include "gvflab/image.hpp"

namespace gvflab {

// 8-bit grey PNG; values are clamped to [0, 1].
void writePngGray(const std::filesystem::path& path, const Image2D& image);
// 8-bit RGB PNG from interleaved rgb bytes (width * height * 3).
void writePngRgb(const std::filesystem::path& path, int width, int height,
                 const std::vector<unsigned char>& rgb);
// |V| scaled by its maximum (a flat field gives black).
void writeMagnitudePng(const std::filesystem::path& path, const Field2D& field);

}  // namespace gvflab
