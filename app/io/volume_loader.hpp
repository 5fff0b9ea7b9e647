#pragma once
// Loads 3D volumes by extension (FormatRole::VolumeInput in io/file_formats.cpp): MetaImage
// (.mhd + raw or .mha, NDims = 3) through the engine, NIfTI (io/nifti_file.hpp: NIfTI-1/-2,
// single files and .hdr/.img pairs, gzipped or not, scaling honoured, storage order and affine
// kept) and NRRD with three axes (io/nrrd_file.hpp).
#include <filesystem>

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

}  // namespace gvflab::app
