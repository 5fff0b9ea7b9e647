#include "io/nifti_file.hpp"

#include <nifti2_io.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <utility>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/io.hpp"
#include "gvflab/quoted.hpp"
#include "io/file_formats.hpp"
#include "io/file_names.hpp"
#include "io/header_geometry.hpp"
#include "io/quiet_stderr.hpp"
#include "io/written_check.hpp"

namespace gvflab::app {
namespace {

struct NiftiImageDeleter {
  void operator()(nifti_image* nim) const { nifti_image_free(nim); }
};
using NiftiImage = std::unique_ptr<nifti_image, NiftiImageDeleter>;
using Malloced = std::unique_ptr<char, decltype(&std::free)>;  // nifti_clib's strings

// The raw header's sizes, read before nifti_image_read (which allocates the extensions
// between the header and vox_offset) so that a hostile header is refused first.
struct RawHeader {
  std::array<std::int64_t, 8> dim{};
  std::int64_t voxels = 1;
  int bytesPerVoxel = 0;  // 0: a datatype we do not read (refused later, with its name)
  double voxOffset = 0;
};

RawHeader checkRawHeader(const std::filesystem::path& path, const char* headerName) {
  int version = 0;
  std::unique_ptr<void, decltype(&std::free)> raw(nifti_read_header(headerName, &version, 0),
                                                  &std::free);
  if (!raw || (version != 1 && version != 2))
    throw InputError(quoted(path) +
                     " is not a NIfTI-1 or NIfTI-2 file (its header is missing, "
                     "truncated or invalid).");
  // nifti_read_header without its checks leaves the bytes in the file's order.
  const int expectedSize = version == 2 ? 540 : 348;
  if (*static_cast<const std::int32_t*>(raw.get()) != expectedSize)
    swap_nifti_header(raw.get(), version);
  if (*static_cast<const std::int32_t*>(raw.get()) != expectedSize)
    throw InputError(quoted(path) + " is not a NIfTI-1 or NIfTI-2 file (bad header size).");
  RawHeader out;
  auto& dim = out.dim;
  double& voxOffset = out.voxOffset;
  int datatype = 0;
  std::array<double, 8> pixdim{};
  const auto copy = [&](const auto* h) {  // the same fields, NIfTI-2's wider
    for (int i = 0; i < 8; ++i) dim[i] = h->dim[i], pixdim[i] = h->pixdim[i];
    voxOffset = static_cast<double>(h->vox_offset);
    datatype = h->datatype;
  };
  if (version == 2)
    copy(static_cast<const nifti_2_header*>(raw.get()));
  else
    copy(static_cast<const nifti_1_header*>(raw.get()));
  int swapSize = 0;
  nifti_datatype_sizes(datatype, &out.bytesPerVoxel, &swapSize);
  if (dim[0] < 1 || dim[0] > 7)
    throw InputError(quoted(path) + " has an invalid number of dimensions (dim[0] = " +
                     std::to_string(dim[0]) + ").");
  std::int64_t count = 1;
  for (int i = 1; i <= dim[0]; ++i) {
    if (dim[i] < 1 || dim[i] > kMaxSide)
      throw InputError(quoted(path) + " has an impossible size along axis " + std::to_string(i) +
                       " (" + std::to_string(dim[i]) + "; 1 to " + std::to_string(kMaxSide) +
                       " fit).");
    count *= dim[i];
    if (count > kMaxVoxels)
      throw InputError(quoted(path) + " is too large to load (more than " +
                       std::to_string(kMaxVoxels) + " values).");
  }
  // Voxel sizes (mm) of the spatial axes: a NaN, negative or absurd one is a corrupt header
  // (0 is common for "unknown" and harmless: GVF runs in voxel units).
  for (int i = 1; i <= std::min<std::int64_t>(dim[0], 3); ++i)
    if (!(pixdim[i] >= 0) || pixdim[i] > 1e6) {
      std::ostringstream msg;
      msg << quoted(path) << " has an invalid voxel size along axis " << i << " (pixdim[" << i
          << "] = " << pixdim[i] << "; finite sizes >= 0 expected).";
      throw InputError(msg.str());
    }
  if (!(voxOffset >= 0) || voxOffset > static_cast<double>(kMaxHeaderBytes)) {
    std::ostringstream msg;
    msg << quoted(path) << " has an invalid voxel offset (vox_offset = " << voxOffset << "; 0 to "
        << kMaxHeaderBytes << " bytes expected).";
    throw InputError(msg.str());
  }
  out.voxels = count;
  return out;
}

// A gzip stream's size is known only by inflating it. nifti_clib allocates the header's whole
// size first (a 55-byte .nii.gz promising 1024^3 float64 asked malloc for 8 GiB: fuzz finding
// nifti-1), so the stream is inflated once into a small buffer, nothing kept, and must hold
// what the header promises before anything is allocated. Costs one extra inflate of the file.
void checkGzipHolds(const std::filesystem::path& path, const std::filesystem::path& voxelFile,
                    const RawHeader& h, std::uint64_t bytes) {
  const bool single = voxelFile == path;  // .nii.gz: the header is in the stream too
  const std::uint64_t need = bytes + (single ? std::uint64_t(h.voxOffset) : 0);
  gzFile f = gzopen(voxelFile.c_str(), "rb");
  if (!f) return;  // nifti_image_load says what is wrong
  std::vector<char> buffer(1 << 16);
  std::uint64_t got = 0;
  while (got < need) {
    const int n = gzread(f, buffer.data(), static_cast<unsigned>(buffer.size()));
    if (n <= 0) break;
    got += static_cast<std::uint64_t>(n);
  }
  gzclose(f);
  if (got < need)
    throw InputError(quoted(path) + " is truncated: its header promises " + byteCount(bytes) +
                     " of voxels, but its gzip stream holds " + byteCount(got) + " in all.");
}

// Before a byte is inflated: an uncompressed voxel file must hold what the header promises
// (a 1024^3 float64 header over 128 bytes is refused here), and the host must have the memory
// for the voxels and their conversion (a gzip bomb stops here or at the device check).
void checkPromisedBytes(const std::filesystem::path& path, const RawHeader& h,
                        const std::filesystem::path& voxelFile) {
  if (h.bytesPerVoxel <= 0) return;
  const std::uint64_t bytes = std::uint64_t(h.voxels) * std::uint64_t(h.bytesPerVoxel);
  if (!hasSuffix(voxelFile, {".gz"})) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(voxelFile, ec);
    const bool single = voxelFile == path;  // .nii: header and voxels in one file
    const std::uint64_t need = bytes + (single ? std::uint64_t(h.voxOffset) : 0);
    if (!ec && size < need)
      throw InputError(quoted(path) + " is truncated: its header promises " + byteCount(bytes) +
                       " of voxels, but the file holds " + byteCount(size) + ".");
  }
  // The voxels as read, as doubles and as the float volume.
  checkHostMemory(path, bytes + std::uint64_t(h.voxels) * (sizeof(double) + sizeof(float)));
  if (hasSuffix(voxelFile, {".gz"})) checkGzipHolds(path, voxelFile, h, bytes);
}

template <class T>
double voxelAt(const void* data, std::size_t i) {
  return static_cast<double>(static_cast<const T*>(data)[i]);
}

// The voxel types read (integers, float32 and float64), each with its reader.
using VoxelReader = double (*)(const void*, std::size_t);
constexpr std::pair<int, VoxelReader> kVoxelReaders[] = {
    {NIFTI_TYPE_UINT8, voxelAt<std::uint8_t>}, {NIFTI_TYPE_INT8, voxelAt<std::int8_t>},
    {NIFTI_TYPE_INT16, voxelAt<std::int16_t>}, {NIFTI_TYPE_UINT16, voxelAt<std::uint16_t>},
    {NIFTI_TYPE_INT32, voxelAt<std::int32_t>}, {NIFTI_TYPE_UINT32, voxelAt<std::uint32_t>},
    {NIFTI_TYPE_INT64, voxelAt<std::int64_t>}, {NIFTI_TYPE_UINT64, voxelAt<std::uint64_t>},
    {NIFTI_TYPE_FLOAT32, voxelAt<float>},      {NIFTI_TYPE_FLOAT64, voxelAt<double>}};

// Null for a type not read.
VoxelReader voxelReader(int type) {
  for (const auto& [t, read] : kVoxelReaders)
    if (t == type) return read;
  return nullptr;
}

// NIfTI's world is RAS; WorldGeometry's is LPS (gvflab/world_geometry.hpp): x and y turn round.
constexpr double kRasToLps[3] = {-1.0, -1.0, 1.0};

// The sform when sform_code > 0, else the qform (nifti_clib makes it diag(pixdim) when
// qform_code is 0, as the standard's "method 1" and ITK's reader do). A degenerate matrix (an
// axis of zero length) leaves the geometry unknown; GVF then runs in voxel units as before.
WorldGeometry niftiGeometry(const nifti_image& nim) {
  const nifti_dmat44& m = nim.sform_code > 0 ? nim.sto_xyz : nim.qto_xyz;
  WorldGeometry g;
  for (int axis = 0; axis < 3; ++axis) {
    const double norm = std::hypot(m.m[0][axis], m.m[1][axis], m.m[2][axis]);
    if (!std::isfinite(norm) || norm < 1e-9) return {};
    g.spacing[axis] = norm;
    for (int r = 0; r < 3; ++r) g.direction[r * 3 + axis] = kRasToLps[r] * m.m[r][axis] / norm;
  }
  for (int r = 0; r < 3; ++r) {
    g.origin[r] = kRasToLps[r] * m.m[r][3];
    if (!std::isfinite(g.origin[r])) return {};
  }
  g.niftiSformCode = nim.sform_code;
  g.niftiQformCode = nim.qform_code;
  // A file with neither transform and unit voxels says nothing of the world.
  g.known =
      nim.sform_code > 0 || nim.qform_code > 0 || g.spacing != std::array<double, 3>{1.0, 1.0, 1.0};
  return g;
}

// The geometry as NIfTI's 4x4 (RAS) voxel-to-world matrix.
nifti_dmat44 niftiMatrix(const WorldGeometry& g) {
  nifti_dmat44 m{};
  for (int r = 0; r < 3; ++r) {
    for (int axis = 0; axis < 3; ++axis)
      m.m[r][axis] = kRasToLps[r] * g.direction[r * 3 + axis] * g.spacing[axis];
    m.m[r][3] = kRasToLps[r] * g.origin[r];
  }
  m.m[3][3] = 1.0;
  return m;
}

// nifti_clib probes names beside the one given (.hdr for .img, .gz variants) by opening them,
// which blocks on a FIFO: every such name that exists must be a regular file before it looks.
void checkNiftiNames(const std::filesystem::path& path) {
  checkInputFile(path);
  std::string base = path.string();
  if (hasSuffix(base, {".gz"})) base.resize(base.size() - 3);
  if (hasSuffix(base, {".nii", ".hdr", ".img"})) base.resize(base.size() - 4);
  for (const char* ext : {".nii", ".hdr", ".img", ".NII", ".HDR", ".IMG"})
    for (const char* gz : {"", ".gz", ".GZ"}) {
      const std::filesystem::path beside = base + ext + gz;
      std::error_code ec;
      if (beside != path && std::filesystem::exists(beside, ec))
        checkInputFile(beside, quoted(path) + ": the file beside it " + quoted(beside));
    }
}

Malloced findHeader(const std::filesystem::path& path) {
  nifti_set_debug_level(0);  // our sentences instead of the library's stderr lines
  checkNiftiNames(path);
  Malloced header(nifti_findhdrname(path.c_str()), &std::free);
  if (!header) throw InputError(quoted(path) + " has no NIfTI header file beside it.");
  return header;
}

// nifti_clib turns NaN and infinity into 0 as it loads float voxels: the stored values are
// scanned first (a megabyte at a time), so that they are refused naming the file and the voxel.
void refuseNonFinite(const nifti_image& nim, const std::filesystem::path& path) {
  if ((nim.datatype != NIFTI_TYPE_FLOAT32 && nim.datatype != NIFTI_TYPE_FLOAT64) || !nim.iname)
    return;
  znzFile fp = znzopen(nim.iname, "rb", nifti_is_gzfile(nim.iname));
  if (znz_isnull(fp)) return;  // the load says why
  struct Close {
    znzFile& f;
    ~Close() { znzclose(f); }
  } close{fp};
  if (znzseek(fp, static_cast<znz_off_t>(nim.iname_offset), SEEK_SET) < 0) return;
  const std::size_t size = static_cast<std::size_t>(nim.nbyper);
  const bool swap = nim.byteorder != nifti_short_order();
  std::vector<unsigned char> buffer(std::size_t(1) << 20);
  const auto total = static_cast<std::uint64_t>(nim.nvox);
  for (std::uint64_t index = 0; index < total;) {
    const auto want =
        static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size() / size, total - index));
    const std::size_t got = znzread(buffer.data(), size, want, fp);
    if (got == 0) return;  // short: the load refuses it as truncated
    for (std::size_t k = 0; k < got; ++k) {
      unsigned char* p = buffer.data() + k * size;
      if (swap) std::reverse(p, p + size);
      double v = 0;
      if (size == 4) {
        float f = 0;
        std::memcpy(&f, p, 4);
        v = f;
      } else {
        std::memcpy(&v, p, 8);
      }
      if (std::isfinite(v)) continue;
      const std::uint64_t at = index + k, nx = std::uint64_t(std::max<std::int64_t>(nim.nx, 1)),
                          ny = std::uint64_t(std::max<std::int64_t>(nim.ny, 1));
      throw InputError(quoted(path) + " contains " + (std::isnan(v) ? "NaN" : "infinity") +
                       " at voxel (" + std::to_string(at % nx) + ", " +
                       std::to_string(at / nx % ny) + ", " + std::to_string(at / (nx * ny)) +
                       "); an input must be finite.");
    }
    index += got;
  }
}

}  // namespace

FieldShape niftiShape(const std::filesystem::path& path) {
  const Malloced header = findHeader(path);
  const RawHeader h = checkRawHeader(path, header.get());
  const auto side = [&](int i) { return h.dim[0] >= i ? static_cast<int>(h.dim[i]) : 1; };
  return {side(1), side(2), side(3)};
}

Volume readNiftiVolume(const std::filesystem::path& path) {
  const Malloced header = findHeader(path);
  const RawHeader raw = checkRawHeader(path, header.get());
  NiftiImage nim(nifti_image_read(header.get(), 0));
  if (!nim) throw InputError(quoted(path) + " has a NIfTI header nifti_clib cannot use.");
  const VoxelReader read = voxelReader(nim->datatype);
  if (!read)
    throw InputError(quoted(path) + " stores " + nifti_datatype_to_string(nim->datatype) +
                     " voxels; integers, float32 and float64 are supported.");
  for (int i = 4; i <= nim->dim[0]; ++i)
    if (nim->dim[i] > 1)
      throw InputError(quoted(path) + " holds more than one volume (dim[" + std::to_string(i) +
                       "] = " + std::to_string(nim->dim[i]) + "); give a single 3D volume.");
  if (nim->iname && std::filesystem::path(nim->iname) != std::filesystem::path(header.get())) {
    std::error_code ec;
    if (!std::filesystem::exists(nim->iname, ec))
      throw InputError(quoted(path) + ": its voxel file " + quoted(nim->iname) + " is missing.");
    checkInputFile(nim->iname, quoted(path) + ": its voxel file " + quoted(nim->iname));
  }
  checkPromisedBytes(path, raw, nim->iname ? std::filesystem::path(nim->iname) : path);
  refuseNonFinite(*nim, path);
  // Reads exactly nvox * nbyper bytes (a longer gzip stream is not inflated further).
  if (nifti_image_load(nim.get()) != 0 || !nim->data)
    throw InputError(quoted(path) + " is truncated: its voxels are shorter than the header's " +
                     std::to_string(nim->nx) + "x" + std::to_string(nim->ny) + "x" +
                     std::to_string(nim->nz) + " " + nifti_datatype_to_string(nim->datatype) + ".");
  double slope = nim->scl_slope, inter = nim->scl_inter;
  if (!std::isfinite(slope) || slope == 0) slope = 1, inter = 0;  // NIfTI: 0 means unscaled
  if (!std::isfinite(inter)) inter = 0;

  // The voxels in the file's storage order (never reoriented), its affine as the geometry.
  const std::size_t count = static_cast<std::size_t>(nim->nvox);
  std::vector<double> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = read(nim->data, i) * slope + inter;
  Volume vol;
  vol.width = static_cast<int>(nim->nx);
  vol.height = static_cast<int>(std::max<std::int64_t>(nim->ny, 1));
  vol.depth = static_cast<int>(std::max<std::int64_t>(nim->nz, 1));
  vol.geometry = niftiGeometry(*nim);
  normaliseToUnit(values, vol.voxels, path);
  return vol;
}

namespace {

// NIfTI: both transforms as scanner coordinates (RAS, converted from LPS): the sform exactly,
// the qform as its nearest rotation (equal for a rigid affine); pixdim the spacing, in mm.
void setNiftiGeometry(nifti_image& nim, const WorldGeometry& geometry) {
  if (!usableGeometry(geometry)) return;  // written as unknown: no non-finite header
  const nifti_dmat44 m = niftiMatrix(geometry);
  // The input's space label (an MNI or aligned input stays so), scanner when it had none.
  const bool fromCodes = geometry.niftiSformCode > 0 || geometry.niftiQformCode > 0;
  nim.sform_code = fromCodes ? geometry.niftiSformCode : NIFTI_XFORM_SCANNER_ANAT;
  nim.sto_xyz = m;
  nim.sto_ijk = nifti_dmat44_inverse(m);
  nim.qform_code = fromCodes ? geometry.niftiQformCode : NIFTI_XFORM_SCANNER_ANAT;
  double dx = 0, dy = 0, dz = 0;
  nifti_dmat44_to_quatern(m, &nim.quatern_b, &nim.quatern_c, &nim.quatern_d, &nim.qoffset_x,
                          &nim.qoffset_y, &nim.qoffset_z, &dx, &dy, &dz, &nim.qfac);
  nim.qto_xyz = nifti_quatern_to_dmat44(nim.quatern_b, nim.quatern_c, nim.quatern_d, nim.qoffset_x,
                                        nim.qoffset_y, nim.qoffset_z, geometry.spacing[0],
                                        geometry.spacing[1], geometry.spacing[2], nim.qfac);
  nim.qto_ijk = nifti_dmat44_inverse(nim.qto_xyz);
  nim.dx = nim.pixdim[1] = geometry.spacing[0];
  nim.dy = nim.pixdim[2] = geometry.spacing[1];
  nim.dz = nim.pixdim[3] = geometry.spacing[2];
  nim.xyz_units = NIFTI_UNITS_MM;
}

void writeVectorImage(const std::filesystem::path& path, int width, int height, int depth,
                      int components, const std::vector<float>& interleaved,
                      const WorldGeometry& geometry) {
  checkOutputName(path, "NIfTI", "Cannot write the field to " + quoted(path) + " as NIfTI");
  const std::int64_t dims[8] = {5, width, height, depth, 1, components, 1, 1};
  // NIfTI stores vector components as the slowest axis: planar, not interleaved.
  const std::size_t count = static_cast<std::size_t>(width) * height * depth;
  std::vector<float> planar(interleaved.size());
  for (std::size_t v = 0; v < count; ++v)
    for (int c = 0; c < components; ++c) planar[c * count + v] = interleaved[components * v + c];
  writeNiftiFile(path, dims, NIFTI_TYPE_FLOAT32, NIFTI_INTENT_VECTOR, geometry, planar.data(),
                 planar.size());
}

}  // namespace

void writeNiftiField(const std::filesystem::path& path, const Field2D& field) {
  writeVectorImage(path, field.width, field.height, 1, 2, field.data, field.geometry);
}

void writeNiftiField(const std::filesystem::path& path, const Field3D& field) {
  writeVectorImage(path, field.width, field.height, field.depth, 3, field.data, field.geometry);
}

void writeNiftiFile(const std::filesystem::path& path, const std::int64_t* dims, int datatype,
                    int intent, const WorldGeometry& geometry, void* data, std::size_t voxels) {
  nifti_set_debug_level(0);
  int bytesPerVoxel = 0, swapSize = 0;
  nifti_datatype_sizes(datatype, &bytesPerVoxel, &swapSize);
  writeFileAtomically(path, [&](const std::filesystem::path& tmp) {
    NiftiImage nim(nifti_make_new_nim(dims, datatype, 0));
    if (!nim) throw InputError("Cannot write " + quoted(path) + ": out of memory.");
    nim->intent_code = intent;
    nim->nifti_type = NIFTI_FTYPE_NIFTI1_1;
    if (geometry.known) setNiftiGeometry(*nim, geometry);
    if (nifti_set_filenames(nim.get(), tmp.c_str(), 0, 1) != 0)
      throw InputError("Cannot write " + quoted(path) + ": bad file name.");
    nim->data = data;
    {
      QuietStderr quiet;  // its "wrote only N of M bytes": the read-back below says it in full
      nifti_image_write(nim.get());
    }
    nim->data = nullptr;  // ours, not the library's to free
    // nifti_image_write reports nothing: read the header back, then the whole file (a .nii.gz
    // decompressed to its end), so that a short write never replaces the earlier file.
    NiftiImage check(nifti_image_read(tmp.c_str(), 0));
    if (!check || check->nvox != static_cast<std::int64_t>(voxels) ||
        check->nbyper != bytesPerVoxel)
      throw InputError("Cannot write '" + path.string() +
                       "': the written header cannot be read back (disk full?); nothing was "
                       "replaced.");
    checkWrittenSize(tmp, path,
                     static_cast<std::uint64_t>(check->iname_offset) + voxels * bytesPerVoxel);
  });
}

}  // namespace gvflab::app
