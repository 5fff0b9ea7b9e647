#pragma once
// World geometry (gvflab/world_geometry.hpp) into the headers gvflab writes: one place for
// fields (io/nifti_file, io/nrrd_file) and label masks (io/mask_file), so an output of either
// kind overlays its input the same way.
#include <nifti2_io.h>
#include <teem/nrrd.h>

#include <cmath>

#include "gvflab/world_geometry.hpp"

namespace gvflab::app {

// One rule for every reader and writer: a geometry is usable when its spacing is finite and
// > 0, its origin finite and its direction finite and invertible. Readers mark any other
// unknown (never 1 mm by default); writers write it as no geometry, so no header they write
// carries NaN or infinity.
inline bool usableGeometry(const WorldGeometry& g) {
  for (double s : g.spacing)
    if (!std::isfinite(s) || s <= 0) return false;
  for (double o : g.origin)
    if (!std::isfinite(o)) return false;
  for (double d : g.direction)
    if (!std::isfinite(d)) return false;
  const auto& m = g.direction;
  const double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                     m[2] * (m[3] * m[7] - m[4] * m[6]);
  return std::isfinite(det) && std::abs(det) > 1e-6;
}

// NIfTI: both transforms as scanner coordinates (RAS, converted from LPS): the sform exactly,
// the qform as its nearest rotation (equal for a rigid affine); pixdim the spacing, in mm.
void setNiftiGeometry(nifti_image& nim, const WorldGeometry& geometry);

// NRRD: space (LPS, or a 2D space for an image in the z = 0 plane), the space directions of
// the spatial axes from `first` on, and the space origin. Nothing for an unknown geometry.
void setNrrdSpace(Nrrd& nrrd, const WorldGeometry& geometry, unsigned first);

}  // namespace gvflab::app
