// The app's image loader (Qt readers + engine MetaImage/PNG): good files load, bad ones give
// a sentence naming the file.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <QCoreApplication>
#include <QImage>
#include <fstream>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/phantoms.hpp"
#include "io/image_loader.hpp"
#include "io/png_writer.hpp"
#include "qt_app.hpp"
#include "test_support.hpp"

using namespace gvflab;
namespace fs = std::filesystem;

using test::qtApp;

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

// Issue 25: Qt's default allocation limit (128 MB) refused a valid 16384^2 PNG, although 16384
// per side is what the loader promises; our own checks (side, host memory) decide instead.
TEST_CASE("a valid 16384 x 16384 PNG loads") {
  qtApp();
  auto dir = test::scratchDir("loader_16384");
  {
    QImage big(16384, 16384, QImage::Format_Grayscale8);
    big.fill(0);
    for (int x = 0; x < 16384; ++x) big.scanLine(16383)[x] = 255;  // the last row white
    REQUIRE(big.save(QString::fromStdString((dir / "big.png").string()), "PNG"));
  }
  const Image2D img = app::loadImage(dir / "big.png");
  CHECK(img.width == 16384);
  CHECK(img.height == 16384);
  CHECK(img.at(0, 0) == 0.0f);
  CHECK(img.at(16383, 16383) == 1.0f);
  fs::remove(dir / "big.png");
}

// Issue 25: a FIFO or device named as an image is refused by what it is, at once (no hang).
TEST_CASE("a FIFO or a device named as an image is refused by its kind") {
  qtApp();
  auto dir = test::scratchDir("loader_fifo");
  fs::remove(dir / "x.png");
  REQUIRE(mkfifo((dir / "x.png").c_str(), 0600) == 0);
  CHECK_THROWS_WITH_AS(app::loadImage(dir / "x.png"), doctest::Contains("is a FIFO, not a file"),
                       InputError);
  CHECK_THROWS_WITH_AS(app::imageHeaderShape(dir / "x.png"),
                       doctest::Contains("is a FIFO, not a file"), InputError);
  CHECK_THROWS_WITH_AS(app::loadImage("/dev/null"), doctest::Contains("is a character device"),
                       InputError);
}
