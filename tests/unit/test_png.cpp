// PNG output: well-formed files, atomic writes.
#include <doctest/doctest.h>

#include <fstream>

#include "gvflab/error.hpp"
#include "io/png_writer.hpp"
#include "test_support.hpp"

using namespace gvflab;
namespace fs = std::filesystem;

namespace {
std::string readBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

TEST_CASE("PNG writer produces a well-formed file and writes atomically") {
  auto dir = test::scratchDir("io_png");
  Image2D img(70000 / 700, 3, 0.5f);
  writePngGray(dir / "g.png", img);
  std::string bytes = readBytes(dir / "g.png");
  CHECK(bytes.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  CHECK(bytes.find("IHDR") == 12);
  CHECK(bytes.find("IEND") == bytes.size() - 8);
  // A missing folder fails with a sentence and leaves no file and no temporary behind.
  CHECK_THROWS_WITH_AS(writePngGray(dir / "nope" / "g.png", img),
                       doctest::Contains("does not exist"), InputError);
  int files = 0;
  for (auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
  CHECK(files == 1);
}
