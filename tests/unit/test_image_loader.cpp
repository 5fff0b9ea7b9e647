// The app's image loader (Qt readers + engine MetaImage/PNG): good files load, bad ones give
// a sentence naming the file.
#include <doctest/doctest.h>

#include <QCoreApplication>
#include <QImage>
#include <fstream>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/phantoms.hpp"
#include "io/image_loader.hpp"
#include "io/png_writer.hpp"
#include "test_support.hpp"

using namespace gvflab;
namespace fs = std::filesystem;

namespace {
QCoreApplication& qtApp() {
  static int argc = 1;
  static char name[] = "test_app";
  static char* argv[] = {name, nullptr};
  static QCoreApplication app(argc, argv);
  return app;
}
}  // namespace

TEST_CASE("PNG written by the engine loads back exactly through Qt") {
  qtApp();
  auto dir = test::scratchDir("loader_png");
  Image2D u = makePhantom("u", 64);
  writePngGray(dir / "u.png", u);
  Image2D back = app::loadImage(dir / "u.png");
  REQUIRE(back.width == 64);
  REQUIRE(back.height == 64);
  double maxDiff = 0;
  for (std::size_t i = 0; i < u.size(); ++i)
    maxDiff = std::max(maxDiff, static_cast<double>(std::abs(u.pixels[i] - back.pixels[i])));
  CHECK(maxDiff < 1.0 / 255);
}

TEST_CASE("JPEG, BMP and PGM load as grey levels") {
  qtApp();
  auto dir = test::scratchDir("loader_formats");
  QImage img(40, 30, QImage::Format_RGB32);
  img.fill(QColor(255, 255, 255));
  for (const char* ext : {"jpg", "bmp", "pgm", "tif"}) {
    CAPTURE(ext);
    auto path = dir / (std::string("white.") + ext);
    REQUIRE(img.save(QString::fromStdString(path.string())));
    Image2D g = app::loadImage(path);
    CHECK(g.width == 40);
    CHECK(g.height == 30);
    CHECK(g.at(20, 15) > 0.97f);
  }
}

TEST_CASE("corrupt, truncated, empty and missing files are refused with a sentence") {
  qtApp();
  auto dir = test::scratchDir("loader_bad");
  writePngGray(dir / "ok.png", makePhantom("blob", 64));
  std::string png = test::readFile(dir / "ok.png");
  std::ofstream(dir / "trunc.png", std::ios::binary) << png.substr(0, png.size() / 2);
  std::ofstream(dir / "empty.png", std::ios::binary);
  std::ofstream(dir / "text.png", std::ios::binary) << "this is not an image at all";
  QImage jpg(64, 64, QImage::Format_RGB32);
  jpg.fill(Qt::gray);
  jpg.save(QString::fromStdString((dir / "ok.jpg").string()));
  std::string jbytes = test::readFile(dir / "ok.jpg");
  std::ofstream(dir / "trunc.jpg", std::ios::binary) << jbytes.substr(0, jbytes.size() / 2);

  CHECK_THROWS_WITH_AS(app::loadImage(dir / "trunc.png"), doctest::Contains("trunc.png"),
                       InputError);
  CHECK_THROWS_WITH_AS(app::loadImage(dir / "empty.png"), doctest::Contains("empty"), InputError);
  CHECK_THROWS_AS(app::loadImage(dir / "text.png"), InputError);
  CHECK_THROWS_WITH_AS(app::loadImage(dir / "trunc.jpg"), doctest::Contains("truncated"),
                       InputError);
  CHECK_THROWS_WITH_AS(app::loadImage(dir / "missing.png"), doctest::Contains("does not exist"),
                       InputError);
  CHECK_THROWS_AS(app::loadImage(dir), InputError);
  CHECK_NOTHROW(app::loadImage(dir / "ok.png"));
}
