#pragma once
// Loads user images for the viewer and the headless mode. Qt's readers cover PNG, JPEG, BMP,
// GIF and PBM; PGM/PPM and MetaImage go through the engine, NRRD through teem, TIFF through
// libtiff (io/tiff_file.hpp), DICOM through GDCM (io/dicom_file.hpp). Which is which:
// io/file_formats.cpp (a raster file must start as its extension promises; one with an extension of
// no format is read by its content).
#include <filesystem>

#include "gvflab/field_storage.hpp"
#include "gvflab/image.hpp"

namespace gvflab::app {

// Grey levels in [0, 1] (colour images become luminance). Throws InputError with a sentence
// naming the file and what is wrong: missing, empty, truncated, not an image, too large.
Image2D loadImage(const std::filesystem::path& path);

// An image's size from its header (depth 1), with loadImage's checks of the file and the size.
FieldShape imageHeaderShape(const std::filesystem::path& path);

// File-dialog filter string listing the formats loadImage understands.
const char* imageFileFilter();

}  // namespace gvflab::app
