#pragma once
// File formats the engine reads and writes without Qt. Writers are atomic: they write a
// temporary file and rename it, so a failure never leaves a partial output behind.
#include <array>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "gvflab/image.hpp"

namespace gvflab {

// MetaImage (ITK's format). Readers take .mha (data inline) and .mhd + one data file, raw or
// compressed (CompressedData = True: a zlib or gzip stream, CompressedDataSize bytes or the
// rest of the file; a DimSize beyond what the stream could inflate to is refused before
// anything is allocated), any common element type, little-endian. Each fills `geometry` from
// ElementSpacing, Offset (or Origin, Position) and TransformMatrix (or Orientation, Rotation),
// LPS as ITK; known when any of them is there. Writers write .mha, MET_FLOAT, little-endian,
// with ElementSpacing, Offset and TransformMatrix when the geometry is known (unit spacing
// alone otherwise), uncompressed unless options say so.
struct MetaImageWriteOptions {
  bool compressed = false;  // deflate the data (zlib level 1): smaller, slower to write
};
// 2D vector field: 2 interleaved channels.
void writeMetaImageField(const std::filesystem::path& path, const Field2D& field,
                         const MetaImageWriteOptions& options = {});
Field2D readMetaImageField(const std::filesystem::path& path);
// Scalar 2D image, rescaled to [0, 1].
Image2D readMetaImage(const std::filesystem::path& path);
// The same for a 3D volume (x fastest), rescaled to [0, 1].
Volume readMetaImageVolume(const std::filesystem::path& path);
void writeMetaImageVolume(const std::filesystem::path& path, const Volume& volume,
                          const MetaImageWriteOptions& options = {});
// NDims of a MetaImage header (2 or 3), to route a file to the image or the volume reader.
int metaImageDimensions(const std::filesystem::path& path);
// DimSize of a MetaImage header (2 or 3 sides), read without its data.
std::vector<int> metaImageSize(const std::filesystem::path& path);
// The data file a .mhd header names (ElementDataFile, relative to the header's folder); empty
// for LOCAL data.
std::filesystem::path metaImageDataFile(const std::filesystem::path& path);
// 3D vector field: 3 interleaved channels.
void writeMetaImageField3D(const std::filesystem::path& path, const Field3D& field,
                           const MetaImageWriteOptions& options = {});
Field3D readMetaImageField3D(const std::filesystem::path& path);

// Binary or ASCII PGM/PPM (P2, P3, P5, P6), 8 or 16 bit; colour becomes luminance.
// Reads the header, then exactly the samples it promises (refused first when the file is shorter).
Image2D readPnm(const std::filesystem::path& path);
// Width and height from a PGM/PPM header alone.
std::array<int, 2> pnmSize(const std::filesystem::path& path);

// Writes bytes to path through a temporary file in the same folder and a rename. The
// temporary has an unpredictable name and is created exclusively (O_EXCL, never through a
// link); every byte is written (a full disk or a size limit is an error), synced and the size
// checked before the rename, so a failure leaves the earlier file as it was and no temporary.
// Only a regular file is replaced (see outputTarget). Throws InputError naming path.
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes);
// The same for writers that want a file name (libraries that open files themselves): write(tmp)
// writes the temporary (empty, created as above) whose name ends in path's extension (so
// .nii.gz still says the format); it must check what it wrote (read it back in full), as only
// the file's identity is checked here. Renamed to path, or removed when write throws.
void writeFileAtomically(const std::filesystem::path& path,
                         const std::function<void(const std::filesystem::path& tmp)>& write);
// The file an output named path replaces: path itself when it is new or a regular file, or the
// regular file a symbolic link there points to (the link stays). Throws InputError naming path
// when it is a folder, device, FIFO, socket, or a link to one of them or to nothing.
std::filesystem::path outputTarget(const std::filesystem::path& path);
// ".gvflab-" and 24 random letters and digits (getrandom): hidden names nobody can guess.
std::string unpredictableName();

// Rescales values to [0, 1] (a constant input gives 0); throws InputError naming source when
// a value is NaN or infinite.
void normaliseToUnit(const std::vector<double>& values, std::vector<float>& out,
                     const std::filesystem::path& source);

}  // namespace gvflab
