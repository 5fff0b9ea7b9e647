#pragma once
// TIFF through libtiff (libtiff-dev), every page of a file. One page is an image; several pages
// of one size and sample type are a volume (page = z), unless one page is picked (--page).
// Samples: 1 to 16-bit unsigned grey scale by their type's range (as 8-bit PNGs do), every
// other type (signed, 32/64-bit integer, 32/64-bit float) rescaled from its own range to
// [0, 1]; NaN or infinite samples are refused. Colour (RGB, palette, YCbCr, ...) becomes
// luminance with the project's rule (0.299 R + 0.587 G + 0.114 B). Any compression libtiff
// decodes. XResolution/YResolution in inches or centimetres give a pixel spacing in mm.
// Sizes and the page count are checked (gvflab/input_limits.hpp) before anything is allocated.
#include <filesystem>

#include "gvflab/field_storage.hpp"
#include "gvflab/image.hpp"

namespace gvflab::app {

// 2 for one page, 3 for a stack (headers only). Throws InputError naming the file.
int tiffDimensions(const std::filesystem::path& path);
// width, height and the page count (1 for one page), from the headers alone.
FieldShape tiffShape(const std::filesystem::path& path);

// One page's width and height (depth 1), refusing a page past the last; the stack's size is
// not asked (--page reads one page).
FieldShape tiffPageShape(const std::filesystem::path& path, int page);

// One page as an image; a stack is refused (pick a page or read it as a volume).
Image2D readTiffImage(const std::filesystem::path& path);
// Page `page` (0 = the first); a page beyond the last is refused naming the page count.
Image2D readTiffPage(const std::filesystem::path& path, int page);
// Every page, of one size and sample type, as the slices of a volume rescaled together.
Volume readTiffVolume(const std::filesystem::path& path);

}  // namespace gvflab::app
