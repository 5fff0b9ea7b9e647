// PNG output through libpng: well-formed, compressed files that Qt's decoder reads back;
// atomic writes.
#include <doctest/doctest.h>

#include <QImage>
#include <algorithm>
#include <cmath>
#include <fstream>

#include "gvflab/error.hpp"
#include "gvflab/phantoms.hpp"
#include "io/png_writer.hpp"
#include "test_support.hpp"

using namespace gvflab;
namespace fs = std::filesystem;

TEST_CASE("PNG writer produces a well-formed file and writes atomically") {
  auto dir = test::scratchDir("io_png");
  Image2D img(70000 / 700, 3, 0.5f);
  writePngGray(dir / "g.png", img);
  std::string bytes = test::readFile(dir / "g.png");
  CHECK(bytes.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  CHECK(bytes.find("IHDR") == 12);
  CHECK(bytes.find("IEND") == bytes.size() - 8);
  // A missing folder fails with a sentence and leaves no file and no temporary behind.
  CHECK_THROWS_WITH_AS(writePngGray(dir / "nope" / "g.png", img),
                       doctest::Contains("does not exist"), InputError);
  CHECK(test::regularFileCount(dir) == 1);
}

TEST_CASE("PNG through libpng: compressed, and Qt's decoder reads the same pixels") {
  auto dir = test::scratchDir("png_libpng");
  const Image2D u = makePhantom("u", 256);
  writePngGray(dir / "u.png", u);
  // The old encoder stored 256 x 257 bytes uncompressed; deflate makes the phantom far smaller.
  CHECK(fs::file_size(dir / "u.png") < 256 * 257 / 4);
  QImage q(QString::fromStdString((dir / "u.png").string()));
  REQUIRE(q.width() == 256);
  REQUIRE(q.format() == QImage::Format_Grayscale8);
  for (int y = 0; y < 256; y += 5)
    for (int x = 0; x < 256; x += 3)
      REQUIRE(qGray(q.pixel(x, y)) == std::lround(std::clamp(u.at(x, y), 0.0f, 1.0f) * 255));
  std::vector<unsigned char> rgb(4 * 3 * 3);
  for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<unsigned char>(20 * i);
  writePngRgb(dir / "c.png", 4, 3, rgb);
  QImage c(QString::fromStdString((dir / "c.png").string()));
  REQUIRE(c.width() == 4);
  CHECK(qRed(c.pixel(3, 2)) == rgb[33]);
  CHECK(qBlue(c.pixel(3, 2)) == rgb[35]);
}
