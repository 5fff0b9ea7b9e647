#include "io/field_file.hpp"

#include "io/file_formats.hpp"

namespace gvflab::app {
namespace {

const FileFormat& fieldFormat(const std::filesystem::path& path) {
  return requireFormat(path, FormatRole::FieldOutput,
                       "Cannot save the field to '" + path.string() + "'");
}

}  // namespace

void checkFieldFileName(const std::filesystem::path& path) { fieldFormat(path); }

void writeField(const std::filesystem::path& path, const Field2D& field) {
  fieldFormat(path).writeField2D(path, field);
}

void writeField(const std::filesystem::path& path, const Field3D& field) {
  fieldFormat(path).writeField3D(path, field);
}

}  // namespace gvflab::app
