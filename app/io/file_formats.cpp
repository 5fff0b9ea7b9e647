#include "io/file_formats.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "io/contour_formats.hpp"
#include "io/contours_json.hpp"
#include "io/dicom_file.hpp"
#include "io/mask_file.hpp"
#include "io/nifti_file.hpp"
#include "io/nrrd_file.hpp"
#include "io/surface_file.hpp"
#include "io/tiff_file.hpp"

namespace gvflab::app {
namespace {
using namespace std::string_view_literals;
using R = FormatRole;
namespace fs = std::filesystem;

constexpr FormatRoles kImage = static_cast<FormatRoles>(R::ImageInput);
constexpr FormatRoles kImageOrVolume = R::ImageInput | R::VolumeInput;

// Raster images: read by content in image_loader.cpp (Qt; the engine for PGM/PPM).
FileFormat raster(std::string_view name, std::vector<FormatExtension> extensions,
                  std::vector<std::string_view> signatures, std::string_view qtFormat) {
  FileFormat f;
  f.name = name;
  f.extensions = std::move(extensions);
  f.signatures = std::move(signatures);
  f.qtFormat = qtFormat;
  return f;
}

std::vector<FileFormat> makeFormats() {
  std::vector<FileFormat> t;
  // PNG is also what every picture output writes (io/png_writer.hpp, the figures).
  t.push_back(raster("PNG", {{".png", R::ImageInput | R::PictureOutput | R::MaskOutput}},
                     {"\x89PNG\r\n\x1a\n"sv}, "png"));
  t.back().writeMask = writeMaskPng;
  t.push_back(raster("JPEG", {{".jpg", kImage}, {".jpeg", kImage}}, {"\xFF\xD8\xFF"sv}, "jpeg"));
  t.push_back(raster("BMP", {{".bmp", kImage}}, {"BM"sv}, "bmp"));
  // P2/P3/P5/P6 go to the engine's reader, P1/P4 (PBM) to Qt's.
  t.push_back(raster("PNM",
                     {{".pgm", kImage}, {".ppm", kImage}, {".pnm", kImage}, {".pbm", kImage}},
                     {"P1"sv, "P2"sv, "P3"sv, "P4"sv, "P5"sv, "P6"sv}, ""));
  // TIFF through libtiff (io/tiff_file.hpp): one page is an image, a stack of pages a volume.
  FileFormat tiff = raster("TIFF", {{".tif", kImageOrVolume}, {".tiff", kImageOrVolume}},
                           {"II*\0"sv, "MM\0*"sv, "II+\0"sv, "MM\0+"sv}, "tiff");
  tiff.headerShape = tiffShape;
  tiff.dimensions = tiffDimensions;
  tiff.readImage = readTiffImage;
  tiff.readVolume = readTiffVolume;
  t.push_back(std::move(tiff));
  t.push_back(raster("GIF", {}, {"GIF8"sv}, "gif"));  // by content only, under any name

  FileFormat meta;
  meta.name = "MetaImage";
  meta.extensions = {{".mha", kImageOrVolume | R::FieldOutput}, {".mhd", kImageOrVolume}};
  meta.headerShape = [](const fs::path& p) {
    const std::vector<int> d = metaImageSize(p);
    return FieldShape{d[0], d[1], d.size() > 2 ? d[2] : 1};
  };
  meta.dimensions = metaImageDimensions;
  meta.readImage = readMetaImage;
  meta.readVolume = readMetaImageVolume;
  meta.writeField2D = writeMetaImageField;
  meta.writeField3D = writeMetaImageField3D;
  t.push_back(std::move(meta));

  FileFormat nrrd;
  nrrd.name = "NRRD";
  // .nhdr is a detached header: written fields are single files.
  nrrd.extensions = {{".nrrd", kImageOrVolume | R::FieldOutput | R::MaskOutput},
                     {".nhdr", kImageOrVolume}};
  nrrd.headerShape = nrrdShape;
  nrrd.dimensions = nrrdAxisCount;
  nrrd.readImage = readNrrdImage;
  nrrd.readVolume = readNrrdVolume;
  nrrd.writeField2D = [](const fs::path& p, const Field2D& f) { writeNrrd(p, f); };
  nrrd.writeField3D = [](const fs::path& p, const Field3D& f) { writeNrrd(p, f); };
  nrrd.writeMask = writeMaskNrrd;
  t.push_back(std::move(nrrd));

  FileFormat nifti;
  nifti.name = "NIfTI";
  constexpr FormatRoles kVolumeFieldOrMask = R::VolumeInput | R::FieldOutput | R::MaskOutput;
  constexpr FormatRoles kVolume = static_cast<FormatRoles>(R::VolumeInput);
  // ANALYZE-style .hdr/.img pairs are read; written fields are single files.
  nifti.extensions = {{".nii", kVolumeFieldOrMask},
                      {".nii.gz", kVolumeFieldOrMask},
                      {".hdr", kVolume},
                      {".hdr.gz", kVolume},
                      {".img", kVolume},
                      {".img.gz", kVolume}};
  nifti.headerShape = niftiShape;
  nifti.readVolume = readNiftiVolume;  // no readImage: always a volume
  nifti.writeField2D = [](const fs::path& p, const Field2D& f) { writeNiftiField(p, f); };
  nifti.writeField3D = [](const fs::path& p, const Field3D& f) { writeNiftiField(p, f); };
  nifti.writeMask = writeMaskNifti;
  t.push_back(std::move(nifti));

  FileFormat dicom;  // io/dicom_file.hpp; a folder given as input is a series (volume_loader)
  dicom.name = "DICOM";
  dicom.extensions = {{".dcm", kImageOrVolume}, {".dicom", kImageOrVolume}};
  dicom.headerShape = dicomShape;
  dicom.dimensions = dicomDimensions;
  dicom.readImage = readDicomImage;
  dicom.readVolume = readDicomVolume;
  t.push_back(std::move(dicom));

  const auto contours = [&](std::string_view name, std::string_view ext, auto write) {
    FileFormat f;
    f.name = name;
    f.extensions = {{ext, static_cast<FormatRoles>(R::ContoursOutput)}};
    f.writeContours = write;
    t.push_back(std::move(f));
  };
  using Contours = std::vector<ContourRecord>;
  contours("gvflab contours", ".json",
           [](const fs::path& p, const Contours& c, const ContourCanvas& canvas) {
             writeContoursJson(p, c, canvas);
           });
  contours("GeoJSON", ".geojson",
           [](const fs::path& p, const Contours& c, const ContourCanvas& canvas) {
             writeFileAtomically(p, contoursGeoJson(c, canvas));
           });
  contours("CSV", ".csv", [](const fs::path& p, const Contours& c, const ContourCanvas& canvas) {
    writeFileAtomically(p, contoursCsv(c, canvas));
  });
  contours("SVG", ".svg", [](const fs::path& p, const Contours& c, const ContourCanvas& canvas) {
    writeFileAtomically(p, contoursSvg(c, canvas));
  });

  // Surface meshes (--save-surfaces), written with assimp.
  for (const auto& [name, ext, write] : {std::tuple{"PLY"sv, ".ply"sv, &writeSurfacePly},
                                         {"Wavefront OBJ"sv, ".obj"sv, &writeSurfaceObj},
                                         {"STL"sv, ".stl"sv, &writeSurfaceStl}}) {
    FileFormat f;
    f.name = name;
    f.extensions = {{ext, static_cast<FormatRoles>(R::SurfaceOutput)}};
    f.writeSurface = write;
    t.push_back(std::move(f));
  }

  for (const auto& [name, ext, muxer] :
       {std::tuple{"MP4 (H.264)"sv, ".mp4"sv, "mp4"sv}, {"WebM (VP9)"sv, ".webm"sv, "webm"sv}}) {
    FileFormat f;
    f.name = name;
    f.extensions = {{ext, static_cast<FormatRoles>(R::VideoOutput)}};
    f.videoMuxer = muxer;
    t.push_back(std::move(f));
  }

  FileFormat session;  // read and written by io/session_file.hpp
  session.name = "gvflab session";
  session.extensions = {{".json", static_cast<FormatRoles>(R::Session)}};
  t.push_back(std::move(session));
  return t;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool endsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// The extensions of a role, in the table's order.
std::vector<std::string_view> extensionsOf(FormatRole role) {
  std::vector<std::string_view> out;
  for (const FileFormat& f : fileFormats())
    for (const FormatExtension& e : f.extensions)
      if (hasRole(e.roles, role)) out.push_back(e.suffix);
  return out;
}

// "a", "a or b", "a, b or c".
std::string sentenceList(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return out;
}

}  // namespace

FormatRoles FileFormat::roles() const {
  FormatRoles r = 0;
  for (const FormatExtension& e : extensions) r |= e.roles;
  return r;
}

const std::vector<FileFormat>& fileFormats() {
  static const std::vector<FileFormat> formats = makeFormats();
  return formats;
}

const FileFormat* findFormat(const fs::path& path, FormatRoles roles) {
  const std::string name = lower(path.filename().string());
  const FileFormat* found = nullptr;
  std::size_t longest = 0;
  for (const FileFormat& f : fileFormats())
    for (const FormatExtension& e : f.extensions)
      if ((e.roles & roles) != 0 && e.suffix.size() > longest && endsWith(name, e.suffix)) {
        found = &f;
        longest = e.suffix.size();
      }
  return found;
}

const FileFormat& requireFormat(const fs::path& path, FormatRole role, const std::string& refusal) {
  if (const FileFormat* f = findFormat(path, role)) return *f;
  throw ParameterError(refusal + ": the name must end in " + extensionList(role) + ".");
}

void checkOutputName(const fs::path& path, std::string_view formatName,
                     const std::string& refusal) {
  constexpr FormatRoles kOutputs = R::FieldOutput | R::ContoursOutput | R::PictureOutput |
                                   R::VideoOutput | R::Session | R::MaskOutput;
  const auto format = std::find_if(fileFormats().begin(), fileFormats().end(),
                                   [&](const FileFormat& f) { return f.name == formatName; });
  if (format == fileFormats().end()) throw Error("no file format named " + std::string(formatName));
  std::vector<std::string> exts;
  for (const FormatExtension& e : format->extensions)
    if ((e.roles & kOutputs) != 0) exts.emplace_back(e.suffix);
  const std::string name = lower(path.filename().string());
  if (std::none_of(exts.begin(), exts.end(),
                   [&](const std::string& e) { return endsWith(name, e); }))
    throw ParameterError(refusal + ": the name must end in " + sentenceList(exts) + ".");
}

std::string extensionList(FormatRole role) {
  const std::vector<std::string_view> exts = extensionsOf(role);
  return sentenceList({exts.begin(), exts.end()});
}

std::string formatList(FormatRole role) {
  std::vector<std::string> items;
  for (const FileFormat& f : fileFormats()) {
    std::string exts;
    for (const FormatExtension& e : f.extensions)
      if (hasRole(e.roles, role)) exts += (exts.empty() ? "" : ", ") + std::string(e.suffix);
    if (!exts.empty()) items.push_back(std::string(f.name) + " (" + exts + ")");
  }
  return sentenceList(items);
}

std::string_view preferredExtension(FormatRole role) {
  const std::vector<std::string_view> exts = extensionsOf(role);
  return exts.empty() ? std::string_view() : exts.front();
}

std::string fileDialogFilter(FormatRoles roles, std::string_view title, bool eachFormat,
                             bool allFiles) {
  // Qt's patterns: "*.png *.jpg"; one entry per format after the group.
  const auto patterns = [&](const FileFormat& f) {
    std::string out;
    for (const FormatExtension& e : f.extensions)
      if ((e.roles & roles) != 0) out += (out.empty() ? "*" : " *") + std::string(e.suffix);
    return out;
  };
  std::string all;
  std::vector<std::string> entries;
  for (const FileFormat& f : fileFormats()) {
    const std::string p = patterns(f);
    if (p.empty()) continue;
    all += (all.empty() ? "" : " ") + p;
    entries.push_back(std::string(f.name) + " (" + p + ")");
  }
  std::string out = std::string(title) + " (" + all + ")";
  if (eachFormat)
    for (const std::string& e : entries) out += ";;" + e;
  if (allFiles) out += ";;All files (*)";
  return out;
}

std::string_view recordingMuxer(const std::string& path) {
  if (const FileFormat* f = findFormat(path, FormatRole::VideoOutput)) return f->videoMuxer;
  std::error_code ec;
  if (endsWith(path, "/") || fs::is_directory(path, ec)) return "";  // PNG frames
  throw ParameterError("Cannot record to '" + path + "': give a file ending in " +
                       extensionList(FormatRole::VideoOutput) +
                       ", or a directory ending in / for PNG frames.");
}

}  // namespace gvflab::app
