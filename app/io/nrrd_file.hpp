#pragma once
// NRRD (3D Slicer's native format) through teem's nrrd library (Debian's libteem-dev).
//
// Reading: .nrrd (attached) and .nhdr (detached header), any encoding teem knows (raw, ascii,
// hex, gzip, bzip2), any endianness, integer or float samples. Images and volumes are scalar 2D
// and 3D arrays rescaled to [0, 1]; fields have a first (fastest) axis of 2 (2D) or 3 (3D)
// components. Axes are taken in the file's order (x fastest; no reorientation); the geometry
// comes from space, space directions and space origin (RAS and LAS turned to LPS), else from
// the axes' spacings (gvflab/world_geometry.hpp). The header is
// read alone and checked against gvflab/input_limits.hpp before teem allocates or inflates the
// data, which it then reads only up to the size the header gave.
//
// Writing: .nrrd only (a single file, gzip-compressed float32; .nhdr would need a second data
// file), atomically; fields carry the kinds "2-vector"/"3-vector" and "space" on the others. A
// known geometry is written as space left-posterior-superior (2 space dimensions for a 2D
// image in its plane), space directions and space origin; an unknown one writes no space.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "gvflab/field_storage.hpp"
#include "gvflab/image.hpp"

namespace gvflab::app {

// The number of axes its header declares (header only; throws InputError like the readers).
int nrrdAxisCount(const std::filesystem::path& path);
// Every axis's size, in the file's order (header only).
std::vector<std::int64_t> nrrdSizes(const std::filesystem::path& path);
// The size of a 2D image or 3D volume from its header alone (no data is read).
FieldShape nrrdShape(const std::filesystem::path& path);

// Each throws InputError naming the file and what is wrong (not NRRD, wrong dimension or
// component count, too large, truncated, unsupported sample type).
Image2D readNrrdImage(const std::filesystem::path& path);
Volume readNrrdVolume(const std::filesystem::path& path);
Field2D readNrrdField2D(const std::filesystem::path& path);
Field3D readNrrdField3D(const std::filesystem::path& path);

// Each throws ParameterError for a name that is not NRRD's single-file extension (.nrrd, see
// io/file_formats.cpp), InputError when it cannot write (nothing is left behind then).
void writeNrrd(const std::filesystem::path& path, const Image2D& image);
void writeNrrd(const std::filesystem::path& path, const Volume& volume);
void writeNrrd(const std::filesystem::path& path, const Field2D& field);
void writeNrrd(const std::filesystem::path& path, const Field3D& field);

// Writes `bytes` of samples of teem's `type` at `data` (the caller's) as a gzipped .nrrd of
// `sizes` and axis `kinds`, the geometry on the space axes, atomically: InputError naming
// `path` when it cannot be written whole (the earlier file stays then).
void writeNrrdFile(const std::filesystem::path& path, const void* data, int type,
                   std::vector<std::size_t> sizes, std::vector<int> kinds,
                   const WorldGeometry& geometry, std::size_t bytes);

}  // namespace gvflab::app
