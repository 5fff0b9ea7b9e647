// TIFF through libtiff and DICOM through GDCM (io/tiff_file.hpp, io/dicom_file.hpp), on files
// written here by the libraries themselves: stacks as volumes, one page picked, float and
// signed samples, colour to luminance, DICOM files, multi-frame files and series folders
// (sorted along the normal, slope and intercept per file, geometry); refusals name the file.
#include <doctest/doctest.h>
#include <gdcmDataSet.h>
#include <gdcmFile.h>
#include <gdcmWriter.h>
#include <tiffio.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "gvflab/error.hpp"
#include "io/image_loader.hpp"
#include "io/tiff_file.hpp"
#include "io/volume_loader.hpp"
#include "test_skip.hpp"
#include "test_support.hpp"
#include "tiff_dicom_files.hpp"

using namespace gvflab;
using gvflab::test::scratchDir;
using namespace gvflab::test::files;
namespace fs = std::filesystem;

namespace {

template <typename F>
void checkRefused(F read, const std::string& name, const std::string& what) {
  try {
    read();
    FAIL("not refused: " << name);
  } catch (const InputError& e) {
    CHECK_MESSAGE(std::string(e.what()).find(name) != std::string::npos, e.what());
    CHECK_MESSAGE(std::string(e.what()).find(what) != std::string::npos, e.what());
  }
}

}  // namespace

TEST_CASE("a TIFF stack is a volume, one page an image, and --page picks a page") {
  const fs::path dir = scratchDir("tiff_stack");
  writeTiff(dir / "stack.tif", bytePages(3));
  writeTiff(dir / "one.tiff", bytePages(1));

  REQUIRE(app::isVolumeFile(dir / "stack.tif"));
  const FieldShape shape = app::inputShape(dir / "stack.tif");
  CHECK((shape.width == 4 && shape.height == 3 && shape.depth == 3));
  const Volume v = app::loadVolume(dir / "stack.tif");
  REQUIRE((v.width == 4 && v.height == 3 && v.depth == 3));
  for (int z = 0; z < 3; ++z)
    for (int x = 0; x < 4; ++x) CHECK(v.at(x, 2, z) == doctest::Approx((10 * z + x) / 255.0));

  CHECK(!app::isVolumeFile(dir / "one.tiff"));
  const Image2D one = app::loadImage(dir / "one.tiff");
  REQUIRE((one.width == 4 && one.height == 3));
  CHECK(one.at(3, 1) == doctest::Approx(3 / 255.0));

  const Image2D p2 = app::readTiffPage(dir / "stack.tif", 2);
  CHECK(p2.at(1, 0) == doctest::Approx(21 / 255.0));
  checkRefused([&] { app::readTiffPage(dir / "stack.tif", 3); }, "stack.tif", "has 3 pages");
  checkRefused([&] { app::loadImage(dir / "stack.tif"); }, "stack.tif", "stack of 3 pages");
}

TEST_CASE("TIFF float, signed and wide samples are rescaled from their own range") {
  const fs::path dir = scratchDir("tiff_float");
  writeTiff(dir / "f32.tif", {page(2, 2, 1, std::vector<float>{-2, 0, 2, 6}, SAMPLEFORMAT_IEEEFP)});
  writeTiff(dir / "f64.tif",
            {page(2, 2, 1, std::vector<double>{1e-3, 2e-3, 3e-3, 5e-3}, SAMPLEFORMAT_IEEEFP)});
  writeTiff(dir / "s16.tif",
            {page(2, 2, 1, std::vector<std::int16_t>{-1000, 0, 1000, 3000}, SAMPLEFORMAT_INT)});
  writeTiff(dir / "u32.tif",
            {page(2, 2, 1, std::vector<std::uint32_t>{0, 1u << 30, 2u << 30, 4000000000u},
                  SAMPLEFORMAT_UINT)});
  const Image2D f = app::loadImage(dir / "f32.tif");
  CHECK(f.pixels == std::vector<float>{0.0f, 0.25f, 0.5f, 1.0f});
  const Image2D d = app::loadImage(dir / "f64.tif");
  CHECK(d.at(1, 0) == doctest::Approx(0.25));
  CHECK(d.at(1, 1) == doctest::Approx(1.0));
  CHECK(app::loadImage(dir / "s16.tif").at(0, 1) == doctest::Approx(0.5));
  CHECK(app::loadImage(dir / "u32.tif").at(1, 0) == doctest::Approx((1u << 30) / 4e9));

  // 16-bit unsigned keeps its type's range (as 16-bit PNGs do); RGB becomes luminance.
  writeTiff(dir / "rgb16.tif", {page(2, 1, 3, std::vector<std::uint16_t>{65535, 0, 0, 0, 0, 65535},
                                     SAMPLEFORMAT_UINT)});
  const Image2D rgb = app::loadImage(dir / "rgb16.tif");
  CHECK(rgb.at(0, 0) == doctest::Approx(0.299));
  CHECK(rgb.at(1, 0) == doctest::Approx(0.114));

  // A float stack is rescaled as one volume.
  writeTiff(dir / "fstack.tif", {page(1, 1, 1, std::vector<float>{1}, SAMPLEFORMAT_IEEEFP),
                                 page(1, 1, 1, std::vector<float>{3}, SAMPLEFORMAT_IEEEFP),
                                 page(1, 1, 1, std::vector<float>{2}, SAMPLEFORMAT_IEEEFP)});
  const Volume fv = app::loadVolume(dir / "fstack.tif");
  CHECK(fv.voxels == std::vector<float>{0.0f, 1.0f, 0.5f});
}

TEST_CASE("TIFF refusals name the file and the reason") {
  const fs::path dir = scratchDir("tiff_refusals");
  writeTiff(dir / "nan.tif",
            {page(2, 1, 1, std::vector<float>{0, std::numeric_limits<float>::quiet_NaN()},
                  SAMPLEFORMAT_IEEEFP)});
  checkRefused([&] { app::loadImage(dir / "nan.tif"); }, "nan.tif", "NaN");
  std::vector<TiffPage> mixed = bytePages(2);
  mixed.push_back(page(2, 2, 1, std::vector<std::uint8_t>{1, 2, 3, 4}, SAMPLEFORMAT_UINT));
  writeTiff(dir / "mixed.tif", mixed);
  checkRefused([&] { app::loadVolume(dir / "mixed.tif"); }, "mixed.tif", "page 2 is 2x2");
  CHECK(app::readTiffPage(dir / "mixed.tif", 2).width == 2);  // one page still reads
  std::ofstream(dir / "text.tif") << "not a tiff at all";
  checkRefused([&] { app::loadImage(dir / "text.tif"); }, "text.tif", "not a TIFF file");
}

// ------------------------------------------------------------------------------------ DICOM

namespace {

DicomSlice constantSlice(std::int16_t value, double z) {
  DicomSlice s;
  s.pixels.assign(6, value);
  s.position = "-10\\20\\" + std::to_string(z);
  return s;
}

}  // namespace

TEST_CASE("a DICOM file is an image with its slope, intercept and geometry") {
  const fs::path dir = scratchDir("dicom_file");
  DicomSlice s;
  s.pixels = {0, 10, 20, 30, 40, 60};
  s.slope = -2;
  s.intercept = 100;
  s.position = "-10\\20\\5";
  writeDicom(dir / "ct.dcm", s);
  CHECK(!app::isVolumeFile(dir / "ct.dcm"));
  const Image2D img = app::loadImage(dir / "ct.dcm");
  REQUIRE((img.width == 3 && img.height == 2));
  // Values 100, 80, ..., -20: a negative slope turns the ramp around.
  CHECK(img.at(0, 0) == doctest::Approx(1.0));
  CHECK(img.at(2, 1) == doctest::Approx(0.0));
  CHECK(img.at(1, 0) == doctest::Approx(100.0 / 120.0));
  CHECK(img.geometry.known);
  CHECK(img.geometry.spacing[0] == doctest::Approx(0.8));  // PixelSpacing's column spacing
  CHECK(img.geometry.spacing[1] == doctest::Approx(0.5));
  CHECK(img.geometry.origin[0] == doctest::Approx(-10));
  CHECK(img.geometry.origin[2] == doctest::Approx(5));

  DicomSlice multi = s;
  multi.frames = 2;
  multi.pixels = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  multi.slope = 1;
  multi.intercept = 0;
  writeDicom(dir / "multi.dcm", multi);
  REQUIRE(app::isVolumeFile(dir / "multi.dcm"));
  const Volume v = app::loadVolume(dir / "multi.dcm");
  REQUIRE((v.width == 3 && v.height == 2 && v.depth == 2));
  CHECK(v.at(2, 1, 1) == doctest::Approx(1.0));
  CHECK(v.at(0, 0, 1) == doctest::Approx(6.0 / 11.0));
}

TEST_CASE("a folder is a DICOM series sorted along the slice normal") {
  const fs::path dir = scratchDir("dicom_series");
  const fs::path series = dir / "series";
  fs::create_directories(series);
  // Names in another order than the positions; the last slice's intercept shifts it.
  writeDicom(series / "a.dcm", constantSlice(2, 5.0), 3);
  writeDicom(series / "b.dcm", constantSlice(1, 2.5), 1);
  DicomSlice c = constantSlice(0, 0.0);
  c.intercept = -1;  // 0 * 1 - 1: the lowest value
  writeDicom(series / "c.dcm", c, 2);
  std::ofstream(series / ".hidden") << "skipped";

  REQUIRE(app::isVolumeFile(series));
  const FieldShape shape = app::inputShape(series);
  CHECK((shape.width == 3 && shape.height == 2 && shape.depth == 3));
  const Volume v = app::loadVolume(series);
  REQUIRE((v.width == 3 && v.height == 2 && v.depth == 3));
  CHECK(v.at(0, 0, 0) == doctest::Approx(0.0));        // c: -1
  CHECK(v.at(0, 0, 1) == doctest::Approx(2.0 / 3.0));  // b: 1
  CHECK(v.at(0, 0, 2) == doctest::Approx(1.0));        // a: 2
  CHECK(v.geometry.known);
  CHECK(v.geometry.spacing[2] == doctest::Approx(2.5));
  CHECK(v.geometry.origin[2] == doctest::Approx(0.0));
  CHECK(v.geometry.origin[1] == doctest::Approx(20.0));
  CHECK(v.geometry.direction[8] == doctest::Approx(1.0));

  // Positions along a flipped normal (rows along -x): sorted the other way round.
  const fs::path flipped = dir / "flipped";
  fs::create_directories(flipped);
  for (int i = 0; i < 3; ++i) {
    DicomSlice s = constantSlice(std::int16_t(i), 2.0 * i);
    s.orientation = "-1\\0\\0\\0\\1\\0";  // normal -z
    writeDicom(flipped / ("s" + std::to_string(i) + ".dcm"), s, i + 1);
  }
  const Volume f = app::loadVolume(flipped);
  CHECK(f.at(0, 0, 0) == doctest::Approx(1.0));  // z = 4 is lowest along -z
  CHECK(f.geometry.origin[2] == doctest::Approx(4.0));
  CHECK(f.geometry.direction[8] == doctest::Approx(-1.0));
}

TEST_CASE("DICOM refusals name the file and the reason") {
  const fs::path dir = scratchDir("dicom_refusals");
  std::ofstream(dir / "text.dcm") << "not DICOM";
  checkRefused([&] { app::loadImage(dir / "text.dcm"); }, "text.dcm", "not a DICOM file");

  const fs::path sizes = dir / "sizes";
  fs::create_directories(sizes);
  writeDicom(sizes / "a.dcm", constantSlice(0, 0.0), 1);
  DicomSlice wide = constantSlice(0, 1.0);
  wide.width = 2;
  wide.pixels.assign(4, 0);
  writeDicom(sizes / "b.dcm", wide, 2);
  checkRefused([&] { app::loadVolume(sizes); }, "b.dcm", "inconsistent");

  const fs::path gap = dir / "gap";
  fs::create_directories(gap);
  for (double z : {0.0, 1.0, 3.0})
    writeDicom(gap / ("s" + std::to_string(int(z)) + ".dcm"), constantSlice(0, z), int(z) + 1);
  checkRefused([&] { app::loadVolume(gap); }, "gap", "unevenly spaced");

  const fs::path mixed = dir / "mixed";
  fs::create_directories(mixed);
  writeDicom(mixed / "a.dcm", constantSlice(0, 0.0), 1);
  std::ofstream(mixed / "notes.txt") << "a note";
  checkRefused([&] { app::loadVolume(mixed); }, "notes.txt", "not a DICOM file");

  const fs::path empty = dir / "empty";
  fs::create_directories(empty);
  checkRefused([&] { app::inputShape(empty); }, "empty", "no files");
}

namespace {
const fs::path kPydicomCt = "/usr/lib/python3/dist-packages/pydicom/data/test_files/CT_small.dcm";
const test::SkipWhen noPydicom{"pydicom-data", "python3-pydicom (scripts/dev.sh) is not installed",
                               [] { return !fs::exists(kPydicomCt); }};
}  // namespace

TEST_CASE("pydicom's CT_small.dcm, also a TIFF by its first bytes, is read as DICOM" *
          doctest::test_suite("pydicom-data")) {
  const fs::path ct = kPydicomCt;
  const Image2D img = app::loadImage(ct);
  CHECK((img.width == 128 && img.height == 128));
  CHECK(img.geometry.known);
}
