// File formats: round trips, and clear errors on corrupt, truncated and empty files.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <fstream>

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/io.hpp"
#include "test_support.hpp"

using namespace gvflab;
namespace fs = std::filesystem;

namespace {
void writeBytes(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}
}  // namespace

TEST_CASE("MetaImage vector field round trip keeps every float") {
  auto dir = test::scratchDir("io_mha");
  Field2D f(13, 7);
  for (std::size_t i = 0; i < f.data.size(); ++i) f.data[i] = std::sin(0.37f * i) * 3.0f;
  writeMetaImageField(dir / "f.mha", f);
  std::string bytes = test::readFile(dir / "f.mha");
  CHECK(bytes.find("ElementNumberOfChannels = 2") != std::string::npos);
  CHECK(bytes.find("ElementType = MET_FLOAT") != std::string::npos);
  CHECK(bytes.find("DimSize = 13 7") != std::string::npos);
  Field2D g = readMetaImageField(dir / "f.mha");
  CHECK(g.width == 13);
  CHECK(g.height == 7);
  CHECK(g.data == f.data);
}

TEST_CASE("MetaImage reader refuses truncated, empty and garbage files") {
  auto dir = test::scratchDir("io_mha_bad");
  Field2D f(8, 8);
  writeMetaImageField(dir / "ok.mha", f);
  std::string bytes = test::readFile(dir / "ok.mha");
  writeBytes(dir / "trunc.mha", bytes.substr(0, bytes.size() - 10));
  writeBytes(dir / "empty.mha", "");
  writeBytes(dir / "garbage.mha", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(100, 'x'));
  writeBytes(dir / "huge.mha",
             "NDims = 2\nDimSize = 99999999 5\nElementType = MET_FLOAT\n"
             "ElementDataFile = LOCAL\n");
  CHECK_THROWS_WITH_AS(readMetaImageField(dir / "trunc.mha"), doctest::Contains("truncated"),
                       InputError);
  CHECK_THROWS_WITH_AS(readMetaImageField(dir / "empty.mha"), doctest::Contains("empty"),
                       InputError);
  CHECK_THROWS_AS(readMetaImageField(dir / "garbage.mha"), InputError);
  CHECK_THROWS_WITH_AS(readMetaImageField(dir / "huge.mha"), doctest::Contains("impossible"),
                       InputError);
  CHECK_THROWS_AS(readMetaImageField(dir / "missing.mha"), InputError);
  CHECK_THROWS_AS(readMetaImage(dir / "ok.mha"), InputError);  // 2 channels is not an image
}

TEST_CASE("scalar MetaImage with a separate raw file is rescaled to [0, 1]") {
  auto dir = test::scratchDir("io_mhd");
  writeBytes(dir / "a.mhd",
             "ObjectType = Image\nNDims = 2\nDimSize = 3 2\nElementType = MET_USHORT\n"
             "ElementDataFile = a.raw\n");
  std::vector<std::uint16_t> raw = {100, 200, 300, 400, 500, 600};
  writeBytes(dir / "a.raw", std::string(reinterpret_cast<char*>(raw.data()), 12));
  Image2D img = readMetaImage(dir / "a.mhd");
  CHECK(img.width == 3);
  CHECK(img.at(0, 0) == doctest::Approx(0.0));
  CHECK(img.at(2, 1) == doctest::Approx(1.0));
  CHECK(img.at(1, 0) == doctest::Approx(0.2));
}

TEST_CASE("PGM/PPM reader: binary and ascii, and clear errors") {
  auto dir = test::scratchDir("io_pnm");
  writeBytes(dir / "a.pgm",
             std::string("P5\n# comment\n3 2\n255\n") + std::string("\x00\x80\xff\x10\x20\x30", 6));
  Image2D a = readPnm(dir / "a.pgm");
  CHECK(a.width == 3);
  CHECK(a.height == 2);
  CHECK(a.at(2, 0) == doctest::Approx(1.0));
  CHECK(a.at(1, 0) == doctest::Approx(128 / 255.0));
  writeBytes(dir / "b.ppm", "P3 1 1 255 255 255 255\n");
  CHECK(readPnm(dir / "b.ppm").at(0, 0) == doctest::Approx(1.0));
  writeBytes(dir / "trunc.pgm", std::string("P5 4 4 255\n") + std::string(5, 'a'));
  writeBytes(dir / "empty.pgm", "");
  writeBytes(dir / "zero.pgm", "P5 0 4 255\n");
  writeBytes(dir / "notpnm.pgm", "hello world");
  CHECK_THROWS_WITH_AS(readPnm(dir / "trunc.pgm"), doctest::Contains("truncated"), InputError);
  CHECK_THROWS_WITH_AS(readPnm(dir / "empty.pgm"), doctest::Contains("empty"), InputError);
  CHECK_THROWS_WITH_AS(readPnm(dir / "zero.pgm"), doctest::Contains("impossible"), InputError);
  CHECK_THROWS_AS(readPnm(dir / "notpnm.pgm"), InputError);
}

// Issue 25: a MetaImage reads only the bytes its DimSize promises, and only from a regular file
// in the header's folder or below (links resolved) unless data outside is allowed.
TEST_CASE("MetaImage data files: only what the header promises, only beside the header") {
  auto dir = test::scratchDir("io_mhd_rule");
  fs::create_directories(dir / "sub");
  fs::create_directories(dir / "other");
  const std::string head = "NDims = 2\nDimSize = 2 2\nElementType = MET_UCHAR\nElementDataFile = ";
  writeBytes(dir / "long.mhd", head + "long.raw\n");
  writeBytes(dir / "long.raw", std::string("\x00\x01\x02\x03", 4) + std::string(1 << 20, 'x'));
  CHECK(readMetaImage(dir / "long.mhd").at(1, 1) == doctest::Approx(1.0));  // 4 bytes read
  writeBytes(dir / "other" / "d.raw", std::string(4, '\x01'));
  writeBytes(dir / "sub" / "up.mhd", head + "../other/d.raw\n");
  CHECK_THROWS_WITH_AS(readMetaImage(dir / "sub" / "up.mhd"),
                       doctest::Contains("outside the header's folder"), InputError);
  writeBytes(dir / "abs.mhd", head + "/etc/passwd\n");
  CHECK_THROWS_WITH_AS(readMetaImage(dir / "abs.mhd"), doctest::Contains("absolute path outside"),
                       InputError);
  setDataFilesOutsideAllowed(true);
  CHECK_NOTHROW(readMetaImage(dir / "sub" / "up.mhd"));
  writeBytes(dir / "zero.mhd", head + "/dev/zero\n");
  CHECK_THROWS_WITH_AS(readMetaImage(dir / "zero.mhd"), doctest::Contains("character device"),
                       InputError);
  setDataFilesOutsideAllowed(false);
  fs::remove(dir / "fifo.raw");
  REQUIRE(mkfifo((dir / "fifo.raw").c_str(), 0600) == 0);
  writeBytes(dir / "fifo.mhd", head + "fifo.raw\n");
  CHECK_THROWS_WITH_AS(readMetaImage(dir / "fifo.mhd"), doctest::Contains("is a FIFO, not a file"),
                       InputError);
}

TEST_CASE("PGM: a short file is refused from its header, before the pixels are allocated") {
  auto dir = test::scratchDir("io_pnm_short");
  writeBytes(dir / "big.pgm", "P5\n16000 16000\n255\n" + std::string(100, '\0'));
  CHECK_THROWS_WITH_AS(pnmSize(dir / "big.pgm"), doctest::Contains("truncated"), InputError);
  CHECK_THROWS_WITH_AS(readPnm(dir / "big.pgm"), doctest::Contains("truncated"), InputError);
}
