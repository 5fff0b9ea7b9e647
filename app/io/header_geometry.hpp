#pragma once
// World geometry (gvflab/world_geometry.hpp) into the headers gvflab writes: one place for
// fields (io/nifti_file, io/nrrd_file) and label masks (io/mask_file), so an output of either
// kind overlays its input the same way.
#include <nifti2_io.h>
#include <teem/nrrd.h>

#include "gvflab/world_geometry.hpp"

namespace gvflab::app {

// NIfTI: both transforms as scanner coordinates (RAS, converted from LPS): the sform exactly,
// the qform as its nearest rotation (equal for a rigid affine); pixdim the spacing, in mm.
void setNiftiGeometry(nifti_image& nim, const WorldGeometry& geometry);

// NRRD: space (LPS, or a 2D space for an image in the z = 0 plane), the space directions of
// the spatial axes from `first` on, and the space origin. Nothing for an unknown geometry.
void setNrrdSpace(Nrrd& nrrd, const WorldGeometry& geometry, unsigned first);

}  // namespace gvflab::app
