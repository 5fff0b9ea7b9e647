#pragma once
// NIfTI through nifti_clib (Debian's libnifti2-dev, the reference implementation).
//
// Reading: NIfTI-1 and NIfTI-2 (and ANALYZE 7.5), single files (.nii) and .hdr/.img pairs,
// each also gzipped (.nii.gz, .hdr.gz/.img.gz). Integer and float voxels; scl_slope/scl_inter
// are applied (slope 0 means unscaled) before the volume is rescaled to [0, 1]. Orientation:
// the sform (or, without one, the qform) decides how the voxel axes map to the patient, and the
// volume is permuted and flipped, never resampled, so that x runs towards the patient's left,
// y towards posterior and z towards superior (LPS, as ITK and MetaImage volumes): an axial slice
// then appears as radiologists view it (anterior up, patient's right on the screen's left).
// Without either transform the file's axes are kept. The header is checked against
// io/input_limits.hpp before the voxels are read, and every error names the file.
//
// Writing: a 2D or 3D field as a NIfTI-1 vector image (intent VECTOR, float32, dim[5] = 2 or 3
// components, planar as NIfTI stores them), .nii or .nii.gz, atomically.
#include <filesystem>

#include "gvflab/field_storage.hpp"
#include "gvflab/image.hpp"

namespace gvflab::app {

// The volume's size from its header alone (checked as readNiftiVolume checks it), in the file's
// axis order; throws InputError as readNiftiVolume.
FieldShape niftiShape(const std::filesystem::path& path);

// Throws InputError naming the file and what is wrong.
Volume readNiftiVolume(const std::filesystem::path& path);

// Throws ParameterError for a name not ending in NIfTI's single-file extensions (.nii, .nii.gz;
// see io/file_formats.cpp), InputError when it cannot be
// written (nothing is left behind then).
void writeNiftiField(const std::filesystem::path& path, const Field2D& field);
void writeNiftiField(const std::filesystem::path& path, const Field3D& field);

}  // namespace gvflab::app
