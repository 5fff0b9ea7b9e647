#include "io/field_file.hpp"

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "io/file_names.hpp"
#include "io/nifti_file.hpp"
#include "io/nrrd_file.hpp"

namespace gvflab::app {
namespace {

enum class FieldFormat { MetaImage, Nrrd, Nifti };

FieldFormat fieldFormat(const std::filesystem::path& path) {
  if (hasSuffix(path, {".mha"})) return FieldFormat::MetaImage;
  if (hasSuffix(path, {".nrrd"})) return FieldFormat::Nrrd;
  if (hasSuffix(path, {".nii", ".nii.gz"})) return FieldFormat::Nifti;
  throw ParameterError("Cannot save the field to '" + path.string() +
                       "': the name must end in .mha, .nrrd, .nii or .nii.gz.");
}

template <class FieldT, class MetaWriter>
void write(const std::filesystem::path& path, const FieldT& field, MetaWriter meta) {
  switch (fieldFormat(path)) {
    case FieldFormat::MetaImage: return meta(path, field);
    case FieldFormat::Nrrd: return writeNrrd(path, field);
    case FieldFormat::Nifti: return writeNiftiField(path, field);
  }
}

}  // namespace

void checkFieldFileName(const std::filesystem::path& path) { fieldFormat(path); }

void writeField(const std::filesystem::path& path, const Field2D& field) {
  write(path, field, [](const auto& p, const auto& f) { writeMetaImageField(p, f); });
}

void writeField(const std::filesystem::path& path, const Field3D& field) {
  write(path, field, [](const auto& p, const auto& f) { writeMetaImageField3D(p, f); });
}

}  // namespace gvflab::app
