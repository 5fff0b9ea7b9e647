#pragma once
// Our own walk of a TIFF's chain of pages (IFDs), before libtiff reads a page: linear in the
// page count and bounded by what the headers show, so that a hostile file is refused in
// milliseconds instead of after minutes of libtiff's work or gigabytes of its buffers.
//   - at most maxPages pages, counted without reading them (a loop in the chain is refused);
//   - every entry's data inside the file, at most kMaxHeaderBytes (gvflab/input_limits.hpp) of tag
//     data over all pages together (libtiff reads a description shared by every page again for
//     each page);
//   - each page's strips or tiles inside the file, tiles of at most 16384 per side, and enough
//     data for the page's size (raw: every byte; compressed: within a 4096:1 ratio) before a
//     buffer of that size is allocated.
// Throws InputError naming the file and the page.
#include "gvflab/input_file.hpp"

namespace gvflab::app {

// The number of pages.
int prewalkTiff(const InputFile& file, int maxPages);

}  // namespace gvflab::app
