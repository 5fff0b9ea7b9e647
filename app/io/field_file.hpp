#pragma once
// --save-field: the field in the format of the file's extension (FormatRole::FieldOutput in
// io/file_formats.cpp):
//   MetaImage  float, 2 (3) interleaved channels (gvflab/io.hpp)
//   NRRD       float, a first axis of 2 (3) components (io/nrrd_file.hpp)
//   NIfTI      NIfTI-1 vector image, float (io/nifti_file.hpp)
#include <filesystem>

#include "gvflab/field_storage.hpp"
#include "gvflab/image.hpp"

namespace gvflab::app {

// Throws ParameterError naming the file and the extensions when its extension is none of the
// above (checked when the command line is read, before anything runs).
void checkFieldFileName(const std::filesystem::path& path);

void writeField(const std::filesystem::path& path, const Field2D& field);
void writeField(const std::filesystem::path& path, const Field3D& field);

// A researcher's initial field V0 (--v0 FILE): the formats that read fields back, MetaImage
// (2 or 3 interleaved channels) and NRRD (a first axis of 2 or 3 components). NIfTI vector
// images are written but not read.
inline constexpr const char* kUserFieldExtensions = ".mha, .mhd, .nrrd, .nhdr";
bool isUserFieldFile(const std::filesystem::path& path);
// Its width, height and depth (1 in 2D) from its header alone, before any sample is read;
// refused (InputError) when it is not a field of `dims` dimensions. The readers below refuse
// the rest (channels, sample type, NaN).
FieldShape userFieldShape(const std::filesystem::path& path, int dims);
// Throw InputError naming the file when it is not such a field of the right dimension (2D: 2
// channels; 3D: 3) or holds NaN or infinity.
Field2D readField2D(const std::filesystem::path& path);
Field3D readField3D(const std::filesystem::path& path);

}  // namespace gvflab::app
