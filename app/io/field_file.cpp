#include "io/field_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/quoted.hpp"
#include "io/file_formats.hpp"
#include "io/nrrd_file.hpp"

namespace gvflab::app {
namespace {

const FileFormat& fieldFormat(const std::filesystem::path& path) {
  return requireFormat(path, FormatRole::FieldOutput,
                       "Cannot save the field to '" + path.string() + "'");
}

std::string lowerExtension(const std::filesystem::path& path) {
  std::string e = path.extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return std::tolower(c); });
  return e;
}

bool isNrrd(const std::filesystem::path& path) {
  const std::string e = lowerExtension(path);
  return e == ".nrrd" || e == ".nhdr";
}

void requireUserField(const std::filesystem::path& path) {
  if (!isUserFieldFile(path))
    throw InputError(quoted(path) + " is not a field file gvflab reads (" + kUserFieldExtensions +
                     ").");
}

template <class Field>
Field finite(Field field, const std::filesystem::path& path) {
  for (float v : field.data)
    if (!std::isfinite(v)) throw InputError(quoted(path) + " contains NaN or infinity.");
  return field;
}

}  // namespace

bool isUserFieldFile(const std::filesystem::path& path) {
  const std::string e = lowerExtension(path);
  return e == ".mha" || e == ".mhd" || isNrrd(path);
}

Field2D readField2D(const std::filesystem::path& path) {
  requireUserField(path);
  return finite(isNrrd(path) ? readNrrdField2D(path) : readMetaImageField(path), path);
}

Field3D readField3D(const std::filesystem::path& path) {
  requireUserField(path);
  return finite(isNrrd(path) ? readNrrdField3D(path) : readMetaImageField3D(path), path);
}

void checkFieldFileName(const std::filesystem::path& path) { fieldFormat(path); }

void writeField(const std::filesystem::path& path, const Field2D& field) {
  fieldFormat(path).writeField2D(path, field);
}

void writeField(const std::filesystem::path& path, const Field3D& field) {
  fieldFormat(path).writeField3D(path, field);
}

}  // namespace gvflab::app
