#include "io/volume_loader.hpp"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"

namespace gvflab::app {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool isNifti(const std::filesystem::path& path) {
  const std::string name = lower(path.filename().string());
  auto ends = [&](const std::string& e) {
    return name.size() >= e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0;
  };
  return ends(".nii") || ends(".nii.gz");
}

template <typename T>
T get(const unsigned char* p, bool swap) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, p, sizeof(T));
  if (swap) std::reverse(b, b + sizeof(T));
  T v;
  std::memcpy(&v, b, sizeof(T));
  return v;
}

struct GzFile {
  gzFile f;
  explicit GzFile(const std::filesystem::path& p) : f(gzopen(p.c_str(), "rb")) {}
  ~GzFile() {
    if (f) gzclose(f);
  }
  // Reads exactly n bytes (in chunks: gzread takes an unsigned count); false when short.
  bool read(void* dst, std::size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    while (n > 0) {
      const unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(n, 1u << 30));
      const int got = gzread(f, d, chunk);
      if (got <= 0) return false;
      d += got;
      n -= static_cast<std::size_t>(got);
    }
    return true;
  }
};

// NIfTI-1 single file: a 348-byte header, then the voxels at vox_offset.
Volume loadNifti(const std::filesystem::path& path) {
  const std::string name = "'" + path.string() + "'";
  GzFile file(path);
  if (!file.f) throw InputError("Cannot open " + name + ".");
  unsigned char h[348];
  if (!file.read(h, sizeof h)) throw InputError(name + " is too short for a NIfTI header.");
  const bool swap = get<std::int32_t>(h, false) != 348;
  if (get<std::int32_t>(h, swap) != 348) {
    if (get<std::int32_t>(h, false) == 540 || get<std::int32_t>(h, true) == 540)
      throw InputError(name + " is NIfTI-2; only NIfTI-1 volumes are supported.");
    throw InputError(name + " is not a NIfTI-1 file (bad header size).");
  }
  if (std::memcmp(h + 344, "n+1", 4) != 0)
    throw InputError(name + " is not a single-file NIfTI-1 volume (.hdr/.img pairs are not "
                            "supported).");
  std::int16_t dim[8];
  for (int i = 0; i < 8; ++i) dim[i] = get<std::int16_t>(h + 40 + 2 * i, swap);
  if (dim[0] < 3 || dim[0] > 7) throw InputError(name + " is not a 3D volume (dim[0] = " +
                                                 std::to_string(dim[0]) + ").");
  for (int i = 4; i <= dim[0]; ++i)
    if (dim[i] > 1)
      throw InputError(name + " has " + std::to_string(dim[0]) +
                       " dimensions with more than one volume; give a single 3D volume.");
  for (int i = 1; i <= 3; ++i)
    if (dim[i] < 1) throw InputError(name + " has an impossible size.");
  const int type = get<std::int16_t>(h + 70, swap);
  std::size_t esize = 0;
  switch (type) {
    case 2: case 256: esize = 1; break;            // uint8, int8
    case 4: case 512: esize = 2; break;            // int16, uint16
    case 8: case 768: case 16: esize = 4; break;   // int32, uint32, float32
    case 64: esize = 8; break;                     // float64
    default:
      throw InputError(name + " uses NIfTI datatype " + std::to_string(type) +
                       ", which is not supported (integers, float32 and float64 are).");
  }
  const float voxOffset = get<float>(h + 108, swap);
  float slope = get<float>(h + 112, swap), inter = get<float>(h + 116, swap);
  if (!std::isfinite(slope) || slope == 0) slope = 1, inter = 0;
  if (!std::isfinite(inter)) inter = 0;
  const std::size_t count = std::size_t(dim[1]) * dim[2] * dim[3];
  if (count > (std::size_t(1) << 31)) throw InputError(name + " is too large to load.");
  // Skip the extensions between the header and the data.
  const std::size_t skip = voxOffset > 348 ? static_cast<std::size_t>(voxOffset) - 348 : 4;
  std::vector<unsigned char> pad(skip);
  std::vector<unsigned char> raw(count * esize);
  if (!file.read(pad.data(), skip) || !file.read(raw.data(), raw.size()))
    throw InputError(name + " is truncated: expected " + std::to_string(raw.size()) +
                     " bytes of voxels.");
  std::vector<double> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned char* p = raw.data() + i * esize;
    double v = 0;
    switch (type) {
      case 2: v = *p; break;
      case 256: v = static_cast<std::int8_t>(*p); break;
      case 4: v = get<std::int16_t>(p, swap); break;
      case 512: v = get<std::uint16_t>(p, swap); break;
      case 8: v = get<std::int32_t>(p, swap); break;
      case 768: v = get<std::uint32_t>(p, swap); break;
      case 16: v = get<float>(p, swap); break;
      default: v = get<double>(p, swap); break;
    }
    values[i] = v * slope + inter;
  }
  Volume vol(dim[1], dim[2], dim[3]);
  double lo = values[0], hi = values[0];
  for (double v : values) {
    if (!std::isfinite(v)) throw InputError(name + " contains NaN or infinity.");
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  for (std::size_t i = 0; i < count; ++i)
    vol.voxels[i] = hi > lo ? static_cast<float>((values[i] - lo) / (hi - lo)) : 0.0f;
  return vol;
}

}  // namespace

bool isVolumeFile(const std::filesystem::path& path) {
  if (isNifti(path)) return true;
  const std::string ext = lower(path.extension().string());
  if (ext != ".mha" && ext != ".mhd") return false;
  return metaImageDimensions(path) == 3;
}

Volume loadVolume(const std::filesystem::path& path) {
  if (isNifti(path)) return loadNifti(path);
  return readMetaImageVolume(path);
}

}  // namespace gvflab::app
