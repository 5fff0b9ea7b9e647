#include "io/volume_loader.hpp"

#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"
#include "io/dicom_file.hpp"
#include "io/file_formats.hpp"
#include "io/image_loader.hpp"

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
    throw InputError(quoted(path) + " is not a volume gvflab reads: the name must end in " +
                     extensionList(FormatRole::VolumeInput) + ".");
  return format->readVolume(path);
}

FieldShape inputShape(const std::filesystem::path& path) {
  if (isDicomSeriesFolder(path)) return dicomShape(path);  // a folder: a DICOM series
  // Formats that are only volumes (NIfTI, whose .hdr/.img pairs it checks itself) read their
  // header at once; the others are opened and checked as images first.
  const FileFormat* format = findFormat(path, FormatRole::VolumeInput);
  if (format && !format->readImage) return format->headerShape(path);
  return imageHeaderShape(path);  // also MetaImage and NRRD, 2D or 3D
}

LoadedInput loadInput(const std::filesystem::path& path,
                      const std::function<void(FieldShape)>& beforeRead) {
  const FieldShape shape = inputShape(path);  // the header alone: refused before reading
  if (beforeRead) beforeRead(shape);
  LoadedInput in;
  in.is3d = isVolumeFile(path);
  if (in.is3d)
    in.volume = loadVolume(path);
  else
    in.image = loadImage(path);
  return in;
}

}  // namespace gvflab::app
