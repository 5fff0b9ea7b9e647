#include "io/dicom_file.hpp"

#include <gdcmDataSet.h>
#include <gdcmFile.h>
#include <gdcmImage.h>
#include <gdcmImageHelper.h>
#include <gdcmImageReader.h>
#include <gdcmReader.h>
#include <gdcmTrace.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <exception>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/io.hpp"
#include "gvflab/luminance.hpp"
#include "gvflab/quoted.hpp"
#include "io/header_geometry.hpp"
#include "io/image_structure.hpp"
#include "io/quiet_stderr.hpp"

namespace gvflab::app {
namespace {
namespace fs = std::filesystem;
using Vec3 = std::array<double, 3>;

constexpr std::size_t kMaxSeriesFiles = static_cast<std::size_t>(kMaxSide);

// GDCM prints its warnings and errors itself: our sentences say what failed.
void quietGdcm() {
  static std::once_flag once;
  std::call_once(once, [] {
    gdcm::Trace::DebugOff();
    gdcm::Trace::WarningOff();
    gdcm::Trace::ErrorOff();
  });
}

// f()'s answer, or false when GDCM throws instead (it does on some corrupt files).
template <class F>
bool succeeds(F f) {
  try {
    return f();
  } catch (const std::exception&) {
    return false;
  }
}

// A tag's text, trailing blanks and NULs dropped ("" when absent or empty).
std::string text(const gdcm::DataSet& ds, gdcm::Tag tag) {
  if (!ds.FindDataElement(tag)) return "";
  const gdcm::ByteValue* bv = ds.GetDataElement(tag).GetByteValue();
  if (!bv || bv->GetLength() == 0) return "";
  std::string s(bv->GetPointer(), bv->GetLength());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
}

// "a\b\c": n finite numbers, or empty when absent or malformed.
std::vector<double> numbers(const gdcm::DataSet& ds, gdcm::Tag tag, std::size_t n) {
  std::string s = text(ds, tag);
  std::replace(s.begin(), s.end(), '\\', ' ');
  std::istringstream in(s);
  in.imbue(std::locale::classic());
  std::vector<double> out;
  double v = 0;
  while (out.size() <= n && in >> v) out.push_back(v);
  if (out.size() != n ||
      !std::all_of(out.begin(), out.end(), [](double x) { return std::isfinite(x); }))
    return {};
  return out;
}

// PixelSpacing, when given, must be two finite spacings > 0: a zero or negative one makes the
// geometry unknown (never a 1 mm default).
bool pixelSpacingValid(const gdcm::DataSet& ds) {
  const gdcm::Tag tag(0x0028, 0x0030);
  if (!ds.FindDataElement(tag)) return true;
  const std::vector<double> v = numbers(ds, tag, 2);
  return v.size() == 2 && v[0] > 0 && v[1] > 0;
}

Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// What a file's header says, read up to (not including) its pixel data.
struct Header {
  fs::path path;
  unsigned width = 0, height = 0, frames = 1;
  unsigned samples = 1, bitsAllocated = 0, pixelRepresentation = 0;
  std::string photometric, seriesUid;
  std::vector<double> position;     // ImagePositionPatient (empty when absent)
  std::vector<double> orientation;  // ImageOrientationPatient
  double instance = 0;
};

std::vector<double> headerSpacing(const gdcm::File& file) {
  try {
    return gdcm::ImageHelper::GetSpacingValue(file);
  } catch (...) {
    return {};
  }
}

// Opens and checks path (missing, a FIFO, empty, too large for memory, elements past the end)
// before GDCM reads it.
std::string checkedName(const fs::path& path) {
  InputFile file(path);
  if (file.size() == 0) throw InputError(quoted(path) + " is empty.");
  checkHostMemory(path, file.size() * 3);  // GDCM holds the file, then the decoded pixels
  prewalkDicom(file);  // what GDCM would trip on, refused before it reads a byte
  return path.string();
}

Header readHeader(const fs::path& path, gdcm::File* keep = nullptr) {
  quietGdcm();
  const std::string name = checkedName(path);
  gdcm::Reader reader;
  reader.SetFileName(name.c_str());
  if (!succeeds([&] { return reader.ReadUpToTag(gdcm::Tag(0x7fe0, 0x0010)); }))
    throw InputError(quoted(path) + " is not a DICOM file (or its header is corrupt).");
  const gdcm::DataSet& ds = reader.GetFile().GetDataSet();
  Header h;
  h.path = path;
  // GDCM's own reading of Rows, Columns, NumberOfFrames and the pixel format (either byte
  // order).
  std::vector<unsigned> dims;
  gdcm::PixelFormat pf;
  if (!succeeds([&] {
        dims = gdcm::ImageHelper::GetDimensionsValue(reader.GetFile());
        pf = gdcm::ImageHelper::GetPixelFormatValue(reader.GetFile());
        return true;
      }))
    dims.clear();
  if (dims.size() < 2 || dims[0] == 0 || dims[1] == 0 ||
      !ds.FindDataElement(gdcm::Tag(0x0028, 0x0010)))
    throw InputError(quoted(path) +
                     " holds no image (a DICOM file without Rows and Columns: a report, a "
                     "structured document or a DICOMDIR?).");
  h.width = dims[0];
  h.height = dims[1];
  h.frames = dims.size() > 2 && dims[2] > 0 ? dims[2] : 1;
  if (h.frames > kMaxSide)
    throw InputError(quoted(path) + " declares " + std::to_string(h.frames) + " frames (1 to " +
                     std::to_string(kMaxSide) + " are read).");
  h.samples = pf.GetSamplesPerPixel();
  h.bitsAllocated = pf.GetBitsAllocated();
  h.pixelRepresentation = pf.GetPixelRepresentation();
  h.photometric = text(ds, gdcm::Tag(0x0028, 0x0004));
  h.seriesUid = text(ds, gdcm::Tag(0x0020, 0x000e));
  h.position = numbers(ds, gdcm::Tag(0x0020, 0x0032), 3);
  h.orientation = numbers(ds, gdcm::Tag(0x0020, 0x0037), 6);
  if (const std::vector<double> n = numbers(ds, gdcm::Tag(0x0020, 0x0013), 1); !n.empty())
    h.instance = n[0];
  if (h.width > kMaxImageSide || h.height > kMaxImageSide)
    throw InputError(quoted(path) + " is " + std::to_string(h.width) + "x" +
                     std::to_string(h.height) + " pixels, too large: at most " +
                     std::to_string(kMaxImageSide) + " per side fit.");
  if (std::uint64_t(h.width) * h.height * h.frames > std::uint64_t(kMaxVoxels))
    throw InputError(quoted(path) + " is " + std::to_string(h.width) + "x" +
                     std::to_string(h.height) + "x" + std::to_string(h.frames) +
                     ", too large: at most " + std::to_string(kMaxVoxels) + " voxels are read.");
  if (keep) *keep = reader.GetFile();
  return h;
}

// A series' slices in order, checked, with their world geometry.
struct Series {
  std::vector<Header> slices;
  WorldGeometry geometry;
};

Series readSeries(const fs::path& folder) {
  Series s;
  gdcm::File first;
  for (const fs::path& file : dicomSeriesFiles(folder)) {
    try {
      s.slices.push_back(readHeader(file, s.slices.empty() ? &first : nullptr));
    } catch (const InputError& e) {
      throw InputError(std::string(e.what()) + " A series folder (" + quoted(folder) +
                       ") must hold only the DICOM files of one series.");
    }
  }
  const Header& a = s.slices.front();
  for (const Header& h : s.slices) {
    const auto differ = [&](const std::string& what, const std::string& x, const std::string& y) {
      throw InputError("The DICOM series " + quoted(folder) +
                       " is inconsistent: " + quoted(a.path.filename()) + " has " + what + " " + x +
                       ", " + quoted(h.path.filename()) + " has " + y + ".");
    };
    if (h.frames != 1)
      differ("frames", "1", std::to_string(h.frames) + " (a series is read one frame a file)");
    if (h.width != a.width || h.height != a.height)
      differ("size", std::to_string(a.width) + "x" + std::to_string(a.height),
             std::to_string(h.width) + "x" + std::to_string(h.height));
    if (h.samples != a.samples || h.bitsAllocated != a.bitsAllocated ||
        h.pixelRepresentation != a.pixelRepresentation || h.photometric != a.photometric)
      differ("pixel type", std::to_string(a.bitsAllocated) + "-bit " + a.photometric,
             std::to_string(h.bitsAllocated) + "-bit " + h.photometric);
    if (h.seriesUid != a.seriesUid) differ("series UID", a.seriesUid, h.seriesUid);
  }
  const bool positioned = std::all_of(s.slices.begin(), s.slices.end(), [](const Header& h) {
    return h.position.size() == 3 && h.orientation.size() == 6;
  });
  if (!positioned) {
    std::stable_sort(s.slices.begin(), s.slices.end(),
                     [](const Header& x, const Header& y) { return x.instance < y.instance; });
    return s;  // geometry unknown
  }
  const Vec3 row{a.orientation[0], a.orientation[1], a.orientation[2]};
  const Vec3 col{a.orientation[3], a.orientation[4], a.orientation[5]};
  Vec3 normal = cross(row, col);
  const double length = std::sqrt(dot(normal, normal));
  if (length < 1e-6)
    throw InputError(quoted(a.path) + " has a degenerate ImageOrientationPatient.");
  for (double& v : normal) v /= length;
  for (const Header& h : s.slices)
    for (int i = 0; i < 6; ++i)
      if (std::abs(h.orientation[i] - a.orientation[i]) > 1e-4)
        throw InputError("The DICOM series " + quoted(folder) +
                         " is inconsistent: " + quoted(h.path.filename()) + " and " +
                         quoted(a.path.filename()) + " have different ImageOrientationPatient.");
  const auto along = [&](const Header& h) {
    return dot(Vec3{h.position[0], h.position[1], h.position[2]}, normal);
  };
  std::stable_sort(s.slices.begin(), s.slices.end(),
                   [&](const Header& x, const Header& y) { return along(x) < along(y); });
  double gap = 1.0;
  if (s.slices.size() > 1) {
    gap = (along(s.slices.back()) - along(s.slices.front())) / double(s.slices.size() - 1);
    for (std::size_t i = 1; i < s.slices.size(); ++i) {
      const double d = along(s.slices[i]) - along(s.slices[i - 1]);
      if (d < 1e-6)
        throw InputError("The DICOM series " + quoted(folder) +
                         " has two slices at one position (" +
                         quoted(s.slices[i - 1].path.filename()) + " and " +
                         quoted(s.slices[i].path.filename()) + ").");
      if (std::abs(d - gap) > 0.01 * gap + 1e-4)
        throw InputError("The DICOM series " + quoted(folder) + " is unevenly spaced: slices are " +
                         std::to_string(d) + " mm apart at " + quoted(s.slices[i].path.filename()) +
                         ", " + std::to_string(gap) + " mm on average (a slice missing?).");
    }
  }
  const std::vector<double> spacing = headerSpacing(first);
  if (!pixelSpacingValid(first.GetDataSet())) return s;  // geometry unknown, never 1 mm
  WorldGeometry& g = s.geometry;
  g.spacing = {spacing.size() >= 2 && spacing[0] > 0 ? spacing[0] : 1.0,
               spacing.size() >= 2 && spacing[1] > 0 ? spacing[1] : 1.0, gap};
  const Header& lowest = s.slices.front();
  g.origin = {lowest.position[0], lowest.position[1], lowest.position[2]};
  g.direction = {row[0], col[0], normal[0], row[1], col[1], normal[1], row[2], col[2], normal[2]};
  g.known = usableGeometry(g);
  if (!g.known) g = WorldGeometry{};
  return s;
}

// The library's own first line, folded into our sentence ("; GDCM: ...").
std::string library(QuietStderr& quiet) {
  const std::string line = quiet.firstLine();
  return line.empty() ? "" : "; it says: " + line;
}

// Decodes a whole file (every frame) to grey values, slope and intercept applied; MONOCHROME1
// is inverted, colour becomes luminance. Appends width * height * frames values to out.
void decodeFile(const Header& h, std::vector<double>& out, WorldGeometry* geometry) {
  quietGdcm();
  gdcm::ImageReader reader;
  const std::string name = h.path.string();
  reader.SetFileName(name.c_str());
  QuietStderr quiet;  // GDCM's and OpenJPEG's own lines: our sentence names the file
  if (!succeeds([&] { return reader.Read(); }))
    throw InputError(quoted(h.path) +
                     " has no pixel data GDCM can read (unsupported or corrupt pixel data" +
                     library(quiet) + ").");
  const gdcm::Image& image = reader.GetImage();
  const unsigned frames = image.GetNumberOfDimensions() > 2 ? image.GetDimension(2) : 1;
  if (image.GetDimension(0) != h.width || image.GetDimension(1) != h.height || frames != h.frames)
    throw InputError(quoted(h.path) + " has pixel data of another size than its header says.");
  const gdcm::PixelFormat& pf = image.GetPixelFormat();
  const unsigned samples = pf.GetSamplesPerPixel();
  const unsigned bytes = pf.GetBitsAllocated() / 8;
  const bool isFloat = pf.GetScalarType() == gdcm::PixelFormat::FLOAT32 ||
                       pf.GetScalarType() == gdcm::PixelFormat::FLOAT64;
  const bool isSigned = pf.GetPixelRepresentation() == 1;
  const unsigned stored = pf.GetBitsStored();
  const unsigned allocated = pf.GetBitsAllocated();
  if ((allocated != 8 && allocated != 16 && allocated != 32 && allocated != 64) ||
      (isFloat && bytes < 4) || (samples != 1 && samples != 3) || stored == 0 || stored > 8 * bytes)
    throw InputError(quoted(h.path) + " has unsupported pixel data (" +
                     std::to_string(pf.GetBitsAllocated()) + "-bit, " + std::to_string(samples) +
                     " samples per pixel; 8, 16, 32 or 64-bit grey or RGB are read).");
  using PI = gdcm::PhotometricInterpretation;
  const PI::PIType pi = image.GetPhotometricInterpretation().GetType();
  const bool grey = pi == PI::MONOCHROME1 || pi == PI::MONOCHROME2;
  const bool ybr = pi == PI::YBR_FULL || pi == PI::YBR_FULL_422 || pi == PI::YBR_PARTIAL_422 ||
                   pi == PI::YBR_PARTIAL_420 || pi == PI::YBR_ICT || pi == PI::YBR_RCT;
  if ((samples == 1 && !grey) || (samples == 3 && pi != PI::RGB && !ybr))
    throw InputError(quoted(h.path) + " has an unsupported colour model (" +
                     std::string(image.GetPhotometricInterpretation().GetString()
                                     ? image.GetPhotometricInterpretation().GetString()
                                     : "unknown") +
                     "; MONOCHROME1, MONOCHROME2, RGB and YBR are read).");
  const std::uint64_t pixels = std::uint64_t(h.width) * h.height * frames;
  // Native (not encapsulated) pixel data must hold every sample: GDCM would pad a short one.
  if (const gdcm::ByteValue* raw = image.GetDataElement().GetByteValue();
      raw && raw->GetLength() < pixels * samples * bytes)
    throw InputError(quoted(h.path) + " is truncated: its pixel data holds " +
                     byteCount(raw->GetLength()) + ", its size needs " +
                     byteCount(pixels * samples * bytes) + ".");
  const std::uint64_t length = image.GetBufferLength();
  if (length < pixels * samples * bytes)
    throw InputError(quoted(h.path) + " has less pixel data than its size needs.");
  checkHostMemory(h.path, length + pixels * 12);
  std::vector<char> buffer(length);
  if (!succeeds([&] { return image.GetBuffer(buffer.data()); }))
    throw InputError(
        quoted(h.path) + " has pixel data GDCM cannot decode (transfer syntax " +
        std::string(reader.GetFile().GetHeader().GetDataSetTransferSyntax().GetString()
                        ? reader.GetFile().GetHeader().GetDataSetTransferSyntax().GetString()
                        : "unknown") +
        ", or corrupt" + library(quiet) + ").");
  const double slope = image.GetSlope() != 0 ? image.GetSlope() : 1.0;
  const double intercept = image.GetIntercept();
  const unsigned shift = 8 * bytes - stored;  // bits above BitsStored are not the sample's
  const auto sample = [&](std::size_t index) -> double {
    const char* p = buffer.data() + index * bytes;
    if (isFloat) {
      if (bytes == 4) {
        float f;
        std::memcpy(&f, p, 4);
        return f;
      }
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
    std::uint64_t u = 0;
    std::memcpy(&u, p, bytes);  // little-endian host: GDCM gives native order
    u <<= (64 - 8 * bytes + shift);
    return isSigned ? double(std::int64_t(u) >> (64 - stored)) : double(u >> (64 - stored));
  };
  const bool planar = samples == 3 && image.GetPlanarConfiguration() == 1;
  const std::uint64_t framePixels = std::uint64_t(h.width) * h.height;
  for (std::uint64_t i = 0; i < pixels; ++i) {
    double v = 0;
    if (samples == 1) {
      v = sample(i);
    } else {
      const std::uint64_t f = i / framePixels, k = i % framePixels;
      const auto at = [&](unsigned c) {
        return planar ? sample((f * 3 + c) * framePixels + k) : sample(i * 3 + c);
      };
      // YBR: Y is the luminance already.
      v = ybr ? at(0) : luminance(at(0), at(1), at(2));
    }
    v = v * slope + intercept;
    out.push_back(pi == PI::MONOCHROME1 ? -v : v);
  }
  if (geometry) {
    WorldGeometry& g = *geometry;
    const double* s = image.GetSpacing();
    const double* o = image.GetOrigin();
    const double* d = image.GetDirectionCosines();
    const Vec3 row{d[0], d[1], d[2]}, col{d[3], d[4], d[5]};
    const Vec3 n = cross(row, col);
    g.spacing = {s[0] > 0 ? s[0] : 1.0, s[1] > 0 ? s[1] : 1.0, frames > 1 && s[2] > 0 ? s[2] : 1.0};
    g.origin = {o[0], o[1], o[2]};
    g.direction = {row[0], col[0], n[0], row[1], col[1], n[1], row[2], col[2], n[2]};
    g.known = (!h.position.empty() || !headerSpacing(reader.GetFile()).empty()) &&
              pixelSpacingValid(reader.GetFile().GetDataSet()) && usableGeometry(g);
    if (!g.known) g = WorldGeometry{};
  }
}

}  // namespace

std::vector<fs::path> dicomSeriesFiles(const fs::path& folder) {
  std::vector<fs::path> files;
  std::error_code ec;
  const fs::path real = fs::canonical(folder, ec);
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.' || name == "DICOMDIR") continue;
    if (files.size() == kMaxSeriesFiles)
      throw InputError(quoted(folder) + " holds more than " + std::to_string(kMaxSeriesFiles) +
                       " files, too many for one series.");
    // A member is a file of the folder: a link out of it is not followed (as a header's data
    // file, --allow-data-outside allows it).
    std::error_code linkError;
    const fs::path target = fs::canonical(it->path(), linkError);
    const auto [mismatch, unused] =
        std::mismatch(real.begin(), real.end(), target.begin(), target.end());
    if (!dataFilesOutsideAllowed() && (linkError || mismatch != real.end()))
      throw InputError("The DICOM series " + quoted(folder) + ": " + quoted(it->path().filename()) +
                       " links outside the folder" +
                       (linkError ? "" : " (to " + quoted(target) + ")") +
                       "; only files in the folder are read (--allow-data-outside allows others).");
    files.push_back(it->path());
  }
  if (ec) throw InputError(quoted(folder) + " cannot be listed (" + ec.message() + ").");
  if (files.empty())
    throw InputError(quoted(folder) +
                     " is a folder with no files: give a DICOM series folder or "
                     "an image file.");
  std::sort(files.begin(), files.end());
  return files;
}

bool isDicomSeriesFolder(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

namespace {

// A series' voxel count, refused beyond kMaxVoxels before anything is decoded.
std::uint64_t seriesVoxels(const fs::path& path, const Series& s) {
  const std::uint64_t voxels =
      std::uint64_t(s.slices[0].width) * s.slices[0].height * s.slices.size();
  if (voxels > std::uint64_t(kMaxVoxels))
    throw InputError("The DICOM series " + quoted(path) + " has " + std::to_string(voxels) +
                     " voxels, too many: at most " + std::to_string(kMaxVoxels) + " are read.");
  return voxels;
}

}  // namespace

int dicomDimensions(const fs::path& path) {
  if (isDicomSeriesFolder(path)) return 3;
  return readHeader(path).frames > 1 ? 3 : 2;
}

FieldShape dicomShape(const fs::path& path) {
  if (isDicomSeriesFolder(path)) {
    const Series s = readSeries(path);
    seriesVoxels(path, s);  // refused here as readDicomVolume refuses it
    return {int(s.slices[0].width), int(s.slices[0].height), int(s.slices.size())};
  }
  const Header h = readHeader(path);
  return {int(h.width), int(h.height), int(h.frames)};
}

Image2D readDicomImage(const fs::path& path) {
  const Header h = readHeader(path);
  if (h.frames > 1)
    throw InputError(quoted(path) + " holds " + std::to_string(h.frames) +
                     " frames: it is read as a volume.");
  std::vector<double> values;
  values.reserve(std::size_t(h.width) * h.height);
  Image2D img;
  decodeFile(h, values, &img.geometry);
  img.width = int(h.width);
  img.height = int(h.height);
  img.geometry.spacing[2] = 1.0;
  normaliseToUnit(values, img.pixels, path);
  return img;
}

Volume readDicomVolume(const fs::path& path) {
  Volume v;
  std::vector<double> values;
  if (isDicomSeriesFolder(path)) {
    const Series s = readSeries(path);
    const std::uint64_t voxels = seriesVoxels(path, s);
    checkHostMemory(path, voxels * 12);
    values.reserve(voxels);
    for (const Header& h : s.slices) decodeFile(h, values, nullptr);
    v.width = int(s.slices[0].width);
    v.height = int(s.slices[0].height);
    v.depth = int(s.slices.size());
    v.geometry = s.geometry;
  } else {
    const Header h = readHeader(path);
    values.reserve(std::size_t(h.width) * h.height * h.frames);
    decodeFile(h, values, &v.geometry);
    v.width = int(h.width);
    v.height = int(h.height);
    v.depth = int(h.frames);
  }
  normaliseToUnit(values, v.voxels, path);
  return v;
}

}  // namespace gvflab::app
