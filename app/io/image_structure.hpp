#pragma once
// Our own bounded walks over a file's structure, before any library parses it (issue 38), each
// throwing InputError naming the file (and the page) at the first thing that is wrong:
//   - A PNG decoded once by libpng before Qt reads it, so that a corrupt file gets a sentence
//     that says what is wrong (truncated, bad header, corrupt data, too large) instead of
//     libpng's own stderr lines and Qt's "Unable to read image data"; sizes are checked from
//     the header (at most 16384 per side, and the host's memory) before any row is decoded.
//   - PNG chunks and JPEG markers: a chunk or segment that runs past the end is truncation, and
//     metadata is bounded (a 153-byte PNG declaring a 2 GiB tEXt chunk, or 300k JPEG COM markers
//     that libjpeg would collect in quadratic time, are refused here at once). One pass, reading
//     64 KiB at a time.
//   - A TIFF's chain of pages (IFDs), before libtiff reads a page: linear in the page count and
//     bounded by what the headers show, so that a hostile file is refused in milliseconds
//     instead of after minutes of libtiff's work or gigabytes of its buffers: at most maxPages
//     pages, counted without reading them (a loop in the chain is refused); every entry's data
//     inside the file, at most kMaxHeaderBytes (gvflab/input_limits.hpp) of tag data over all pages
//     together (libtiff reads a description shared by every page again for each page); each
//     page's strips or tiles inside the file, tiles of at most 16384 per side, and enough data
//     for the page's size (raw: every byte; compressed: within a 4096:1 ratio) before a buffer
//     of that size is allocated.
//   - A DICOM file, before GDCM sees a byte of it. Debian's GDCM is built with assertions, and a
//     file cut short inside a sequence, an item past its sequence's end, a sequence with no end,
//     an odd length, a fragment past the end or a truncated deflated data set aborts (or
//     crashes) inside it. The walk follows every element, sequence, item and encapsulated
//     fragment to the end of the stream (inflating a deflated data set with a bound). Bounds:
//     nesting at most kMaxDicomDepth sequences deep, at most kMaxDicomElements elements and
//     fragments in all, at most kMaxHeaderBytes of values besides the pixel data; a deflated
//     data set inflates to at most that plus the pixel data its header declares.
#include <cstdint>

#include "gvflab/input_file.hpp"

namespace gvflab::app {

// Metadata (PNG chunks other than IHDR, PLTE, IDAT and IEND; JPEG APPn and COM segments).
inline constexpr int kMaxMetadataSegments = 1000;
inline constexpr std::uint64_t kMaxMetadataBytes = std::uint64_t(16) << 20;  // in all
inline constexpr std::uint64_t kMaxPngChunkBytes = 8000000;  // one chunk (libpng's default)
inline constexpr int kMaxJpegMarkers = 10000;                // tables, scans and restarts aside
inline constexpr int kMaxDicomDepth = 16;
inline constexpr std::uint64_t kMaxDicomElements = 1u << 20;

void checkPngFile(const InputFile& file);
void checkPngChunks(const InputFile& file);
void checkJpegMarkers(const InputFile& file);
// The number of pages.
int prewalkTiff(const InputFile& file, int maxPages);
void prewalkDicom(const InputFile& file);

// The unsigned integer of `bytes` bytes (at most 8) at b, in the file's byte order.
inline std::uint64_t unpack(const unsigned char* b, unsigned bytes, bool bigEndian) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i)
    v |= std::uint64_t(b[bigEndian ? bytes - 1 - i : i]) << (8 * i);
  return v;
}
// The same at `at` in the file (InputError "is truncated" when it ends first).
inline std::uint64_t unpackAt(const InputFile& file, std::uint64_t at, unsigned bytes,
                              bool bigEndian) {
  unsigned char b[8] = {};
  file.readExactly(b, bytes, at);
  return unpack(b, bytes, bigEndian);
}

}  // namespace gvflab::app
