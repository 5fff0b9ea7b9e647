// The format registry (io/file_formats.hpp): every registered extension dispatches to its
// format, in any case, for each of its roles; files of each are read or written through it;
// an unknown extension is refused with the file's name and the registry's list.
#include <doctest/doctest.h>

#include <QImage>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/surface_mesh.hpp"
#include "io/contour_formats.hpp"
#include "io/field_file.hpp"
#include "io/file_formats.hpp"
#include "io/image_loader.hpp"
#include "io/mask_file.hpp"
#include "io/nrrd_file.hpp"
#include "io/surface_file.hpp"
#include "io/volume_loader.hpp"
#include "qt_app.hpp"
#include "test_support.hpp"
#include "tiff_dicom_files.hpp"

using namespace gvflab;
using app::FileFormat;
using app::FormatRole;
namespace fs = std::filesystem;

namespace {

constexpr FormatRole kRoles[] = {
    FormatRole::ImageInput,     FormatRole::VolumeInput,   FormatRole::FieldOutput,
    FormatRole::ContoursOutput, FormatRole::PictureOutput, FormatRole::VideoOutput,
    FormatRole::Session,        FormatRole::MaskOutput,    FormatRole::SurfaceOutput};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

void writeBytes(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

// Every (format, extension) with the role.
std::vector<std::pair<const FileFormat*, std::string>> extensionsWith(FormatRole role) {
  std::vector<std::pair<const FileFormat*, std::string>> out;
  for (const FileFormat& f : app::fileFormats())
    for (const auto& e : f.extensions)
      if (app::hasRole(e.roles, role)) out.emplace_back(&f, std::string(e.suffix));
  return out;
}

}  // namespace

TEST_CASE("each extension is registered once per role and resolves to its format") {
  for (FormatRole role : kRoles) {
    std::set<std::string> seen;
    for (const auto& [format, ext] : extensionsWith(role)) {
      CAPTURE(ext);
      CHECK(seen.insert(ext).second);  // no two formats claim one name for one role
      CHECK(app::findFormat("dir.x/scan" + ext, role) == format);
      CHECK(app::findFormat("SCAN" + upper(ext), role) == format);
      CHECK(app::findFormat("scan" + ext + ".bak", role) == nullptr);
    }
  }
  // Each role's entry points are there.
  for (const FileFormat& f : app::fileFormats()) {
    CAPTURE(f.name);
    const auto roles = f.roles();
    if (app::hasRole(roles, FormatRole::ImageInput) && f.signatures.empty())
      CHECK((f.readImage && f.headerShape));  // rasters are read by content
    if (app::hasRole(roles, FormatRole::VolumeInput)) CHECK((f.readVolume && f.headerShape));
    if (f.readImage && f.readVolume) CHECK((f.dimensions != nullptr));  // its header decides
    if (app::hasRole(roles, FormatRole::FieldOutput)) CHECK((f.writeField2D && f.writeField3D));
    if (app::hasRole(roles, FormatRole::ContoursOutput)) CHECK((f.writeContours != nullptr));
    if (app::hasRole(roles, FormatRole::MaskOutput)) CHECK((f.writeMask != nullptr));
    if (app::hasRole(roles, FormatRole::SurfaceOutput)) CHECK((f.writeSurface != nullptr));
    if (app::hasRole(roles, FormatRole::VideoOutput)) CHECK(!f.videoMuxer.empty());
  }
  // The longest suffix wins; a name is matched on its file name, not its folder.
  CHECK(app::findFormat("a.nii.gz", FormatRole::VolumeInput)->name == "NIfTI");
  CHECK(app::findFormat("a.geojson", FormatRole::ContoursOutput)->name == "GeoJSON");
  CHECK(app::findFormat("a.png/", FormatRole::ImageInput) == nullptr);
  CHECK(app::findFormat("a.json", FormatRole::Session)->name == "gvflab session");
  CHECK(app::findFormat("a.json", FormatRole::ContoursOutput)->name == "gvflab contours");
  CHECK(app::findFormat("a.mhd", FormatRole::FieldOutput) == nullptr);  // a header: read only
}

TEST_CASE("every image and volume extension loads a small file through its format") {
  test::qtApp();
  const auto dir = test::scratchDir("file_formats_inputs");
  QImage picture(6, 4, QImage::Format_Grayscale8);
  picture.fill(200);
  for (const auto& [format, ext] : extensionsWith(FormatRole::ImageInput)) {
    if (format->signatures.empty()) continue;  // the readers of their own, below
    CAPTURE(ext);
    const fs::path path = dir / ("p" + ext);
    // PNM: Qt writes P5 under any of the family's names.
    const std::string qtName = format->qtFormat.empty() ? "pgm" : std::string(format->qtFormat);
    REQUIRE(picture.save(QString::fromStdString(path.string()), qtName.c_str()));
    const FieldShape shape = app::inputShape(path);
    CHECK((shape.width == 6 && shape.height == 4 && shape.depth == 1));
    CHECK(!app::isVolumeFile(path));
    CHECK(app::loadImage(path).width == 6);
  }
  // MetaImage (inline and with a data file) and NRRD (attached and detached), 2D and 3D.
  std::string image, volume;  // ramps: a flat picture has no edges to rescale
  for (int i = 0; i < 12; ++i) image += char(i * 20);
  for (int i = 0; i < 24; ++i) volume += char(i * 10);
  const std::string meta = "ObjectType = Image\nElementType = MET_UCHAR\n";
  writeBytes(dir / "m.mha", meta + "NDims = 2\nDimSize = 4 3\nElementDataFile = LOCAL\n" + image);
  writeBytes(dir / "v.mha",
             meta + "NDims = 3\nDimSize = 4 3 2\nElementDataFile = LOCAL\n" + volume);
  writeBytes(dir / "m.raw", image);
  writeBytes(dir / "m.mhd", meta + "NDims = 2\nDimSize = 4 3\nElementDataFile = m.raw\n");
  writeBytes(dir / "v.raw", volume);
  writeBytes(dir / "v.mhd", meta + "NDims = 3\nDimSize = 4 3 2\nElementDataFile = v.raw\n");
  Image2D ramp(4, 3);
  for (int i = 0; i < 12; ++i) ramp.pixels[i] = float(i);
  app::writeNrrd(dir / "m.nrrd", ramp);
  Volume cube(4, 3, 2);
  for (std::size_t i = 0; i < cube.voxels.size(); ++i) cube.voxels[i] = float(i);
  app::writeNrrd(dir / "v.nrrd", cube);
  const std::string nhdr = "NRRD0004\ntype: uchar\nencoding: raw\n";
  writeBytes(dir / "m.nhdr", nhdr + "dimension: 2\nsizes: 4 3\ndata file: m.raw\n\n");
  writeBytes(dir / "v.nhdr", nhdr + "dimension: 3\nsizes: 4 3 2\ndata file: v.raw\n\n");
  for (const char* ext : {".tif", ".tiff"})
    test::files::writeTiff(dir / ("v" + std::string(ext)), test::files::bytePages(2));
  for (const char* ext : {".dcm", ".dicom"}) {
    test::files::writeDicomRamp(dir / ("m" + std::string(ext)), 1);
    test::files::writeDicomRamp(dir / ("v" + std::string(ext)), 2);
  }
  // Fixtures above: m<ext> for each image format with a reader of its own, v<ext> for each
  // that is also a volume format (a new format adds its small files there).
  for (const auto& [format, ext] : extensionsWith(FormatRole::ImageInput)) {
    if (!format->signatures.empty()) continue;
    CAPTURE(ext);
    CHECK(app::inputShape(dir / ("m" + ext)).depth == 1);
    CHECK(!app::isVolumeFile(dir / ("m" + ext)));
    CHECK(app::loadImage(dir / ("m" + ext)).height == 3);
  }
  for (const auto& [format, ext] : extensionsWith(FormatRole::VolumeInput)) {
    CAPTURE(ext);
    if (format->readImage) {  // the header says image or volume
      CHECK(app::inputShape(dir / ("v" + ext)).depth == 2);
      CHECK(app::isVolumeFile(dir / ("v" + ext)));
      CHECK(app::loadVolume(dir / ("v" + ext)).depth == 2);
    } else {
      // Volumes by name alone, before any file is opened (NIfTI: its single, paired and
      // gzipped files are loaded in test_volume_loader.cpp).
      CHECK(app::isVolumeFile(dir / ("missing" + ext)));
      CHECK_THROWS_WITH_AS(app::loadVolume(dir / ("missing" + ext)),
                           doctest::Contains(("missing" + ext).c_str()), InputError);
    }
  }
}

TEST_CASE("every field and contours extension writes through its format") {
  const auto dir = test::scratchDir("file_formats_outputs");
  Field2D f2(5, 4);
  Field3D f3(3, 3, 2);
  for (const auto& [format, ext] : extensionsWith(FormatRole::FieldOutput)) {
    CAPTURE(ext);
    app::checkFieldFileName(dir / ("f" + ext));
    app::writeField(dir / ("f2" + ext), f2);
    app::writeField(dir / ("f3" + ext), f3);
    CHECK(fs::file_size(dir / ("f2" + ext)) > 0);
    CHECK(fs::file_size(dir / ("f3" + ext)) > 0);
  }
  CHECK(readMetaImageField(dir / "f2.mha").width == 5);
  CHECK(app::readNrrdField3D(dir / "f3.nrrd").depth == 2);

  app::ContourRecord triangle;
  triangle.points = {{1, 1}, {5, 1}, {5, 5}};
  const std::vector<app::ContourRecord> contours = {triangle};
  const std::map<std::string, std::string> starts = {
      {".json", "{"},
      {".geojson", "{\"type\":\"FeatureCollection\""},
      {".csv", "contour,"},
      {".svg", "<?xml"}};
  CHECK(extensionsWith(FormatRole::ContoursOutput).size() == starts.size());
  for (const auto& [format, ext] : extensionsWith(FormatRole::ContoursOutput)) {
    CAPTURE(ext);
    CHECK(&app::contourFormatOf("c" + upper(ext)) == format);
    app::writeContours(dir / ("c" + ext), contours, {8, 8});
    CHECK(test::readFile(dir / ("c" + ext)).rfind(starts.at(ext), 0) == 0);
  }

  const app::LabelImage mask = app::labelContours(8, 8, {triangle.points}, {});
  for (const auto& [format, ext] : extensionsWith(FormatRole::MaskOutput)) {
    CAPTURE(ext);
    app::checkMaskFileName("m" + upper(ext));
    app::writeMask(dir / ("m" + ext), mask);
    CHECK(fs::file_size(dir / ("m" + ext)) > 0);
  }

  // A tetrahedron, outward faces: each surface format writes it (meshio reads them back in
  // tests/cli/surface_outputs.py).
  const SurfaceMesh tetra{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
                          {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}};
  CHECK(extensionsWith(FormatRole::SurfaceOutput).size() == 3);
  for (const auto& [format, ext] : extensionsWith(FormatRole::SurfaceOutput)) {
    CAPTURE(ext);
    app::checkSurfaceFileName("s" + upper(ext));
    CHECK(app::surfaceFileName("out/s" + upper(ext), 12) == "out/s-12" + upper(ext));
    app::writeSurface(dir / ("s" + ext), tetra);
    CHECK(fs::file_size(dir / ("s" + ext)) > 0);
  }
}

TEST_CASE("an unknown extension is refused with the file's name and the registry's list") {
  const auto refused = [](auto call, const std::string& name, const std::string& list) {
    try {
      call();
      FAIL("not refused: " << name);
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find(name) != std::string::npos);
      CHECK(std::string(e.what()).find(list) != std::string::npos);
    }
  };
  refused([] { app::checkFieldFileName("out/f.txt"); }, "f.txt", ".mha, .nrrd, .nii or .nii.gz");
  refused([] { app::contourFormatOf("c.txt"); }, "c.txt", ".json, .geojson, .csv or .svg");
  refused([] { app::checkMaskFileName("m.txt"); }, "m.txt", ".png, .nrrd, .nii or .nii.gz");
  refused([] { app::recordingMuxer("x.avi"); }, "x.avi", ".mp4 or .webm");
  refused([] { app::checkSurfaceFileName("s.vtk"); }, "s.vtk", ".ply, .obj or .stl");
  refused([] { app::loadVolume("v.xyz"); }, "v.xyz", app::extensionList(FormatRole::VolumeInput));
  refused([] { app::requireFormat("s.jpg", FormatRole::PictureOutput, "--screenshot 's.jpg'"); },
          "--screenshot 's.jpg'", "must end in .png.");
  // An image of no known name nor content: the formats read, from the table.
  const auto dir = test::scratchDir("file_formats_unknown");
  writeBytes(dir / "README.md", "# not an image\n");
  refused([&] { app::loadImage(dir / "README.md"); }, "README.md",
          "PNG (.png), JPEG (.jpg, .jpeg)");
  refused([&] { app::loadImage(dir / "README.md"); }, "README.md", "NIfTI (.nii, .nii.gz");
  // A writer's own check: only its single-file extensions.
  CHECK_THROWS_WITH_AS(app::writeNrrd("x.nhdr", Image2D(2, 2)),
                       doctest::Contains("must end in .nrrd."), ParameterError);
}

TEST_CASE("lists for --help and file dialogs come from the table") {
  CHECK(app::extensionList(FormatRole::FieldOutput) == ".mha, .nrrd, .nii or .nii.gz");
  CHECK(app::formatList(FormatRole::FieldOutput) ==
        "MetaImage (.mha), NRRD (.nrrd) or NIfTI (.nii, .nii.gz)");
  CHECK(app::formatList(FormatRole::VideoOutput) == "MP4 (H.264) (.mp4) or WebM (VP9) (.webm)");
  CHECK(app::preferredExtension(FormatRole::PictureOutput) == ".png");
  CHECK(std::string(app::contourFileFilter()) ==
        "Contours (*.json *.geojson *.csv *.svg);;gvflab contours (*.json);;"
        "GeoJSON (*.geojson);;CSV (*.csv);;SVG (*.svg)");
  const std::string images = app::imageFileFilter();
  CHECK(images.rfind("Images and volumes (*.png *.jpg *.jpeg *.bmp *.pgm ", 0) == 0);
  CHECK(images.find(" *.mha *.mhd *.nrrd *.nhdr *.nii *.nii.gz *.hdr ") != std::string::npos);
  CHECK(images.find(";;All files (*)") == images.size() - 15);
}
