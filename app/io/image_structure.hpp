#pragma once
// Our own bounded walks over a PNG's chunks and a JPEG's markers, before any decoder sees the
// file: a chunk or segment that runs past the end is truncation, and metadata is bounded (a
// 153-byte PNG declaring a 2 GiB tEXt chunk, or 300k JPEG COM markers that libjpeg would
// collect in quadratic time, are refused here at once). One pass, reading 64 KiB at a time.
#include <cstdint>

#include "gvflab/input_file.hpp"

namespace gvflab::app {

// Metadata (PNG chunks other than IHDR, PLTE, IDAT and IEND; JPEG APPn and COM segments).
inline constexpr int kMaxMetadataSegments = 1000;
inline constexpr std::uint64_t kMaxMetadataBytes = std::uint64_t(16) << 20;  // in all
inline constexpr std::uint64_t kMaxPngChunkBytes = 8000000;  // one chunk (libpng's default)
inline constexpr int kMaxJpegMarkers = 10000;                // tables, scans and restarts aside

// Each throws InputError naming the file: truncated, corrupt, or too much metadata.
void checkPngChunks(const InputFile& file);
void checkJpegMarkers(const InputFile& file);

}  // namespace gvflab::app
