#include "io/volume_loader.hpp"

#include "gvflab/io.hpp"
#include "io/file_names.hpp"
#include "io/nifti_file.hpp"
#include "io/nrrd_file.hpp"

namespace gvflab::app {

bool isVolumeFile(const std::filesystem::path& path) {
  if (isNiftiFile(path)) return true;
  if (isNrrdFile(path)) return nrrdAxisCount(path) == 3;
  if (!hasSuffix(path, {".mha", ".mhd"})) return false;
  return metaImageDimensions(path) == 3;
}

Volume loadVolume(const std::filesystem::path& path) {
  if (isNiftiFile(path)) return readNiftiVolume(path);
  if (isNrrdFile(path)) return readNrrdVolume(path);
  return readMetaImageVolume(path);
}

}  // namespace gvflab::app
