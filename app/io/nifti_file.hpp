#pragma once
// NIfTI through nifti_clib (Debian's libnifti2-dev, the reference implementation).
//
// Reading: NIfTI-1 and NIfTI-2 (and ANALYZE 7.5), single files (.nii) and .hdr/.img pairs,
// each also gzipped (.nii.gz, .hdr.gz/.img.gz). Integer and float voxels; scl_slope/scl_inter
// are applied (slope 0 means unscaled) before the volume is rescaled to [0, 1]. The voxels stay
// in the file's storage order (never permuted or flipped); the sform (sform_code > 0), else the
// qform (else pixdim) becomes the volume's geometry, converted from NIfTI's RAS to LPS
// (gvflab/world_geometry.hpp). The header is checked against gvflab/input_limits.hpp before the
// voxels are read, and every error names the file.
//
// Writing: a 2D or 3D field as a NIfTI-1 vector image (intent VECTOR, float32, dim[5] = 2 or 3
// components, planar as NIfTI stores them), .nii or .nii.gz, atomically. A known geometry is
// written back to RAS as both the sform and the qform (codes scanner), pixdim the spacing, so
// the field overlays its input in nibabel, ITK or Slicer; an unknown one writes codes 0 and unit
// pixdim as before.
#include <cstddef>
#include <cstdint>
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

// Writes `voxels` samples of `datatype` at `data` (the caller's; `dims` as nifti_make_new_nim
// takes them) as a NIfTI-1 file of `intent` with the geometry, atomically: InputError naming
// `path` when it cannot be written or read back whole (the earlier file stays then).
void writeNiftiFile(const std::filesystem::path& path, const std::int64_t* dims, int datatype,
                    int intent, const WorldGeometry& geometry, void* data, std::size_t voxels);

}  // namespace gvflab::app
