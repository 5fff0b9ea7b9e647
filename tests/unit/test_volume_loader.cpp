// Volumes from files: NIfTI-1 (.nii, .nii.gz; little- and big-endian; scaling), 3D MetaImage,
// and the 3-channel field writer/reader; broken files refused with a sentence.
#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "io/volume_loader.hpp"
#include "test_support.hpp"

using namespace gvflab;

namespace {

template <typename T>
void put(std::string& b, std::size_t at, T v, bool big) {
  unsigned char x[sizeof(T)];
  std::memcpy(x, &v, sizeof(T));
  if (big) std::reverse(x, x + sizeof(T));
  std::memcpy(&b[at], x, sizeof(T));
}

// int16 voxels v(x, y, z) = x + 10y + 100z - 50, scl_slope 2, scl_inter 1.
std::string niftiBytes(int w, int h, int d, bool big) {
  std::string b(352, '\0');
  put<std::int32_t>(b, 0, 348, big);
  const std::int16_t dim[8] = {3, std::int16_t(w), std::int16_t(h), std::int16_t(d), 1, 1, 1, 1};
  for (int i = 0; i < 8; ++i) put<std::int16_t>(b, 40 + 2 * i, dim[i], big);
  put<std::int16_t>(b, 70, 4, big);
  put<std::int16_t>(b, 72, 16, big);
  put<float>(b, 108, 352.0f, big);
  put<float>(b, 112, 2.0f, big);
  put<float>(b, 116, 1.0f, big);
  std::memcpy(&b[344], "n+1", 4);
  for (int z = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        b.resize(b.size() + 2);
        put<std::int16_t>(b, b.size() - 2, std::int16_t(x + 10 * y + 100 * z - 50), big);
      }
  return b;
}

void checkVolume(const Volume& v, int w, int h, int d) {
  REQUIRE(v.width == w);
  REQUIRE(v.depth == d);
  // Rescaled to [0, 1]: the scaling is linear, so the min and max voxels map to 0 and 1.
  CHECK(v.at(0, 0, 0) == doctest::Approx(0.0));
  CHECK(v.at(w - 1, h - 1, d - 1) == doctest::Approx(1.0));
  const double span = (w - 1) + 10.0 * (h - 1) + 100.0 * (d - 1);
  CHECK(v.at(1, 2, 1) == doctest::Approx((1 + 20 + 100) / span).epsilon(1e-5));
}

}  // namespace

TEST_CASE("NIfTI-1 volumes load from .nii and .nii.gz, either byte order") {
  auto dir = test::scratchDir("nifti");
  for (bool big : {false, true}) {
    const std::string bytes = niftiBytes(7, 5, 4, big);
    std::ofstream(dir / "v.nii", std::ios::binary) << bytes;
    gzFile gz = gzopen((dir / "v.nii.gz").c_str(), "wb");
    gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(gz);
    CHECK(app::isVolumeFile(dir / "v.nii"));
    CHECK(app::isVolumeFile(dir / "v.nii.gz"));
    checkVolume(app::loadVolume(dir / "v.nii"), 7, 5, 4);
    checkVolume(app::loadVolume(dir / "v.nii.gz"), 7, 5, 4);
  }
  std::string truncated = niftiBytes(7, 5, 4, false);
  truncated.resize(truncated.size() - 10);
  std::ofstream(dir / "t.nii", std::ios::binary) << truncated;
  CHECK_THROWS_WITH_AS(app::loadVolume(dir / "t.nii"), doctest::Contains("truncated"), InputError);
  std::ofstream(dir / "junk.nii", std::ios::binary) << std::string(400, 'x');
  CHECK_THROWS_WITH_AS(app::loadVolume(dir / "junk.nii"), doctest::Contains("not a NIfTI-1"),
                       InputError);
  CHECK_THROWS_AS(app::loadVolume(dir / "missing.nii"), InputError);
}

TEST_CASE("3D MetaImage volumes and 3-channel fields round-trip") {
  auto dir = test::scratchDir("mha3d");
  std::string hdr = "ObjectType = Image\nNDims = 3\nDimSize = 3 2 2\nElementType = MET_UCHAR\n"
                    "ElementDataFile = LOCAL\n";
  std::ofstream(dir / "v.mha", std::ios::binary) << hdr << std::string("\0\1\2\3\4\5\6\7\10\11\12\14", 12);
  CHECK(app::isVolumeFile(dir / "v.mha"));
  Volume v = app::loadVolume(dir / "v.mha");
  CHECK(v.depth == 2);
  CHECK(v.at(2, 1, 1) == doctest::Approx(1.0));
  CHECK(v.at(1, 0, 0) == doctest::Approx(1.0 / 12));
  Field3D f(4, 3, 2);
  for (std::size_t i = 0; i < f.data.size(); ++i) f.data[i] = 0.01f * float(i) - 0.3f;
  writeMetaImageField3D(dir / "f.mha", f);
  CHECK(!app::isVolumeFile(dir / "missing.png"));
  Field3D g = readMetaImageField3D(dir / "f.mha");
  CHECK(g.depth == 2);
  CHECK(g.data == f.data);
  CHECK_THROWS_AS(readMetaImageField(dir / "f.mha"), InputError);  // not a 2D field
}
