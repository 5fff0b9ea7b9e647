#pragma once
// Every file format gvflab reads or writes, in one table (file_formats.cpp): its name, its
// extensions (each written there once, with what a file of that name can be: an input image,
// a field to save, ...) and the functions that read or write it. Whatever picks a format by a
// file's name asks this table: the loaders, the writers, the command line's checks, the file
// dialogs, the recorder and --help. Adding a format is one entry there (docs/ARCHITECTURE.md).
// Names match by their end, in any case ("scan.NII.GZ" is NIfTI).
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gvflab/field_storage.hpp"
#include "gvflab/image.hpp"

namespace gvflab {
struct SurfaceMesh;
}

namespace gvflab::app {

struct ContourRecord;
struct ContourCanvas;
struct LabelImage;

// What a file of a given extension can be. Bit flags: an extension may have several roles
// (.nrrd reads images and volumes and writes fields).
enum class FormatRole : std::uint32_t {
  ImageInput = 1u << 0,      // a 2D image to run on (MetaImage and NRRD: when its header is 2D)
  VolumeInput = 1u << 1,     // a 3D volume to run on (NIfTI always; MetaImage, NRRD by header)
  FieldOutput = 1u << 2,     // --save-field
  ContoursOutput = 1u << 3,  // --save-contours, the viewer's Save contours
  PictureOutput = 1u << 4,   // --save-magnitude, --capture-map, --screenshot, --composite
  VideoOutput = 1u << 5,     // --record OUT, the viewer's recorder
  Session = 1u << 6,         // a saved session (--session, the viewer's Open/Save session)
  MaskOutput = 1u << 7,      // --save-mask: a label image (io/mask_file.hpp)
  SurfaceOutput = 1u << 8,   // --save-surfaces: a triangle mesh (io/surface_file.hpp)
};
using FormatRoles = std::uint32_t;
constexpr FormatRoles operator|(FormatRole a, FormatRole b) {
  return static_cast<FormatRoles>(a) | static_cast<FormatRoles>(b);
}
constexpr FormatRoles operator|(FormatRoles a, FormatRole b) {
  return a | static_cast<FormatRoles>(b);
}
constexpr bool hasRole(FormatRoles roles, FormatRole role) {
  return (roles & static_cast<FormatRoles>(role)) != 0;
}

struct FormatExtension {
  std::string_view suffix;  // lower case, with its dot: ".nii.gz"
  FormatRoles roles;
};

struct FileFormat {
  std::string_view name{};                    // "NIfTI": in messages, dialogs and --help
  std::vector<FormatExtension> extensions{};  // the first of a role is the one new names get

  // Raster images (Qt's readers, and the engine's for PGM/PPM) are recognised by their first
  // bytes: a file must start as its extension promises; an unknown extension is read by content.
  std::vector<std::string_view> signatures{};
  std::string_view qtFormat{};  // Qt's reader to use ("": Qt decides by content)

  // Readers; nullptr where the format has no such role. Raster images have none: image_loader
  // reads them by content. A format with readVolume but no readImage is always a volume.
  FieldShape (*headerShape)(const std::filesystem::path&) = nullptr;  // no data read
  int (*dimensions)(const std::filesystem::path&) = nullptr;          // 2 or 3, from the header
  Image2D (*readImage)(const std::filesystem::path&) = nullptr;
  Volume (*readVolume)(const std::filesystem::path&) = nullptr;

  // Writers; each writes atomically and throws InputError naming the file when it cannot.
  void (*writeField2D)(const std::filesystem::path&, const Field2D&) = nullptr;
  void (*writeField3D)(const std::filesystem::path&, const Field3D&) = nullptr;
  void (*writeContours)(const std::filesystem::path&, const std::vector<ContourRecord>&,
                        const ContourCanvas&) = nullptr;
  void (*writeMask)(const std::filesystem::path&, const LabelImage&) = nullptr;  // --save-mask
  void (*writeSurface)(const std::filesystem::path&, const SurfaceMesh&,
                       const std::string& note) = nullptr;
  std::string_view videoMuxer{};  // video: FFmpeg's muxer, which app/record encodes to

  FormatRoles roles() const;  // of all its extensions
};

// The table, in the order lists and dialogs show.
const std::vector<FileFormat>& fileFormats();

// The format whose extension, with one of roles, ends path's file name (the longest such
// suffix), or nullptr.
const FileFormat* findFormat(const std::filesystem::path& path, FormatRoles roles);
inline const FileFormat* findFormat(const std::filesystem::path& path, FormatRole role) {
  return findFormat(path, static_cast<FormatRoles>(role));
}

// findFormat, or ParameterError "<refusal>: the name must end in .a, .b or .c." (refusal
// names the file, e.g. "Cannot save the field to 'f.txt'").
const FileFormat& requireFormat(const std::filesystem::path& path, FormatRole role,
                                const std::string& refusal);

// For a format's own writer: path must end in one of the extensions the format named
// formatName writes (any output role), else ParameterError "<refusal>: the name must end in
// .nii or .nii.gz.".
void checkOutputName(const std::filesystem::path& path, std::string_view formatName,
                     const std::string& refusal);

// The extensions of a role, as a sentence says them: ".mha, .nrrd, .nii or .nii.gz".
std::string extensionList(FormatRole role);

// The formats of a role with their extensions, for --help and messages:
// "MetaImage (.mha), NRRD (.nrrd) or NIfTI (.nii, .nii.gz)".
std::string formatList(FormatRole role);

// The first extension of a role (".png" for PictureOutput), for names a dialog completes.
std::string_view preferredExtension(FormatRole role);

// A Qt file-dialog filter: "title (*.a *.b)", then with eachFormat one entry per format
// ("GeoJSON (*.geojson)"), then with allFiles "All files (*)"; entries separated by ";;".
std::string fileDialogFilter(FormatRoles roles, std::string_view title, bool eachFormat = false,
                             bool allFiles = false);

// --record OUT: the FFmpeg muxer of OUT's video extension, or "" for PNG frames in a folder
// (OUT ends in / or is an existing folder). Throws ParameterError naming OUT and the choices.
std::string_view recordingMuxer(const std::string& path);

}  // namespace gvflab::app
