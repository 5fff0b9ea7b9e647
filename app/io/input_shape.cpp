#include "io/input_shape.hpp"

#include "io/dicom_file.hpp"
#include "io/file_formats.hpp"
#include "io/image_loader.hpp"

namespace gvflab::app {

FieldShape inputShape(const std::filesystem::path& path) {
  if (isDicomSeriesFolder(path)) return dicomShape(path);  // a folder: a DICOM series
  // Formats that are only volumes (NIfTI, whose .hdr/.img pairs it checks itself) read their
  // header at once; the others are opened and checked as images first.
  const FileFormat* format = findFormat(path, FormatRole::VolumeInput);
  if (format && !format->readImage) return format->headerShape(path);
  return imageHeaderShape(path);  // also MetaImage and NRRD, 2D or 3D
}

}  // namespace gvflab::app
