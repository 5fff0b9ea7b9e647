#pragma once
// The size of an image or volume from its header alone, so that it can be checked against the
// device (gvflab::checkFits) before the pixels are read or decompressed.
#include <filesystem>

#include "gvflab/field_storage.hpp"

namespace gvflab::app {

// Depth 1 for 2D images. Throws InputError (naming the file) when the header is unreadable
// or its sizes are impossible; the readers repeat these checks.
FieldShape inputShape(const std::filesystem::path& path);

}  // namespace gvflab::app
