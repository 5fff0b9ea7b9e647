#pragma once
// A PNG decoded once by libpng before Qt reads it, so that a corrupt file gets a sentence that
// says what is wrong (truncated, bad header, corrupt data, too large) instead of libpng's own
// stderr lines and Qt's "Unable to read image data".
#include <filesystem>

#include "gvflab/input_file.hpp"

namespace gvflab::app {

// Throws InputError naming the file and the problem. Sizes are checked from the header
// (at most 16384 per side, and the host's memory) before any row is decoded.
void checkPngFile(const std::filesystem::path& path);
// The same on a file already opened (and checked) by the caller.
void checkPngFile(const InputFile& file);

}  // namespace gvflab::app
