#pragma once
// Loads 3D volumes: MetaImage (.mha, .mhd + raw, NDims = 3) through the engine, and NIfTI-1
// (.nii, .nii.gz) through a small reader of our own (zlib reads both, compressed or not).
#include <filesystem>

#include "gvflab/image.hpp"

namespace gvflab::app {

// True for .nii / .nii.gz, and for MetaImage files whose header says NDims = 3.
bool isVolumeFile(const std::filesystem::path& path);

// Voxels rescaled to [0, 1] (after NIfTI's scl_slope / scl_inter). Throws InputError with a
// sentence naming the file and what is wrong (not NIfTI-1, unsupported type, truncated, 4D).
Volume loadVolume(const std::filesystem::path& path);

}  // namespace gvflab::app
