#include "io/nrrd_file.hpp"

#include <teem/biff.h>
#include <teem/nrrd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/io.hpp"
#include "gvflab/quoted.hpp"
#include "io/file_formats.hpp"
#include "io/header_geometry.hpp"
#include "io/nrrd_source.hpp"
#include "io/written_check.hpp"

namespace gvflab::app {
namespace {

struct NrrdNuke {
  void operator()(Nrrd* n) const { nrrdNuke(n); }  // the struct and the data teem allocated
};
struct NrrdNix {
  void operator()(Nrrd* n) const { nrrdNix(n); }  // the struct only: the data is ours
};
struct IoStateNix {
  void operator()(NrrdIoState* s) const { nrrdIoStateNix(s); }
};

// teem's error stack (biff) as one sentence: its deepest line says what is wrong.
std::string teemError() {
  std::unique_ptr<char, decltype(&std::free)> text(biffGetDone(NRRD), &std::free);
  std::string all = text ? text.get() : "";
  while (!all.empty() && (all.back() == '\n' || all.back() == ' ')) all.pop_back();
  std::string last = all.substr(all.find_last_of('\n') + 1);
  if (const auto p = last.find("] "); last.rfind("[", 0) == 0 && p != std::string::npos)
    last = last.substr(p + 2);  // drop "[nrrd] "
  if (const auto p = last.find(": "); !last.empty() && last[0] == '_' && p != std::string::npos)
    last = last.substr(p + 2);  // drop teem's function name ("_nrrdSizeCheck: ")
  while (!last.empty() && (last.back() == '!' || last.back() == '.')) last.pop_back();
  return last.empty() ? "unknown error" : last;
}

using NrrdPtr = std::unique_ptr<Nrrd, NrrdNuke>;

// Reads the source's header (skipData) or all of it through teem, from our own streams.
NrrdPtr teemRead(const NrrdSource& src, bool skipData, const char* failure) {
  nrrdStateVerboseIO = 0;  // teem's progress lines would go to stderr
  NrrdPtr nrrd(nrrdNew());
  std::unique_ptr<NrrdIoState, IoStateNix> nio(nrrdIoStateNew());
  nio->skipData = skipData ? 1 : 0;
  std::unique_ptr<std::FILE, decltype(&std::fclose)> stream(teemStream(src), &std::fclose);
  if (nrrdRead(nrrd.get(), stream.get(), nio.get()) != 0)
    throw InputError(src.file.label() + failure + teemError() + ".");
  return nrrd;
}

// The header alone (no data is allocated or read).
NrrdPtr readHeader(const NrrdSource& src) {
  return teemRead(src, true, " is not a readable NRRD file: ");
}

NrrdPtr readHeader(const std::filesystem::path& path) { return readHeader(openNrrdSource(path)); }

// Raw data must be in the file(s) before teem allocates for it.
void checkRawSize(const NrrdSource& src, std::uint64_t need) {
  if (src.encoding != "raw" || src.lineSkip != 0 || src.byteSkip < 0) return;
  std::uint64_t found = 0;
  const std::uint64_t skip = static_cast<std::uint64_t>(src.byteSkip);
  if (src.data.empty()) {
    const std::uint64_t start = src.headerBytes + skip;
    found = src.file.size() > start ? src.file.size() - start : 0;
  } else {
    for (const auto& d : src.data) found += d.size() > skip ? d.size() - skip : 0;
  }
  if (found < need)
    throw InputError(src.file.label() + " is truncated: its header promises " + byteCount(need) +
                     " of raw data, the file" + (src.data.size() > 1 ? "s hold " : " holds ") +
                     byteCount(found) + ".");
}

// Axis a's size, refused outside 1 .. kMaxSide.
std::int64_t axisSize(const Nrrd& n, unsigned a, const std::filesystem::path& path) {
  const auto size = static_cast<std::int64_t>(n.axis[a].size);
  if (size < 1 || size > kMaxSide)
    throw InputError(quoted(path) + " has an impossible size along axis " + std::to_string(a) +
                     " (" + std::to_string(size) + ").");
  return size;
}

// Loads a file of `axes` axes whose first axis has `components` samples (1: scalar), after
// checking the header's sizes against the limits.
NrrdPtr loadChecked(const std::filesystem::path& path, unsigned axes, std::size_t components,
                    const char* what) {
  const NrrdSource src = openNrrdSource(path);
  NrrdPtr header = readHeader(src);
  if (header->dim != axes || (components > 1 && header->axis[0].size != components))
    throw InputError(
        quoted(path) + " is not " + what + " (it has " + std::to_string(header->dim) + " axes" +
        (header->dim ? ", the first of " + std::to_string(header->axis[0].size) + " samples"
                     : std::string()) +
        ").");
  if (header->type == nrrdTypeBlock || header->type <= nrrdTypeUnknown)
    throw InputError(quoted(path) + " stores block samples; integers and floats are supported.");
  std::int64_t count = 1;
  for (unsigned a = 0; a < header->dim; ++a) {
    count *= axisSize(*header, a, path);
    if (count > kMaxVoxels)
      throw InputError(quoted(path) + " is too large to load (more than " +
                       std::to_string(kMaxVoxels) + " values).");
  }
  checkRawSize(src, std::uint64_t(count) * nrrdTypeSize[header->type]);
  // The samples as read, as doubles and as floats (teem inflates no more than the header says).
  checkHostMemory(path, std::uint64_t(count) * (nrrdTypeSize[header->type] + 8 + 4));
  NrrdPtr nrrd = teemRead(src, false, " cannot be read: ");
  if (nrrd->dim != header->dim || nrrdElementNumber(nrrd.get()) != static_cast<std::size_t>(count))
    throw InputError(quoted(path) + " changed while it was being read.");
  return nrrd;
}

std::vector<double> samples(const Nrrd& nrrd) {
  std::vector<double> v(nrrdElementNumber(&nrrd));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = nrrdDLookup[nrrd.type](nrrd.data, i);
  return v;
}

std::vector<float> finiteFloats(const Nrrd& nrrd, const std::filesystem::path& path) {
  std::vector<float> out(nrrdElementNumber(&nrrd));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double v = nrrdDLookup[nrrd.type](nrrd.data, i);
    if (!std::isfinite(v)) throw InputError(quoted(path) + " contains NaN or infinity.");
    out[i] = static_cast<float>(v);
  }
  return out;
}

int side(const Nrrd& nrrd, unsigned axis) { return static_cast<int>(nrrd.axis[axis].size); }

// How each world axis of a named space turns into LPS (gvflab/world_geometry.hpp); an empty
// answer for a space with time (its 4th axis is not ours).
std::array<double, 3> toLps(int space) {
  if (space == nrrdSpaceRightAnteriorSuperior) return {-1, -1, 1};
  if (space == nrrdSpaceLeftAnteriorSuperior) return {1, -1, 1};
  for (const int timed : {nrrdSpaceRightAnteriorSuperiorTime, nrrdSpaceLeftAnteriorSuperiorTime,
                          nrrdSpaceLeftPosteriorSuperiorTime, nrrdSpaceScannerXYZTime,
                          nrrdSpace3DRightHandedTime, nrrdSpace3DLeftHandedTime})
    if (space == timed) return {0, 0, 0};
  return {1, 1, 1};  // LPS itself, scanner, right/left-handed and 2D spaces: numbers as given
}

// The world geometry of the spatial axes (from axis `first`): space directions and origin when
// the header has a space, else the axes' spacings. Unknown when it has neither, or when the
// space is one we do not map (with time, or more axes than space dimensions).
WorldGeometry nrrdGeometry(const Nrrd& n, unsigned first) {
  WorldGeometry g;
  const unsigned axes = n.dim - first;
  if (n.spaceDim > 0) {
    const std::array<double, 3> sign = toLps(n.space);
    if (sign[0] == 0 || n.spaceDim > 3 || n.spaceDim < axes) return {};
    for (unsigned a = 0; a < axes; ++a) {
      const double* v = n.axis[first + a].spaceDirection;
      double norm = 0;
      for (unsigned r = 0; r < n.spaceDim; ++r) norm += v[r] * v[r];
      norm = std::sqrt(norm);
      if (!std::isfinite(norm) || norm < 1e-12) return {};
      g.spacing[a] = norm;
      for (unsigned r = 0; r < 3; ++r)
        g.direction[r * 3 + a] = r < n.spaceDim ? sign[r] * v[r] / norm : 0.0;
    }
    if (axes == 2 && n.spaceDim == 3) {
      // A plane in 3D space: its normal completes the frame.
      const auto c = [&](int r, int a) { return g.direction[r * 3 + a]; };
      std::array<double, 3> z{c(1, 0) * c(2, 1) - c(2, 0) * c(1, 1),
                              c(2, 0) * c(0, 1) - c(0, 0) * c(2, 1),
                              c(0, 0) * c(1, 1) - c(1, 0) * c(0, 1)};
      const double norm = std::hypot(z[0], z[1], z[2]);
      for (int r = 0; r < 3; ++r)
        g.direction[r * 3 + 2] = norm > 1e-12 ? z[r] / norm : (r == 2 ? 1.0 : 0.0);
    }
    for (unsigned r = 0; r < n.spaceDim; ++r)
      g.origin[r] = std::isfinite(n.spaceOrigin[r]) ? sign[r] * n.spaceOrigin[r] : 0.0;
    g.known = true;
    return g;
  }
  for (unsigned a = 0; a < axes; ++a) {
    const double spacing = n.axis[first + a].spacing;
    if (std::isfinite(spacing) && spacing > 0) g.spacing[a] = spacing, g.known = true;
  }
  return g;
}

void save(const std::filesystem::path& path, const std::vector<float>& data,
          std::vector<std::size_t> sizes, std::vector<int> kinds, const WorldGeometry& geometry) {
  checkOutputName(path, "NRRD", "Cannot write " + quoted(path) + " as NRRD");
  writeNrrdFile(path, data.data(), nrrdTypeFloat, std::move(sizes), std::move(kinds), geometry,
                data.size() * sizeof(float));
}

// NRRD: space (LPS, or a 2D space for an image in the z = 0 plane), the space directions of
// the spatial axes from `first` on, and the space origin. Nothing for an unknown geometry.
void setNrrdSpace(Nrrd& nrrd, const WorldGeometry& g, unsigned first) {
  if (!g.known || !usableGeometry(g)) return;
  const unsigned axes = nrrd.dim - first;
  const bool planar = axes == 2 && g.direction[6] == 0 && g.direction[7] == 0 && g.origin[2] == 0;
  if (planar)
    nrrdSpaceDimensionSet(&nrrd, 2);
  else
    nrrdSpaceSet(&nrrd, nrrdSpaceLeftPosteriorSuperior);
  for (unsigned a = 0; a < axes; ++a) {
    double* v = nrrd.axis[first + a].spaceDirection;
    for (unsigned r = 0; r < nrrd.spaceDim; ++r) v[r] = g.direction[r * 3 + a] * g.spacing[a];
  }
  for (unsigned r = 0; r < nrrd.spaceDim; ++r) nrrd.spaceOrigin[r] = g.origin[r];
}

}  // namespace

FieldShape nrrdShape(const std::filesystem::path& path) {
  NrrdPtr h = readHeader(path);
  FieldShape shape;
  int* sides[3] = {&shape.width, &shape.height, &shape.depth};
  for (unsigned a = 0; a < h->dim && a < 3; ++a)
    *sides[a] = static_cast<int>(axisSize(*h, a, path));
  return shape;
}

std::vector<std::int64_t> nrrdSizes(const std::filesystem::path& path) {
  NrrdPtr h = readHeader(path);
  std::vector<std::int64_t> sizes;
  for (unsigned a = 0; a < h->dim; ++a) sizes.push_back(static_cast<std::int64_t>(h->axis[a].size));
  return sizes;
}

int nrrdAxisCount(const std::filesystem::path& path) {
  return static_cast<int>(readHeader(path)->dim);
}

Image2D readNrrdImage(const std::filesystem::path& path) {
  NrrdPtr n = loadChecked(path, 2, 1, "a 2D scalar image");
  Image2D out(side(*n, 0), side(*n, 1));
  normaliseToUnit(samples(*n), out.pixels, path);
  out.geometry = nrrdGeometry(*n, 0);
  return out;
}

Volume readNrrdVolume(const std::filesystem::path& path) {
  NrrdPtr n = loadChecked(path, 3, 1, "a 3D scalar volume");
  Volume out(side(*n, 0), side(*n, 1), side(*n, 2));
  normaliseToUnit(samples(*n), out.voxels, path);
  out.geometry = nrrdGeometry(*n, 0);
  return out;
}

Field2D readNrrdField2D(const std::filesystem::path& path) {
  NrrdPtr n = loadChecked(path, 3, 2, "a 2D vector field (2 components first, then x, y)");
  Field2D out(side(*n, 1), side(*n, 2));
  out.data = finiteFloats(*n, path);
  out.geometry = nrrdGeometry(*n, 1);
  return out;
}

Field3D readNrrdField3D(const std::filesystem::path& path) {
  NrrdPtr n = loadChecked(path, 4, 3, "a 3D vector field (3 components first, then x, y, z)");
  Field3D out(side(*n, 1), side(*n, 2), side(*n, 3));
  out.data = finiteFloats(*n, path);
  out.geometry = nrrdGeometry(*n, 1);
  return out;
}

void writeNrrdFile(const std::filesystem::path& path, const void* data, int type,
                   std::vector<std::size_t> sizes, std::vector<int> kinds,
                   const WorldGeometry& geometry, std::size_t bytes) {
  writeFileAtomically(path, [&](const std::filesystem::path& tmp) {
    std::unique_ptr<Nrrd, NrrdNix> nrrd(nrrdNew());
    // teem takes non-const data but only reads it when saving.
    if (nrrdWrap_nva(nrrd.get(), const_cast<void*>(data), type, static_cast<unsigned>(sizes.size()),
                     sizes.data()) != 0)
      throw InputError("Cannot write " + quoted(path) + ": " + teemError() + ".");
    nrrdAxisInfoSet_nva(nrrd.get(), nrrdAxisInfoKind, kinds.data());
    setNrrdSpace(*nrrd, geometry, kinds[0] == nrrdKindSpace ? 0 : 1);
    std::unique_ptr<NrrdIoState, IoStateNix> nio(nrrdIoStateNew());
    nio->encoding = nrrdEncodingGzip->available() ? nrrdEncodingGzip : nrrdEncodingRaw;
    if (nrrdSave(tmp.c_str(), nrrd.get(), nio.get()) != 0)
      throw InputError("Cannot write " + quoted(path) + ": " + teemError() +
                       " (disk full?); nothing was replaced.");
    // teem may not notice a short write: the data read back to its end (gunzipped) proves it.
    checkWrittenSize(tmp, path, bytes, textHeaderEnd(tmp, path));
  });
}

void writeNrrd(const std::filesystem::path& path, const Image2D& image) {
  save(path, image.pixels, {std::size_t(image.width), std::size_t(image.height)},
       {nrrdKindSpace, nrrdKindSpace}, image.geometry);
}

void writeNrrd(const std::filesystem::path& path, const Volume& volume) {
  save(path, volume.voxels,
       {std::size_t(volume.width), std::size_t(volume.height), std::size_t(volume.depth)},
       {nrrdKindSpace, nrrdKindSpace, nrrdKindSpace}, volume.geometry);
}

void writeNrrd(const std::filesystem::path& path, const Field2D& field) {
  save(path, field.data, {2, std::size_t(field.width), std::size_t(field.height)},
       {nrrdKind2Vector, nrrdKindSpace, nrrdKindSpace}, field.geometry);
}

void writeNrrd(const std::filesystem::path& path, const Field3D& field) {
  save(path, field.data,
       {3, std::size_t(field.width), std::size_t(field.height), std::size_t(field.depth)},
       {nrrdKind3Vector, nrrdKindSpace, nrrdKindSpace, nrrdKindSpace}, field.geometry);
}

}  // namespace gvflab::app
