// NRRD (against teem's own reader and writer) and contour files (GeoJSON, CSV, SVG, gvflab
// JSON): round trips, and corrupt files refused.
#include <doctest/doctest.h>
#include <teem/nrrd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gvflab/error.hpp"
#include "io/contour_formats.hpp"
#include "io/image_loader.hpp"
#include "io/nrrd_file.hpp"
#include "io/volume_loader.hpp"
#include "test_support.hpp"

using namespace gvflab;
namespace fs = std::filesystem;

namespace {

// teem's own reader: the float samples and the axes' sizes and kinds.
struct TeemRead {
  std::vector<float> data;
  std::vector<std::size_t> sizes;
  std::vector<int> kinds;
};
TeemRead teemLoad(const fs::path& p) {
  Nrrd* n = nrrdNew();
  REQUIRE(nrrdLoad(n, p.c_str(), nullptr) == 0);
  REQUIRE(n->type == nrrdTypeFloat);
  TeemRead r;
  const auto* f = static_cast<const float*>(n->data);
  r.data.assign(f, f + nrrdElementNumber(n));
  for (unsigned a = 0; a < n->dim; ++a) {
    r.sizes.push_back(n->axis[a].size);
    r.kinds.push_back(n->axis[a].kind);
  }
  nrrdNuke(n);
  return r;
}

// A uchar ramp (i mod 7) saved by teem with the given axes, encoding and name.
void teemSave(const fs::path& p, std::vector<std::size_t> sizes, const NrrdEncoding* encoding) {
  Nrrd* n = nrrdNew();
  REQUIRE(nrrdAlloc_nva(n, nrrdTypeUChar, static_cast<unsigned>(sizes.size()), sizes.data()) == 0);
  auto* d = static_cast<unsigned char*>(n->data);
  for (std::size_t i = 0; i < nrrdElementNumber(n); ++i) d[i] = static_cast<unsigned char>(i % 7);
  NrrdIoState* nio = nrrdIoStateNew();
  nio->encoding = encoding;
  REQUIRE(nrrdSave(p.c_str(), n, nio) == 0);
  nrrdIoStateNix(nio);
  nrrdNuke(n);
}

}  // namespace

TEST_CASE("NRRD writer output reads back through teem with its sizes and kinds") {
  auto dir = test::scratchDir("nrrd_write");
  Image2D img = test::randomImage(9, 6, 3);
  Volume vol(4, 3, 2);
  for (std::size_t i = 0; i < vol.voxels.size(); ++i) vol.voxels[i] = 0.1f * float(i);
  Field2D f2(5, 4);
  for (std::size_t i = 0; i < f2.data.size(); ++i) f2.data[i] = 0.25f - 0.01f * float(i);
  Field3D f3(3, 2, 2);
  for (std::size_t i = 0; i < f3.data.size(); ++i) f3.data[i] = 0.02f * float(i) - 0.1f;
  app::writeNrrd(dir / "i.nrrd", img);
  app::writeNrrd(dir / "v.nrrd", vol);
  app::writeNrrd(dir / "f2.nrrd", f2);
  app::writeNrrd(dir / "f3.nrrd", f3);
  TeemRead i = teemLoad(dir / "i.nrrd");
  CHECK(i.data == img.pixels);
  CHECK(i.sizes == std::vector<std::size_t>{9, 6});
  CHECK(teemLoad(dir / "v.nrrd").data == vol.voxels);
  TeemRead a = teemLoad(dir / "f2.nrrd");
  CHECK(a.data == f2.data);
  CHECK(a.sizes == std::vector<std::size_t>{2, 5, 4});
  CHECK(a.kinds[0] == nrrdKind2Vector);
  TeemRead b = teemLoad(dir / "f3.nrrd");
  CHECK(b.data == f3.data);
  CHECK(b.sizes == std::vector<std::size_t>{3, 3, 2, 2});
  CHECK(b.kinds[0] == nrrdKind3Vector);
  // Our readers agree with our writer.
  CHECK(app::readNrrdField2D(dir / "f2.nrrd").data == f2.data);
  CHECK(app::readNrrdField3D(dir / "f3.nrrd").data == f3.data);
  CHECK(app::readNrrdImage(dir / "i.nrrd").width == 9);
  // Only single-file .nrrd is written; a bad name or folder leaves nothing behind.
  CHECK_THROWS_AS(app::writeNrrd(dir / "x.nhdr", img), ParameterError);
  CHECK_THROWS_WITH_AS(app::writeNrrd(dir / "no" / "x.nrrd", img),
                       doctest::Contains("does not exist"), InputError);
  CHECK(test::regularFileCount(dir) == 4);
}

TEST_CASE("NRRD files teem wrote load as images and volumes, any encoding, detached too") {
  auto dir = test::scratchDir("nrrd_read");
  teemSave(dir / "raw.nrrd", {6, 5, 4}, nrrdEncodingRaw);
  teemSave(dir / "gz.nrrd", {6, 5, 4}, nrrdEncodingGzip);
  teemSave(dir / "text.nrrd", {6, 5, 4}, nrrdEncodingAscii);
  teemSave(dir / "det.nhdr", {6, 5, 4}, nrrdEncodingGzip);
  teemSave(dir / "img.nrrd", {8, 3}, nrrdEncodingRaw);
  for (const char* name : {"raw.nrrd", "gz.nrrd", "text.nrrd", "det.nhdr"}) {
    CAPTURE(name);
    REQUIRE(app::isVolumeFile(dir / name));
    Volume v = app::loadVolume(dir / name);
    REQUIRE(v.width == 6);
    REQUIRE(v.depth == 4);
    for (std::size_t i = 0; i < v.voxels.size(); ++i)
      REQUIRE(v.voxels[i] == doctest::Approx(double(i % 7) / 6.0));
  }
  CHECK(!app::isVolumeFile(dir / "img.nrrd"));
  Image2D img = app::loadImage(dir / "img.nrrd");
  CHECK(img.width == 8);
  CHECK(img.at(6, 0) == doctest::Approx(1.0));
}

TEST_CASE("NRRD geometry: space directions and origin read as LPS, written back, spacings") {
  auto dir = test::scratchDir("nrrd_geometry");
  const std::string data(4 * 3 * 2, '\1');
  // RAS: x and y turn round on the way in. Axis 0 steps 0.8 along -x (RAS), axis 1 0.5 along
  // +z, axis 2 2.0 along +y.
  std::ofstream(dir / "ras.nrrd", std::ios::binary)
      << "NRRD0004\ntype: uchar\ndimension: 3\nspace: right-anterior-superior\n"
         "sizes: 4 3 2\nspace directions: (-0.8,0,0) (0,0,0.5) (0,2,0)\n"
         "kinds: domain domain domain\nencoding: raw\nspace origin: (10,-20,30)\n\n"
      << data;
  const WorldGeometry g = app::loadVolume(dir / "ras.nrrd").geometry;
  CHECK(g.known);
  CHECK(g.spacing[0] == doctest::Approx(0.8));
  CHECK(g.spacing[1] == doctest::Approx(0.5));
  CHECK(g.spacing[2] == doctest::Approx(2.0));
  CHECK(g.direction == std::array<double, 9>{1, 0, 0, 0, 0, -1, 0, 1, 0});
  CHECK(g.origin == std::array<double, 3>{-10, 20, 30});
  // Spacings alone: spacing known, identity direction.
  std::ofstream(dir / "sp.nrrd", std::ios::binary)
      << "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 4 3 2\nspacings: 0.25 1 3\n"
         "encoding: raw\n\n"
      << data;
  const WorldGeometry sp = app::loadVolume(dir / "sp.nrrd").geometry;
  CHECK(sp.known);
  CHECK(sp.spacing == std::array<double, 3>{0.25, 1, 3});
  CHECK(sp.direction == WorldGeometry{}.direction);
  // Neither: unknown, as before.
  std::ofstream(dir / "none.nrrd", std::ios::binary)
      << "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 4 3 2\nencoding: raw\n\n"
      << data;
  CHECK(!app::loadVolume(dir / "none.nrrd").geometry.known);

  // Written fields carry the volume's space, read back by teem (and by us) as written.
  Field3D f(4, 3, 2);
  f.geometry = g;
  app::writeNrrd(dir / "f.nrrd", f);
  Nrrd* n = nrrdNew();
  REQUIRE(nrrdLoad(n, (dir / "f.nrrd").c_str(), nullptr) == 0);
  CHECK(n->space == nrrdSpaceLeftPosteriorSuperior);
  CHECK(n->spaceDim == 3);
  CHECK(std::isnan(n->axis[0].spaceDirection[0]));  // the vector axis has none
  CHECK(n->axis[1].spaceDirection[0] == doctest::Approx(0.8));
  CHECK(n->axis[2].spaceDirection[2] == doctest::Approx(0.5));
  CHECK(n->axis[3].spaceDirection[1] == doctest::Approx(-2.0));  // RAS's +y is LPS's -y
  CHECK(n->spaceOrigin[0] == doctest::Approx(-10));
  CHECK(n->spaceOrigin[1] == doctest::Approx(20));
  nrrdNuke(n);
  const WorldGeometry back = app::readNrrdField3D(dir / "f.nrrd").geometry;
  for (int i = 0; i < 9; ++i) CHECK(back.direction[i] == doctest::Approx(g.direction[i]));
  for (int i = 0; i < 3; ++i) CHECK(back.origin[i] == doctest::Approx(g.origin[i]));
  // A 2D field in its plane: 2 space dimensions.
  Field2D f2(5, 4);
  f2.geometry.spacing = {0.5, 0.25, 1};
  f2.geometry.origin = {3, 4, 0};
  f2.geometry.known = true;
  app::writeNrrd(dir / "f2.nrrd", f2);
  const WorldGeometry b2 = app::readNrrdField2D(dir / "f2.nrrd").geometry;
  CHECK(b2.spacing == f2.geometry.spacing);
  CHECK(b2.origin == f2.geometry.origin);
  CHECK(test::readFile(dir / "f2.nrrd").find("space dimension: 2") != std::string::npos);
  // Unknown geometry writes no space, as before.
  app::writeNrrd(dir / "u.nrrd", Field3D(2, 2, 2));
  const std::string u = test::readFile(dir / "u.nrrd");
  CHECK(u.find("space directions") == std::string::npos);
  CHECK(u.find("space origin") == std::string::npos);
  CHECK(u.find("\nspace:") == std::string::npos);
}

TEST_CASE("Corrupt and hostile NRRD files are refused with a sentence naming them") {
  auto dir = test::scratchDir("nrrd_bad");
  auto refused = [&](const std::string& name, const std::string& bytes, const char* what) {
    CAPTURE(name);
    std::ofstream(dir / name, std::ios::binary) << bytes;
    CHECK_THROWS_WITH_AS(app::loadVolume(dir / name), doctest::Contains(name.c_str()), InputError);
    CHECK_THROWS_WITH_AS(app::loadVolume(dir / name), doctest::Contains(what), InputError);
  };
  const std::string head = "NRRD0004\ntype: uchar\ndimension: 3\nencoding: raw\n";
  refused("junk.nrrd", "hello, this is no NRRD", "not a NRRD file");
  // 60000^3 bytes promised: refused from the header, nothing allocated.
  refused("huge.nrrd", head + "sizes: 60000 60000 60000\n\n" + std::string(8, 'x'), "too large");
  refused("short.nrrd", head + "sizes: 4 4 4\n\n" + std::string(10, 'x'), "is truncated");
  refused("gzshort.nrrd",
          "NRRD0004\ntype: uchar\ndimension: 3\nencoding: gzip\nsizes: 4 4 4\n\n\x1f\x8b\x08",
          "cannot be read");
  refused("twod.nrrd", "NRRD0004\ntype: uchar\ndimension: 2\nencoding: raw\nsizes: 2 2\n\nabcd",
          "not a 3D scalar volume");
  refused("nodata.nhdr", head + "sizes: 2 2 2\ndata file: gone.raw\n\n",
          "data file 'gone.raw' does not exist");
  CHECK_THROWS_WITH_AS(app::readNrrdField2D(dir / "twod.nrrd"),
                       doctest::Contains("not a 2D vector field"), InputError);
}

TEST_CASE("Contours as GeoJSON, CSV, SVG and gvflab JSON, by extension") {
  auto dir = test::scratchDir("contour_formats");
  std::vector<app::ContourRecord> cs(2);
  cs[0].points = {{1, 2}, {5, 2}, {5, 6.5}};
  cs[0].iterations = 40;
  cs[0].converged = true;
  cs[0].force = "gvf";
  cs[1].points = {{10, 10}, {12, 10}, {12, 12}, {10, 12}};
  cs[1].iterations = 7;
  cs[1].force = "traditional";
  cs[1].extra = {{"note", "tab\there \"quoted\""}};
  for (const char* name : {"c.geojson", "c.csv", "c.svg", "c.json"})
    app::writeContours(dir / name, cs, {64, 48});

  const auto geo = nlohmann::json::parse(test::readFile(dir / "c.geojson"));
  CHECK(geo["type"] == "FeatureCollection");
  REQUIRE(geo["features"].size() == 2);
  const auto& f0 = geo["features"][0];
  CHECK(f0["geometry"]["type"] == "Polygon");
  const auto& ring = f0["geometry"]["coordinates"][0];
  REQUIRE(ring.size() == 4);  // closed: the first point repeated
  CHECK(ring[3] == ring[0]);
  CHECK(ring[2][1] == 6.5);
  CHECK(f0["properties"]["force"] == "gvf");
  CHECK(f0["properties"]["state"] == "converged");
  CHECK(f0["properties"]["iterations"] == 40);
  CHECK(geo["features"][1]["properties"]["state"] == "moving");

  const std::string csv = test::readFile(dir / "c.csv");
  CHECK(csv.rfind("contour,force,state,iterations,point,x,y\n", 0) == 0);
  CHECK(csv.find("0,gvf,converged,40,2,5,6.5\n") != std::string::npos);
  CHECK(csv.find("1,traditional,moving,7,3,10,12\n") != std::string::npos);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 3 + 4);

  const std::string svg = test::readFile(dir / "c.svg");
  CHECK(svg.find("viewBox=\"0 0 64 48\"") != std::string::npos);
  CHECK(svg.find("d=\"M 1 2 L 5 2 L 5 6.5 Z\"") != std::string::npos);
  CHECK(svg.find("data-state=\"moving\"") != std::string::npos);

  // gvflab's own JSON: every character escaped, so the text reads back unchanged.
  const auto own = nlohmann::json::parse(test::readFile(dir / "c.json"));
  CHECK(own["contours"][1]["note"] == "tab\there \"quoted\"");
  CHECK(own["contours"][0]["converged"] == true);
  CHECK(own["contours"][0]["points"][2][1] == 6.5);

  // Snakes are float: their points are written as the float's shortest decimals.
  const auto tidy = app::floatPrecision({{48.000003814697266, static_cast<double>(0.1f)}});
  CHECK(tidy[0][0] == 48.000004);
  CHECK(tidy[0][1] == 0.1);

  CHECK_THROWS_WITH_AS(app::writeContours(dir / "c.txt", cs, {64, 48}), doctest::Contains("c.txt"),
                       ParameterError);
  CHECK(!fs::exists(dir / "c.txt"));
}
