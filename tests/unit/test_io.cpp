// File formats: round trips, and clear errors on corrupt, truncated and empty files.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <zlib.h>

#include <array>
#include <cmath>
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

TEST_CASE("MetaImage geometry: ElementSpacing, Offset and TransformMatrix read and written") {
  auto dir = test::scratchDir("io_mha_geometry");
  // TransformMatrix lists each axis's direction in turn (ITK): axis 0 along +y, axis 1 along -x.
  writeBytes(dir / "v.mha",
             "ObjectType = Image\nNDims = 3\nTransformMatrix = 0 1 0 -1 0 0 0 0 1\n"
             "Offset = 1 -2 3.5\nDimSize = 3 2 2\nElementSpacing = 0.8 0.5 2\n"
             "ElementType = MET_UCHAR\nElementDataFile = LOCAL\n" +
                 std::string(12, '\1'));
  const WorldGeometry g = readMetaImageVolume(dir / "v.mha").geometry;
  CHECK(g.known);
  CHECK(g.spacing == std::array<double, 3>{0.8, 0.5, 2});
  CHECK(g.origin == std::array<double, 3>{1, -2, 3.5});
  CHECK(g.direction == std::array<double, 9>{0, -1, 0, 1, 0, 0, 0, 0, 1});
  // Origin and Orientation are MetaIO's other names; a 2D image uses the x and y entries.
  writeBytes(dir / "i.mha",
             "NDims = 2\nOrigin = 5 6\nOrientation = 0 1 1 0\nDimSize = 2 2\n"
             "ElementType = MET_UCHAR\nElementDataFile = LOCAL\n" +
                 std::string(4, '\1'));
  const WorldGeometry i = readMetaImage(dir / "i.mha").geometry;
  CHECK(i.origin == std::array<double, 3>{5, 6, 0});
  CHECK(i.direction == std::array<double, 9>{0, 1, 0, 1, 0, 0, 0, 0, 1});
  CHECK(i.spacing == std::array<double, 3>{1, 1, 1});

  // Written fields carry it, and read back the same.
  Field3D f(3, 2, 2);
  f.geometry = g;
  writeMetaImageField3D(dir / "f.mha", f);
  const std::string header = test::readFile(dir / "f.mha");
  CHECK(header.find("TransformMatrix = 0 1 0 -1 0 0 0 0 1\n") != std::string::npos);
  CHECK(header.find("Offset = 1 -2 3.5\n") != std::string::npos);
  CHECK(header.find("ElementSpacing = 0.8 0.5 2\n") != std::string::npos);
  const WorldGeometry back = readMetaImageField3D(dir / "f.mha").geometry;
  CHECK(back.spacing == g.spacing);
  CHECK(back.origin == g.origin);
  CHECK(back.direction == g.direction);
  // Unknown geometry: the header written before geometry was kept, byte for byte.
  writeMetaImageField(dir / "u.mha", Field2D(13, 7));
  CHECK(test::readFile(dir / "u.mha")
            .rfind(
                "ObjectType = Image\nNDims = 2\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
                "CompressedData = False\nDimSize = 13 7\nElementSpacing = 1 1\n"
                "ElementNumberOfChannels = 2\nElementType = MET_FLOAT\nElementDataFile = LOCAL\n",
                0) == 0);
  // A matrix of the wrong size, or an axis without a direction, is a corrupt header.
  writeBytes(dir / "m.mha",
             "NDims = 2\nTransformMatrix = 1 0 0\nDimSize = 2 2\nElementType = MET_UCHAR\n"
             "ElementDataFile = LOCAL\n" +
                 std::string(4, '\1'));
  CHECK_THROWS_WITH_AS(readMetaImage(dir / "m.mha"), doctest::Contains("TransformMatrix"),
                       InputError);
  writeBytes(dir / "z.mha",
             "NDims = 2\nOffset = 1 nan\nDimSize = 2 2\nElementType = MET_UCHAR\n"
             "ElementDataFile = LOCAL\n" +
                 std::string(4, '\1'));
  CHECK_THROWS_WITH_AS(readMetaImage(dir / "z.mha"), doctest::Contains("Offset"), InputError);
}

TEST_CASE("compressed MetaImage: written and read through zlib; bombs refused before allocation") {
  auto dir = test::scratchDir("io_mha_zlib");
  Field2D f(13, 7);
  for (std::size_t i = 0; i < f.data.size(); ++i) f.data[i] = std::sin(0.37f * i) * 3.0f;
  writeMetaImageField(dir / "f.mha", f, MetaImageWriteOptions{.compressed = true});
  const std::string bytes = test::readFile(dir / "f.mha");
  CHECK(bytes.find("CompressedData = True\nCompressedDataSize = ") != std::string::npos);
  CHECK(readMetaImageField(dir / "f.mha").data == f.data);

  // A stream zlib made (as ITK writes it), with and without CompressedDataSize, inline and in
  // a data file.
  std::string plain;
  for (int i = 0; i < 64 * 48; ++i) plain += static_cast<char>(i % 5);
  uLongf size = compressBound(static_cast<uLong>(plain.size()));
  std::string packed(size, '\0');
  REQUIRE(compress2(reinterpret_cast<Bytef*>(packed.data()), &size,
                    reinterpret_cast<const Bytef*>(plain.data()), plain.size(), 9) == Z_OK);
  packed.resize(size);
  const std::string head =
      "ObjectType = Image\nNDims = 2\nDimSize = 64 48\nElementType = MET_UCHAR\n"
      "CompressedData = True\n";
  writeBytes(dir / "a.mha", head + "CompressedDataSize = " + std::to_string(packed.size()) +
                                "\nElementDataFile = LOCAL\n" + packed);
  writeBytes(dir / "b.mha", head + "ElementDataFile = LOCAL\n" + packed);
  writeBytes(dir / "c.mhd", head + "ElementDataFile = c.zraw\n");
  writeBytes(dir / "c.zraw", packed);
  for (const char* name : {"a.mha", "b.mha", "c.mhd"}) {
    CAPTURE(name);
    const Image2D img = readMetaImage(dir / name);
    REQUIRE(img.width == 64);
    CHECK(img.at(4, 0) == doctest::Approx(1.0));
    CHECK(img.at(2, 1) == doctest::Approx(0.25 * ((64 + 2) % 5)));
  }

  // A bomb: 1 GiB of float promised by 1 KiB of compressed zeros is refused from the sizes
  // alone (deflate expands at most ~1032 times), before anything is allocated or inflated.
  writeBytes(dir / "bomb.mha",
             "NDims = 3\nDimSize = 1024 1024 256\nElementType = MET_FLOAT\nCompressedData = True\n"
             "CompressedDataSize = 1024\nElementDataFile = LOCAL\n" +
                 std::string(1024, '\0'));
  CHECK_THROWS_WITH_AS(readMetaImageVolume(dir / "bomb.mha"),
                       doctest::Contains("more than zlib can expand"), InputError);
  // A stream cut short, a corrupt one, and a CompressedDataSize beyond the file.
  writeBytes(dir / "cut.mha", head + "ElementDataFile = LOCAL\n" + packed.substr(0, size / 2));
  CHECK_THROWS_WITH_AS(readMetaImage(dir / "cut.mha"), doctest::Contains("truncated"), InputError);
  writeBytes(dir / "junk.mha", head + "ElementDataFile = LOCAL\n" + std::string(200, 'x'));
  CHECK_THROWS_WITH_AS(readMetaImage(dir / "junk.mha"), doctest::Contains("corrupt"), InputError);
  writeBytes(dir / "long.mha",
             head + "CompressedDataSize = 99999\nElementDataFile = LOCAL\n" + packed);
  CHECK_THROWS_WITH_AS(readMetaImage(dir / "long.mha"),
                       doctest::Contains("CompressedDataSize promises"), InputError);
}
