#include "io/volume_loader.hpp"

#include "gvflab/error.hpp"
#include "io/dicom_file.hpp"
#include "io/file_formats.hpp"

namespace gvflab::app {

bool isVolumeFile(const std::filesystem::path& path) {
  if (isDicomSeriesFolder(path)) return true;
  const FileFormat* format = findFormat(path, FormatRole::VolumeInput);
  if (!format) return false;
  // A format that reads no 2D images is always a volume; the others say so in their header.
  return !format->readImage || format->dimensions(path) == 3;
}

Volume loadVolume(const std::filesystem::path& path) {
  if (isDicomSeriesFolder(path)) return readDicomVolume(path);
  const FileFormat* format = findFormat(path, FormatRole::VolumeInput);
  if (!format)
    throw InputError("'" + path.string() + "' is not a volume gvflab reads: the name must end in " +
                     extensionList(FormatRole::VolumeInput) + ".");
  return format->readVolume(path);
}

}  // namespace gvflab::app
