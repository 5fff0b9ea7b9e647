// Issue 28's outputs: label masks (rasterisation by pixel centres, the files and their
// geometry), contours in their force's colour over the image, and the coordinates contour files
// state and can be written in.
#include <doctest/doctest.h>
#include <nifti2_io.h>
#include <teem/nrrd.h>

#include <QByteArray>
#include <QImage>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>
#include <regex>

#include "gvflab/error.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/region_reference.hpp"
#include "io/contour_formats.hpp"
#include "io/label_mask.hpp"
#include "io/mask_file.hpp"
#include "io/snake_palette.hpp"
#include "test_support.hpp"

using namespace gvflab;
using namespace gvflab::app;
namespace fs = std::filesystem;

namespace {

using Polygon = std::vector<std::array<double, 2>>;

// The winding number of the polygon around (px, py) from the angles its edges subtend: an
// independent double-precision reference for points off the edges.
int windingByAngles(const Polygon& poly, double px, double py) {
  double total = 0;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const auto& a = poly[i];
    const auto& b = poly[(i + 1) % poly.size()];
    const double ax = a[0] - px, ay = a[1] - py, bx = b[0] - px, by = b[1] - py;
    total += std::atan2(ax * by - ay * bx, ax * bx + ay * by);
  }
  return static_cast<int>(std::lround(total / (2 * std::numbers::pi)));
}

int count(const std::vector<std::uint8_t>& mask) {
  int n = 0;
  for (auto v : mask) n += v;
  return n;
}

bool at(const std::vector<std::uint8_t>& mask, int width, int x, int y) {
  return mask[static_cast<std::size_t>(y) * width + x] != 0;
}

// A geometry no default could be mistaken for: 0.5 x 2 mm pixels, turned 90 degrees about z
// (x runs along world y, y along world -x), off the z = 0 plane.
WorldGeometry turnedGeometry() {
  WorldGeometry g;
  g.spacing = {0.5, 2.0, 3.0};
  g.origin = {10.0, -20.0, 5.0};
  g.direction = {0, -1, 0, 1, 0, 0, 0, 0, 1};
  g.known = true;
  return g;
}

}  // namespace

TEST_CASE("polygons are rasterised by pixel centres with the nonzero rule") {
  // Corners between centres: the 4x4 pixels 2..5.
  const auto square = polygonInside(10, 10, {{2, 2}, {6, 2}, {6, 6}, {2, 6}});
  CHECK(count(square) == 16);
  CHECK(at(square, 10, 2, 2));
  CHECK(at(square, 10, 5, 5));
  CHECK(!at(square, 10, 6, 5));
  CHECK(!at(square, 10, 1, 2));

  // Corners on the centres of pixels (1, 1) and (4, 4): the region snake's edge rule, centres
  // on the right and top edges inside, on the left and bottom edges outside: 3 x 3 pixels.
  const auto onCentres = polygonInside(10, 10, {{1.5, 1.5}, {4.5, 1.5}, {4.5, 4.5}, {1.5, 4.5}});
  CHECK(count(onCentres) == 9);
  CHECK(at(onCentres, 10, 2, 1));
  CHECK(at(onCentres, 10, 4, 3));
  CHECK(!at(onCentres, 10, 1, 1));
  CHECK(!at(onCentres, 10, 2, 4));

  // A concave U: the notch [4, 6) x [4, 9) stays out.
  const auto u =
      polygonInside(10, 10, {{1, 1}, {9, 1}, {9, 9}, {6, 9}, {6, 4}, {4, 4}, {4, 9}, {1, 9}});
  CHECK(count(u) == 64 - 10);
  CHECK(at(u, 10, 5, 2));
  CHECK(!at(u, 10, 5, 6));
  CHECK(at(u, 10, 2, 8));
  CHECK(at(u, 10, 7, 8));

  // A snake touching itself at (4, 4): both lobes, nothing twice.
  const auto touching =
      polygonInside(10, 10, {{1, 1}, {4, 1}, {4, 4}, {7, 4}, {7, 7}, {4, 7}, {4, 4}, {1, 4}});
  CHECK(count(touching) == 18);
  CHECK(at(touching, 10, 3, 3));
  CHECK(at(touching, 10, 4, 4));
  CHECK(!at(touching, 10, 4, 3));

  // A contour around the same square twice winds 2: inside by the nonzero rule (even-odd would
  // leave it empty).
  const auto twice =
      polygonInside(10, 10, {{2, 2}, {6, 2}, {6, 6}, {2, 6}, {2, 2}, {6, 2}, {6, 6}, {2, 6}});
  CHECK(twice == square);
  // Either orientation.
  CHECK(polygonInside(10, 10, {{2, 6}, {6, 6}, {6, 2}, {2, 2}}) == square);
  // Off the image: clipped, never out of bounds.
  CHECK(count(polygonInside(4, 4, {{-5, -5}, {20, -5}, {20, 20}, {-5, 20}})) == 16);
}

TEST_CASE("rasterisation equals the winding number at every centre (double precision)") {
  std::mt19937 rng(28);
  std::uniform_real_distribution<double> coord(-3.0, 35.0);
  for (int trial = 0; trial < 40; ++trial) {
    Polygon poly(3 + trial % 9);
    for (auto& p : poly) p = {coord(rng), coord(rng)};  // self-crossing ones too
    const int w = 32, h = 29;
    const auto mask = polygonInside(w, h, poly);
    int mismatches = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        mismatches += at(mask, w, x, y) != (windingByAngles(poly, x + 0.5, y + 0.5) != 0);
    CAPTURE(trial);
    CHECK(mismatches == 0);
  }
}

TEST_CASE("the region snake's mask is exactly the target it counts") {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> coord(0, 23);
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<Point2i> nodes(4 + trial % 5);
    for (auto& p : nodes) p = {coord(rng), coord(rng)};
    const LabelImage mask = regionLabel(24, 24, nodes, {});
    const auto reference = reference::polygonMask(24, 24, nodes);
    std::vector<std::uint8_t> ours(mask.labels.begin(), mask.labels.end());
    CAPTURE(trial);
    CHECK(ours == reference);
  }
}

TEST_CASE("label images: snake k holds k, the later wins, 16 bits beyond 255") {
  const LabelImage two = labelContours(
      10, 10, {{{1, 1}, {6, 1}, {6, 6}, {1, 6}}, {{4, 4}, {9, 4}, {9, 9}, {4, 9}}}, {});
  CHECK(two.maxLabel == 2);
  CHECK(two.at(2, 2) == 1);
  CHECK(two.at(5, 5) == 2);  // in both: the later
  CHECK(two.at(8, 8) == 2);
  CHECK(two.at(0, 9) == 0);

  const auto dir = test::scratchDir("label_png");
  writeMask(dir / "two.png", two);
  QImage eight(QString::fromStdString((dir / "two.png").string()));
  REQUIRE(!eight.isNull());
  CHECK(eight.format() == QImage::Format_Grayscale8);
  CHECK(qGray(eight.pixel(2, 2)) == 1);
  CHECK(qGray(eight.pixel(5, 5)) == 2);

  std::vector<Polygon> many;
  for (int k = 0; k < 300; ++k) many.push_back({{0, 0}, {20, 0}, {20, 20}, {0, 20}});
  const LabelImage wide = labelContours(20, 20, many, {});
  CHECK(wide.at(3, 3) == 300);
  writeMask(dir / "wide.png", wide);
  QImage sixteen(QString::fromStdString((dir / "wide.png").string()));
  REQUIRE(!sixteen.isNull());
  CHECK(sixteen.format() == QImage::Format_Grayscale16);
  CHECK(reinterpret_cast<const quint16*>(sixteen.constScanLine(3))[3] == 300);

  CHECK_THROWS_WITH_AS(checkMaskFileName("m.jpg"), doctest::Contains("m.jpg"), ParameterError);
  CHECK_THROWS_WITH_AS(checkMaskFileName("m.svg"), doctest::Contains(".nii.gz"), ParameterError);
  CHECK_NOTHROW(checkMaskFileName("m.NII.GZ"));
}

TEST_CASE("NRRD and NIfTI masks are integers with the input's geometry") {
  const auto dir = test::scratchDir("label_files");
  LabelImage m = labelContours(6, 4, {{{1, 1}, {4, 1}, {4, 3}, {1, 3}}}, turnedGeometry());
  m.labels[0] = 1;  // the first sample, to see the storage order
  writeMask(dir / "m.nrrd", m);
  writeMask(dir / "m.nii.gz", m);

  Nrrd* n = nrrdNew();
  REQUIRE(nrrdLoad(n, (dir / "m.nrrd").c_str(), nullptr) == 0);
  CHECK(n->type == nrrdTypeUChar);
  REQUIRE(n->dim == 2);
  CHECK(n->axis[0].size == 6);
  CHECK(n->axis[1].size == 4);
  CHECK(n->space == nrrdSpaceLeftPosteriorSuperior);
  // Column a of direction times spacing[a]: x steps 0.5 along world y, y steps 2 along -x.
  CHECK(n->axis[0].spaceDirection[0] == doctest::Approx(0));
  CHECK(n->axis[0].spaceDirection[1] == doctest::Approx(0.5));
  CHECK(n->axis[1].spaceDirection[0] == doctest::Approx(-2));
  CHECK(n->axis[1].spaceDirection[1] == doctest::Approx(0));
  CHECK(n->spaceOrigin[0] == 10);
  CHECK(n->spaceOrigin[1] == -20);
  CHECK(n->spaceOrigin[2] == 5);
  const auto* d = static_cast<const unsigned char*>(n->data);
  CHECK(d[0] == 1);
  CHECK(d[1 * 6 + 2] == 1);
  CHECK(d[3 * 6 + 2] == 0);
  nrrdNuke(n);

  nifti_image* nim = nifti_image_read((dir / "m.nii.gz").c_str(), 1);
  REQUIRE(nim != nullptr);
  CHECK(nim->datatype == NIFTI_TYPE_UINT8);
  CHECK(nim->nx == 6);
  CHECK(nim->ny == 4);
  CHECK(nim->intent_code == NIFTI_INTENT_LABEL);
  CHECK(nim->sform_code == NIFTI_XFORM_SCANNER_ANAT);
  CHECK(nim->qform_code == NIFTI_XFORM_SCANNER_ANAT);
  // RAS: LPS's x and y negated. Voxel (i, j) -> (2 j - 10, 20 - 0.5 i, 5).
  const auto& s = nim->sto_xyz.m;
  CHECK(s[0][0] == doctest::Approx(0));
  CHECK(s[0][1] == doctest::Approx(2));
  CHECK(s[1][0] == doctest::Approx(-0.5));
  CHECK(s[0][3] == doctest::Approx(-10));
  CHECK(s[1][3] == doctest::Approx(20));
  CHECK(s[2][3] == doctest::Approx(5));
  // The qform says the same (nifti_clib rebuilds qto_xyz from the quaternion it read).
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) CHECK(nim->qto_xyz.m[r][c] == doctest::Approx(s[r][c]));
  const auto* v = static_cast<const unsigned char*>(nim->data);
  CHECK(v[0] == 1);
  CHECK(v[1 * 6 + 2] == 1);
  nifti_image_free(nim);

  // No geometry in the input: none claimed.
  writeMask(dir / "plain.nrrd", labelContours(6, 4, {}, {}));
  writeMask(dir / "plain.nii", labelContours(6, 4, {}, {}));
  Nrrd* p = nrrdNew();
  REQUIRE(nrrdLoad(p, (dir / "plain.nrrd").c_str(), nullptr) == 0);
  CHECK(p->spaceDim == 0);
  nrrdNuke(p);
  nifti_image* plain = nifti_image_read((dir / "plain.nii").c_str(), 0);
  REQUIRE(plain != nullptr);
  CHECK(plain->sform_code == 0);
  nifti_image_free(plain);
}

TEST_CASE("SVG contours in their force's colour with a legend, over the image on request") {
  std::vector<ContourRecord> cs(3);
  cs[0].points = {{1, 2}, {5, 2}, {5, 6.5}};
  cs[0].force = "gvf";
  cs[1].points = {{10, 10}, {12, 10}, {12, 12}};
  cs[1].force = "traditional";
  cs[2].points = {{20, 20}, {22, 20}, {22, 22}};
  cs[2].force = "gvf";
  const std::string gvf = hexColor(forceColor(SnakeForce::Gvf));
  const std::string trad = hexColor(forceColor(SnakeForce::Traditional));
  CHECK(gvf == "#ff4dd9");  // the viewer's magenta and cyan
  CHECK(trad == "#40e6ff");
  const std::string svg = contoursSvg(cs, {64, 48});
  CHECK(svg.find("stroke=\"" + gvf + "\" stroke-width=\"1\" data-force=\"gvf\"") !=
        std::string::npos);
  CHECK(svg.find("stroke=\"" + trad + "\" stroke-width=\"1\" data-force=\"traditional\"") !=
        std::string::npos);
  // One legend entry per force: GVF, then grad f.
  const auto gvfLabel = svg.find(">GVF</text>"), tradLabel = svg.find(">grad f</text>");
  CHECK(gvfLabel != std::string::npos);
  CHECK(tradLabel > gvfLabel);
  CHECK(svg.find(">GVF</text>", gvfLabel + 1) == std::string::npos);
  CHECK(svg.find("<image") == std::string::npos);

  Image2D image(4, 3);
  image.at(1, 2) = 1.0f;
  image.at(3, 0) = 0.5f;
  ContourCanvas canvas{4, 3};
  canvas.background = &image;
  const std::string over = contoursSvg({cs[0]}, canvas);
  std::smatch m;
  const std::string imageTag = "<image x=\"0\" y=\"0\" width=\"4\" height=\"3\"";
  REQUIRE(over.find(imageTag) != std::string::npos);
  CHECK(over.find(imageTag) < over.find("<path"));  // beneath the contours
  REQUIRE(std::regex_search(over, m, std::regex("base64,([A-Za-z0-9+/=]+)\"")));
  const QImage png = QImage::fromData(QByteArray::fromBase64(QByteArray::fromStdString(m[1])));
  REQUIRE(png.width() == 4);
  REQUIRE(png.height() == 3);
  CHECK(qGray(png.pixel(1, 2)) == 255);
  CHECK(qGray(png.pixel(3, 0)) == 128);
  CHECK(qGray(png.pixel(0, 0)) == 0);

  // The region snake's green, as in the viewer's region mode.
  ContourRecord region;
  region.points = {{1, 1}, {3, 1}, {3, 3}};
  region.force = "region";
  CHECK(contoursSvg({region}, {8, 8}).find("stroke=\"#3ce65a\"") != std::string::npos);
}

TEST_CASE("contour files state their coordinates; y up and world on request") {
  std::vector<ContourRecord> cs(1);
  cs[0].points = {{1, 2}, {5, 2}, {5, 6.5}};
  cs[0].force = "gvf";
  cs[0].initialPoints = ContourRecord::Points{{0.5, 0.5}, {8, 0.5}, {8, 8}};

  const auto pixel = nlohmann::json::parse(contoursGeoJson(cs, {64, 48}));
  CHECK(pixel["gvflab:coordinates"]["system"] == "pixel");
  CHECK(pixel["gvflab:coordinates"]["y"] == "down");
  CHECK(pixel["gvflab:coordinates"]["origin"] == "top-left corner of the image");
  CHECK(pixel["features"][0]["geometry"]["coordinates"][0][2] == nlohmann::json::parse("[5, 6.5]"));

  const auto up =
      nlohmann::json::parse(contoursGeoJson(cs, {64, 48, ContourCoordinates::PixelYUp}));
  CHECK(up["gvflab:coordinates"]["y"] == "up");
  CHECK(up["features"][0]["geometry"]["coordinates"][0][0] == nlohmann::json::parse("[1, 46]"));
  CHECK(up["features"][0]["geometry"]["coordinates"][0][2] == nlohmann::json::parse("[5, 41.5]"));

  // World: pixel (x, y) is index (x - 0.5, y - 0.5); 0.5 x 2 mm, origin (10, 20, 0).
  WorldGeometry g;
  g.spacing = {0.5, 2.0, 1.0};
  g.origin = {10.0, 20.0, 0.0};
  g.known = true;
  const ContourCanvas world{64, 48, ContourCoordinates::World, g};
  const auto w = nlohmann::json::parse(contoursJson(cs, world));
  CHECK(w["coordinates"]["system"] == "world");
  CHECK(w["coordinates"]["space"] == "LPS");
  CHECK(w["coordinates"]["dimensions"] == 2);
  const auto& p0 = w["contours"][0]["points"][0];
  CHECK(p0[0].get<double>() == doctest::Approx(10.25));
  CHECK(p0[1].get<double>() == doctest::Approx(23.0));
  const auto& i0 = w["contours"][0]["initial_points"][0];
  CHECK(i0[0].get<double>() == doctest::Approx(10.0));
  CHECK(i0[1].get<double>() == doctest::Approx(20.0));

  // Off the z = 0 plane: [X, Y, Z], and the CSV gets a z column.
  const ContourCanvas turned{64, 48, ContourCoordinates::World, turnedGeometry()};
  const auto t = nlohmann::json::parse(contoursGeoJson(cs, turned));
  const auto& q = t["features"][0]["geometry"]["coordinates"][0][1];  // pixel (5, 2)
  REQUIRE(q.size() == 3);
  // index (4.5, 1.5) -> origin + 4.5 * 0.5 * (0, 1, 0) + 1.5 * 2 * (-1, 0, 0)
  CHECK(q[0].get<double>() == doctest::Approx(10.0 - 3.0));
  CHECK(q[1].get<double>() == doctest::Approx(-20.0 + 2.25));
  CHECK(q[2].get<double>() == doctest::Approx(5.0));
  const std::string csv = contoursCsv(cs, turned);
  CHECK(csv.rfind("contour,force,state,iterations,point,x,y,z\n", 0) == 0);
  CHECK(csv.find("0,gvf,moving,0,1,7,-17.75,5\n") != std::string::npos);

  // SVG stays in pixels whatever the canvas says.
  CHECK(contoursSvg(cs, turned).find("d=\"M 1 2 L 5 2 L 5 6.5 Z\"") != std::string::npos);
  CHECK(contoursCsv(cs, {64, 48}).rfind("contour,force,state,iterations,point,x,y\n", 0) == 0);
}

TEST_CASE("snakes become the same contour records for --save-contours and the viewer's save") {
  SnakeContour stalled;
  stalled.points = {{1, 2}, {5, 2}, {5, 6}};
  stalled.initial = {{0, 0}, {8, 0}, {8, 8}};
  stalled.force = SnakeForce::Vfc;
  stalled.state = SnakeState::Stalled;
  stalled.iterations = 42;
  SnakeContour open = stalled;
  open.state = SnakeState::Converged;
  open.boundary = SnakeBoundary::Fixed;
  const std::vector<ContourRecord> records = contourRecords({stalled, open});
  REQUIRE(records.size() == 2);
  // The snake's own state, never "moving" for one that stalled (the viewer's save wrote that).
  CHECK(contourState(records[0]) == "stalled");
  CHECK(records[0].force == "vfc");
  CHECK(records[0].iterations == 42);
  CHECK_FALSE(records[0].converged);
  REQUIRE(records[0].initialPoints.has_value());
  CHECK(records[0].initialPoints->at(1) == std::array<double, 2>{8, 0});
  CHECK(records[0].closed());
  CHECK(records[1].converged);
  CHECK(records[1].openBoundary == std::optional<std::string>(boundaryName(SnakeBoundary::Fixed)));
  const auto json = nlohmann::json::parse(contoursJson(records));
  CHECK(json["contours"][0]["state"] == "stalled");
  CHECK(json["contours"][0]["force"] == "vfc");
}
