#include "io/file_formats.hpp"

#include <algorithm>
#include <system_error>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/quoted.hpp"
#include "io/contour_formats.hpp"
#include "io/contours_json.hpp"
#include "io/dicom_file.hpp"
#include "io/file_names.hpp"
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
constexpr FormatRoles kVolume = static_cast<FormatRoles>(R::VolumeInput);
constexpr FormatRoles kVolumeFieldOrMask = R::VolumeInput | R::FieldOutput | R::MaskOutput;

// A contour format's writer: the text of the contours, written atomically.
template <std::string (*text)(const std::vector<ContourRecord>&, const ContourCanvas&)>
void writeContourText(const fs::path& path, const std::vector<ContourRecord>& contours,
                      const ContourCanvas& canvas) {
  writeFileAtomically(path, text(contours, canvas));
}

std::vector<FileFormat> makeFormats() {
  // Raster images are read by content in image_loader.cpp (Qt; the engine for PGM/PPM).
  // PNG is also what every picture output writes (io/png_writer.hpp, the figures).
  std::vector<FileFormat> t = {
      {.name = "PNG",
       .extensions = {{".png", R::ImageInput | R::PictureOutput | R::MaskOutput}},
       .signatures = {"\x89PNG\r\n\x1a\n"sv},
       .qtFormat = "png",
       .writeMask = writeMaskPng},
      {.name = "JPEG",
       .extensions = {{".jpg", kImage}, {".jpeg", kImage}},
       .signatures = {"\xFF\xD8\xFF"sv},
       .qtFormat = "jpeg"},
      {.name = "BMP", .extensions = {{".bmp", kImage}}, .signatures = {"BM"sv}, .qtFormat = "bmp"},
      // P2/P3/P5/P6 go to the engine's reader, P1/P4 (PBM) to Qt's.
      {.name = "PNM",
       .extensions = {{".pgm", kImage}, {".ppm", kImage}, {".pnm", kImage}, {".pbm", kImage}},
       .signatures = {"P1"sv, "P2"sv, "P3"sv, "P4"sv, "P5"sv, "P6"sv}},
      // TIFF through libtiff (io/tiff_file.hpp): one page is an image, a stack of pages a volume.
      {.name = "TIFF",
       .extensions = {{".tif", kImageOrVolume}, {".tiff", kImageOrVolume}},
       .signatures = {"II*\0"sv, "MM\0*"sv, "II+\0"sv, "MM\0+"sv},
       .qtFormat = "tiff",  // Qt writes the tests' TIFF pictures; libtiff reads them
       .headerShape = tiffShape,
       .dimensions = tiffDimensions,
       .readImage = readTiffImage,
       .readVolume = readTiffVolume},
      {.name = "GIF", .signatures = {"GIF8"sv}, .qtFormat = "gif"},  // by content, any name
      {.name = "MetaImage",
       .extensions = {{".mha", kImageOrVolume | R::FieldOutput}, {".mhd", kImageOrVolume}},
       .headerShape =
           [](const fs::path& p) {
             const std::vector<int> d = metaImageSize(p);
             return FieldShape{d[0], d[1], d.size() > 2 ? d[2] : 1};
           },
       .dimensions = metaImageDimensions,
       .readImage = readMetaImage,
       .readVolume = readMetaImageVolume,
       .writeField2D = [](const fs::path& p, const Field2D& f) { writeMetaImageField(p, f); },
       .writeField3D = [](const fs::path& p, const Field3D& f) { writeMetaImageField3D(p, f); }},
      // .nhdr is a detached header: written fields are single files.
      {.name = "NRRD",
       .extensions = {{".nrrd", kImageOrVolume | R::FieldOutput | R::MaskOutput},
                      {".nhdr", kImageOrVolume}},
       .headerShape = nrrdShape,
       .dimensions = nrrdAxisCount,
       .readImage = readNrrdImage,
       .readVolume = readNrrdVolume,
       .writeField2D = writeNrrd,  // the overloads for fields
       .writeField3D = writeNrrd,
       .writeMask = writeMaskNrrd},
      // ANALYZE-style .hdr/.img pairs are read; written fields are single files.
      {.name = "NIfTI",
       .extensions = {{".nii", kVolumeFieldOrMask},
                      {".nii.gz", kVolumeFieldOrMask},
                      {".hdr", kVolume},
                      {".hdr.gz", kVolume},
                      {".img", kVolume},
                      {".img.gz", kVolume}},
       .headerShape = niftiShape,
       .readVolume = readNiftiVolume,  // no readImage: always a volume
       .writeField2D = writeNiftiField,
       .writeField3D = writeNiftiField,
       .writeMask = writeMaskNifti},
      // io/dicom_file.hpp; a folder given as input is a series (volume_loader)
      {.name = "DICOM",
       .extensions = {{".dcm", kImageOrVolume}, {".dicom", kImageOrVolume}},
       .headerShape = dicomShape,
       .dimensions = dicomDimensions,
       .readImage = readDicomImage,
       .readVolume = readDicomVolume},
  };
  for (const auto& [name, ext, write] :
       {std::tuple{"gvflab contours"sv, ".json"sv, &writeContourText<contoursJson>},
        {"GeoJSON"sv, ".geojson"sv, &writeContourText<contoursGeoJson>},
        {"CSV"sv, ".csv"sv, &writeContourText<contoursCsv>},
        {"SVG"sv, ".svg"sv, &writeContourText<contoursSvg>}}) {
    t.push_back({.name = name,
                 .extensions = {{ext, static_cast<FormatRoles>(R::ContoursOutput)}},
                 .writeContours = write});
  }

  // Surface meshes (--save-surfaces), written with assimp.
  for (const auto& [name, ext, write] : {std::tuple{"PLY"sv, ".ply"sv, &writeSurfacePly},
                                         {"Wavefront OBJ"sv, ".obj"sv, &writeSurfaceObj},
                                         {"STL"sv, ".stl"sv, &writeSurfaceStl}}) {
    t.push_back({.name = name,
                 .extensions = {{ext, static_cast<FormatRoles>(R::SurfaceOutput)}},
                 .writeSurface = write});
  }

  for (const auto& [name, ext, muxer] :
       {std::tuple{"MP4 (H.264)"sv, ".mp4"sv, "mp4"sv}, {"WebM (VP9)"sv, ".webm"sv, "webm"sv}}) {
    t.push_back({.name = name,
                 .extensions = {{ext, static_cast<FormatRoles>(R::VideoOutput)}},
                 .videoMuxer = muxer});
  }

  // Read and written by io/session_file.hpp.
  t.push_back(
      {.name = "gvflab session", .extensions = {{".json", static_cast<FormatRoles>(R::Session)}}});
  return t;
}

// The extensions of a role, in the table's order.
std::vector<std::string_view> extensionsOf(FormatRole role) {
  std::vector<std::string_view> out;
  for (const FileFormat& f : fileFormats())
    for (const FormatExtension& e : f.extensions)
      if (hasRole(e.roles, role)) out.push_back(e.suffix);
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
  const std::string name = lowerCase(path.filename().string());
  const FileFormat* found = nullptr;
  std::size_t longest = 0;
  for (const FileFormat& f : fileFormats())
    for (const FormatExtension& e : f.extensions)
      if ((e.roles & roles) != 0 && e.suffix.size() > longest &&
          std::string_view(name).ends_with(e.suffix)) {
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
  const std::string name = lowerCase(path.filename().string());
  if (std::none_of(exts.begin(), exts.end(),
                   [&](const std::string& e) { return name.ends_with(e); }))
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
  if (path.ends_with('/') || fs::is_directory(path, ec)) return "";  // PNG frames
  throw ParameterError("Cannot record to " + gvflab::quoted(path) + ": give a file ending in " +
                       extensionList(FormatRole::VideoOutput) +
                       ", or a directory ending in / for PNG frames.");
}

}  // namespace gvflab::app
