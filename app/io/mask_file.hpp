#pragma once
// --save-mask: a label image (io/label_mask.hpp) in the format of the file's extension
// (FormatRole::MaskOutput in io/file_formats.cpp), each written atomically:
//   PNG    8-bit grey, 16-bit when a label may exceed 255; no geometry (PNG has none)
//   NRRD   .nrrd, uint8 or uint16, gzip; with the input's geometry when it had one ("space:
//          left-posterior-superior", "space directions", "space origin")
//   NIfTI  .nii, .nii.gz, NIFTI_TYPE_UINT8 or UINT16, intent LABEL; with the input's geometry
//          when it had one (sform and qform, scanner space: LPS turned to NIfTI's RAS)
// The labels are the values themselves (no scaling): 0 outside, k inside snake k.
#include <filesystem>

#include "io/label_mask.hpp"

namespace gvflab::app {

// Throws ParameterError naming the file and the extensions when its extension is none of the
// above (checked when the command line is read, before anything runs).
void checkMaskFileName(const std::filesystem::path& path);

// Throws InputError naming the file when it cannot be written (nothing is left behind then).
void writeMask(const std::filesystem::path& path, const LabelImage& mask);
void writeMaskPng(const std::filesystem::path& path, const LabelImage& mask);
void writeMaskNrrd(const std::filesystem::path& path, const LabelImage& mask);
void writeMaskNifti(const std::filesystem::path& path, const LabelImage& mask);

}  // namespace gvflab::app
