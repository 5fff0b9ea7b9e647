#include "io/input_shape.hpp"

#include "gvflab/error.hpp"
#include "io/image_loader.hpp"
#include "io/nifti_file.hpp"

namespace gvflab::app {

FieldShape inputShape(const std::filesystem::path& path) {
  if (isNiftiFile(path)) return niftiShape(path);
  return imageHeaderShape(path);  // also MetaImage and NRRD, 2D or 3D
}

}  // namespace gvflab::app
