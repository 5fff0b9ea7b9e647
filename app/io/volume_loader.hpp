#pragma once
// Loads 3D volumes by extension (FormatRole::VolumeInput in io/file_formats.cpp): MetaImage
// (.mhd + raw or .mha, NDims = 3) through the engine, NIfTI (io/nifti_file.hpp: NIfTI-1/-2,
// single files and .hdr/.img pairs, gzipped or not, scaling honoured, storage order and affine
// kept) and NRRD with three axes (io/nrrd_file.hpp).
#include <filesystem>
#include <functional>

#include "gvflab/field_storage.hpp"
#include "gvflab/image.hpp"

namespace gvflab::app {

// True for NIfTI names, for MetaImage, NRRD, TIFF and DICOM files whose header has three
// dimensions (several pages or frames), and for a folder (a DICOM series).
// (Reads the header of a MetaImage or NRRD file: throws InputError like the readers.)
bool isVolumeFile(const std::filesystem::path& path);

// Voxels rescaled to [0, 1]. Throws InputError with a sentence naming the file and what is
// wrong (not the format its name says, unsupported type, truncated, 4D, too large), or that
// its extension is not a volume's (with the list).
Volume loadVolume(const std::filesystem::path& path);

// The size of an image or volume from its header alone (depth 1 for 2D images), so that it can
// be checked against the device (gvflab::checkFits) before the pixels are read or decompressed.
// Throws InputError (naming the file) when the header is unreadable or its sizes are
// impossible; the readers repeat these checks.
FieldShape inputShape(const std::filesystem::path& path);

// An input read as the CLI reads it: an image or a volume, with its geometry.
struct LoadedInput {
  bool is3d = false;
  Image2D image;  // 2D
  Volume volume;  // 3D
  int width() const { return is3d ? volume.width : image.width; }
  int height() const { return is3d ? volume.height : image.height; }
};

// The input gate of the CLI and of Python's gvflab.read: the size from the header alone
// (inputShape) is refused or handed to beforeRead (the device check) before a sample
// is read, then the file is read as a volume (isVolumeFile) or an image. Throws InputError
// naming the file.
LoadedInput loadInput(const std::filesystem::path& path,
                      const std::function<void(FieldShape)>& beforeRead = {});

}  // namespace gvflab::app
