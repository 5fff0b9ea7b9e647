#include "io/field_file.hpp"

#include <algorithm>
#include <cmath>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/quoted.hpp"
#include "io/file_formats.hpp"
#include "io/file_names.hpp"
#include "io/nrrd_file.hpp"

namespace gvflab::app {
namespace {

const FileFormat& fieldFormat(const std::filesystem::path& path) {
  return requireFormat(path, FormatRole::FieldOutput, "Cannot save the field to " + quoted(path));
}

bool isNrrd(const std::filesystem::path& path) { return hasSuffix(path, {".nrrd", ".nhdr"}); }

void requireUserField(const std::filesystem::path& path) {
  if (!isUserFieldFile(path))
    throw InputError(quoted(path) + " is not a field file gvflab reads (" + kUserFieldExtensions +
                     ").");
}

// Refused naming the file and the first non-finite vector's place.
template <class Field>
Field finite(Field field, const std::filesystem::path& path, int channels) {
  const auto bad =
      std::find_if(field.data.begin(), field.data.end(), [](float v) { return !std::isfinite(v); });
  if (bad == field.data.end()) return field;
  const auto at = std::size_t(bad - field.data.begin()) / std::size_t(channels);
  const auto plane = std::size_t(field.width) * std::size_t(field.height);
  std::string where = "(" + std::to_string(at % std::size_t(field.width)) + ", " +
                      std::to_string(at % plane / std::size_t(field.width));
  if (channels == 3) where += ", " + std::to_string(at / plane);
  throw InputError(quoted(path) + " contains " + (std::isnan(*bad) ? "NaN" : "infinity") + " at " +
                   where + "); a field must be finite.");
}

}  // namespace

bool isUserFieldFile(const std::filesystem::path& path) {
  return hasSuffix(path, {".mha", ".mhd"}) || isNrrd(path);
}

Field2D readField2D(const std::filesystem::path& path) {
  requireUserField(path);
  return finite(isNrrd(path) ? readNrrdField2D(path) : readMetaImageField(path), path, 2);
}

Field3D readField3D(const std::filesystem::path& path) {
  requireUserField(path);
  return finite(isNrrd(path) ? readNrrdField3D(path) : readMetaImageField3D(path), path, 3);
}

FieldShape userFieldShape(const std::filesystem::path& path, int dims) {
  requireUserField(path);
  // NRRD's first axis holds the components; MetaImage keeps them in ElementNumberOfChannels.
  std::vector<std::int64_t> sides;
  if (isNrrd(path)) {
    const std::vector<std::int64_t> s = nrrdSizes(path);
    if (!s.empty()) sides.assign(s.begin() + 1, s.end());
  } else {
    for (const int d : metaImageSize(path)) sides.push_back(d);
  }
  if (static_cast<int>(sides.size()) != dims)
    throw InputError(quoted(path) + " is a " + std::to_string(sides.size()) + "D field; a " +
                     std::to_string(dims) + "D input needs a " + std::to_string(dims) +
                     "D field of " + std::to_string(dims) + " channels.");
  return {int(sides[0]), int(sides[1]), dims == 3 ? int(sides[2]) : 1};
}

void checkFieldFileName(const std::filesystem::path& path) { fieldFormat(path); }

void writeField(const std::filesystem::path& path, const Field2D& field) {
  fieldFormat(path).writeField2D(path, field);
}

void writeField(const std::filesystem::path& path, const Field3D& field) {
  fieldFormat(path).writeField3D(path, field);
}

}  // namespace gvflab::app
