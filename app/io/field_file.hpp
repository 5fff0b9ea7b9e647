#pragma once
// --save-field: the field in the format of the file's extension (FormatRole::FieldOutput in
// io/file_formats.cpp):
//   MetaImage  float, 2 (3) interleaved channels (gvflab/io.hpp)
//   NRRD       float, a first axis of 2 (3) components (io/nrrd_file.hpp)
//   NIfTI      NIfTI-1 vector image, float (io/nifti_file.hpp)
#include <filesystem>

#include "gvflab/image.hpp"

namespace gvflab::app {

// Throws ParameterError naming the file and the extensions when its extension is none of the
// above (checked when the command line is read, before anything runs).
void checkFieldFileName(const std::filesystem::path& path);

void writeField(const std::filesystem::path& path, const Field2D& field);
void writeField(const std::filesystem::path& path, const Field3D& field);

}  // namespace gvflab::app
