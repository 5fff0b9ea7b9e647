#pragma once
// DICOM through GDCM (libgdcm-dev): a single file (.dcm, .dicom) is an image, or a volume when
// it holds several frames; a folder is a series, one slice per file, sorted by
// ImagePositionPatient along the slice normal (by InstanceNumber when a file lacks positions;
// then the slice spacing is unknown). A series folder must hold only the DICOM files of one
// series (hidden files and DICOMDIR are skipped), all of one size, orientation and pixel type,
// evenly spaced. Samples: Rescale Slope/Intercept applied (per file), MONOCHROME1 inverted,
// colour (RGB, YBR) to luminance with the project's rule, then rescaled to [0, 1] over the whole
// image or volume. Every transfer syntax GDCM decodes (JPEG, JPEG-LS, JPEG 2000, RLE, deflate).
// Geometry (WorldGeometry is LPS, like DICOM's patient space): PixelSpacing, the slice gap,
// ImagePositionPatient of the first slice and ImageOrientationPatient (its normal as z).
// Sizes are checked (gvflab/input_limits.hpp) from the headers before pixel data is decoded.
#include <filesystem>
#include <vector>

#include "gvflab/field_storage.hpp"
#include "gvflab/image.hpp"

namespace gvflab::app {

// A folder given as input: a DICOM series.
bool isDicomSeriesFolder(const std::filesystem::path& path);

// A series folder's files, sorted (hidden files and DICOMDIR skipped; at most 65536). A member
// that links outside the folder is refused (InputError) unless --allow-data-outside.
std::vector<std::filesystem::path> dicomSeriesFiles(const std::filesystem::path& folder);

// 3 for a folder or a multi-frame file, 2 for a single frame (headers only).
int dicomDimensions(const std::filesystem::path& path);
// width, height and frames or slices (1 for one frame), from the headers alone.
FieldShape dicomShape(const std::filesystem::path& path);

// Each throws InputError naming the file (or the folder and its file) and what is wrong: not
// DICOM, no or unsupported pixel data, inconsistent series, too large, cannot be decoded.
Image2D readDicomImage(const std::filesystem::path& path);
Volume readDicomVolume(const std::filesystem::path& path);  // a multi-frame file or a folder

}  // namespace gvflab::app
